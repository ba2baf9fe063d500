package metrics

// AlignedStep is one line of two runs' timelines set side by side: a step
// of each (an index into Base.Timeline and Cand.Timeline) or a gap (-1)
// where one run did something the other did not.
type AlignedStep struct {
	Base, Cand int
	// Differs is set where both runs took the step but it went otherwise
	// (status, error category or recovery), and on every gap.
	Differs bool
}

// alignKey is what makes two steps the same step: the kind and the stage
// or tool. Steps are aligned on it, not on their position, so that one
// retry more on one side shows as one inserted step rather than shifting
// every later step against a different one.
func alignKey(s Span) string { return s.Kind + "\x00" + s.Name }

// maxAlignCells bounds the alignment's table (timelines of thousands of
// steps are lined up by position instead).
const maxAlignCells = 1 << 22

// align lines up a and b by a longest common subsequence of their keys
// (Needleman-Wunsch with no mismatch: a step is matched, inserted or
// missing), the matched steps in order and the gaps where they fall.
func align(a, b []Span) []AlignedStep {
	n, m := len(a), len(b)
	if n*m > maxAlignCells {
		return alignByPosition(a, b)
	}
	// l[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	l := make([][]int, n+1)
	for i := range l {
		l[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case alignKey(a[i]) == alignKey(b[j]):
				l[i][j] = l[i+1][j+1] + 1
			default:
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var out []AlignedStep
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && alignKey(a[i]) == alignKey(b[j]) && l[i][j] == l[i+1][j+1]+1:
			out = append(out, AlignedStep{Base: i, Cand: j, Differs: step(a[i]) != step(b[j])})
			i++
			j++
		case j == m || (i < n && l[i+1][j] >= l[i][j+1]):
			out = append(out, AlignedStep{Base: i, Cand: -1, Differs: true})
			i++
		default:
			out = append(out, AlignedStep{Base: -1, Cand: j, Differs: true})
			j++
		}
	}
	return out
}

// alignByPosition pairs step i with step i.
func alignByPosition(a, b []Span) []AlignedStep {
	out := make([]AlignedStep, max(len(a), len(b)))
	for i := range out {
		s := AlignedStep{Base: i, Cand: i}
		if i >= len(a) {
			s.Base = -1
		}
		if i >= len(b) {
			s.Cand = -1
		}
		s.Differs = s.Base < 0 || s.Cand < 0 || step(a[i]) != step(b[i])
		out[i] = s
	}
	return out
}

// firstDiff is the first aligned step that differs, or -1.
func firstDiff(steps []AlignedStep) int {
	for i, s := range steps {
		if s.Differs {
			return i
		}
	}
	return -1
}
