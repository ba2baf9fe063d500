package chart

import (
	"fmt"
	"math"
	"sort"
)

// clipRatio is how many times the next largest value the largest may be
// before the axis is clipped: one 361 s outlier must not flatten every
// other bar of a latency chart into a sliver.
const clipRatio = 3

// clipAxis is the end of a linear axis for values: the largest value, or,
// when it exceeds clipRatio times the next largest, 1.5 times that next
// one, with clipped set. Bars beyond the axis are drawn cut and marked.
func clipAxis(values []float64) (axis float64, clipped bool) {
	var vs []float64
	for _, v := range values {
		if v = finite(v); v > 0 {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return 0, false
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(vs)))
	if len(vs) > 1 && vs[0] > clipRatio*vs[1] {
		return 1.5 * vs[1], true
	}
	return vs[0], false
}

// cutMark draws the break on a bar cut at x: two white slashes.
func cutMark(x, y, h float64) string {
	return fmt.Sprintf(`<path class="cut" d="M%.1f %.1f l5 %.1f M%.1f %.1f l5 %.1f" stroke="#fff" stroke-width="2"/>`,
		x-14, y, h, x-8, y, h)
}

// clipNote is the line under a clipped chart saying so.
func clipNote(y float64, axis float64, unit Unit) string {
	return fmt.Sprintf(`<text class="clipnote" x="0" y="%.0f" font-size="11" fill="#a00">scale clipped at %s: bars marked // are longer (value printed)</text>`,
		y, unit.format(axis))
}

// clamp limits a bar's width to the plot.
func clamp(w, limit float64) float64 { return math.Min(w, limit) }
