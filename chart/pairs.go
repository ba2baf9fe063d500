package chart

import (
	"fmt"
	"html/template"
	"math"
	"strings"
)

// Pair is one labelled pair of values, such as baseline and candidate.
type Pair struct {
	// Label names the row; it may come from a trace.
	Label string
	// A and B are the two values; NaN is drawn as "n/a".
	A, B float64
	// Note is shown in the row's tooltip.
	Note string
}

// Pairs draws paired horizontal bars, A grey and B blue, with names as the
// legend. With unit Share the axis runs to 100%.
func Pairs(pairs []Pair, names [2]string, unit Unit) template.HTML {
	if len(pairs) == 0 {
		return noData
	}
	const labelW, barW, rowH = 200.0, 260.0, 34.0
	top, clipped := 0.0, false
	for _, p := range pairs {
		top = math.Max(top, math.Max(finite(p.A), finite(p.B)))
	}
	if unit == Ms {
		var vs []float64
		for _, p := range pairs {
			vs = append(vs, p.A, p.B)
		}
		top, clipped = clipAxis(vs)
	}
	if unit == Share || top == 0 {
		top = math.Max(top, 1)
	}
	colors := []string{Grey, Blue}
	h := rowH*float64(len(pairs)) + 24
	if clipped {
		h += 16
	}
	var s strings.Builder
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" role="img">`, labelW+barW+80, h)
	s.WriteString(legend(labelW, names[:], colors))
	for i, p := range pairs {
		y := 20 + rowH*float64(i)
		fmt.Fprintf(&s, `<g><title>%s</title><text x="0" y="%.0f" font-size="12">%s</text>`,
			esc(p.Label+" "+p.Note), y+18, esc(truncate(p.Label, 28)))
		for j, v := range []float64{p.A, p.B} {
			wdt := clamp(barW*finite(v)/top, barW)
			yy := y + 4 + float64(j)*13
			fmt.Fprintf(&s, `<rect x="%.0f" y="%.0f" width="%.1f" height="12" fill="%s"/>`, labelW, yy, wdt, colors[j])
			if clipped && finite(v) > top {
				s.WriteString(cutMark(labelW+wdt, yy, 12))
			}
			fmt.Fprintf(&s, `<text x="%.1f" y="%.0f" font-size="10">%s</text>`, labelW+wdt+4, yy+10, unit.format(v))
		}
		s.WriteString(`</g>`)
	}
	if clipped {
		s.WriteString(clipNote(h-4, top, unit))
	}
	s.WriteString(`</svg>`)
	return template.HTML(s.String())
}
