package proxy

import "path"

// matches says whether the sample covers a call of tool with that side
// effect ("" when the tool's annotations did not say).
func (s *Sample) matches(tool, side string) bool {
	if s.SideEffect != "" && s.SideEffect != side && (side != "" || s.SideEffect != "none") {
		return false
	}
	ok, _ := path.Match(s.Tool, tool) // checked when the plan was parsed
	return ok
}

// selects says whether the k-th (1-based) matching call of a run is
// selected. The share draw depends on the seed, the sample's index in the
// plan and k only, so the same plan, seed and call order give the same
// faults whatever the timing or the run id.
func (s *Sample) selects(k int, seed int64, index int) bool {
	c := s.Calls
	switch {
	case c == nil:
		return true
	case len(c.Nth) > 0:
		for _, n := range c.Nth {
			if n == k {
				return true
			}
		}
		return false
	case c.Every > 0:
		return k%c.Every == 0
	case c.From > 0:
		return k >= c.From
	default:
		return draw(seed, index, k) < c.Share
	}
}

// draw is a uniform number in [0, 1) fixed by its arguments (splitmix64
// over the three, so neighbouring k draw independently).
func draw(seed int64, index, k int) float64 {
	x := mix(uint64(seed) ^ mix(uint64(index)<<32^uint64(k)))
	return float64(x>>11) / (1 << 53)
}

func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
