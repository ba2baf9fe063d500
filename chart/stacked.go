package chart

import (
	"fmt"
	"html/template"
	"math"
	"strings"
)

// Series names one segment of every stacked bar and gives its colour.
type Series struct {
	Name  string
	Color string
}

// Stack is one labelled horizontal bar made of one value per series.
type Stack struct {
	// Label names the bar; it may come from a trace.
	Label string
	// Values has one entry per series; NaN counts as 0.
	Values []float64
	// Text is printed after the bar; empty prints the total.
	Text string
	// Note is shown in the bar's tooltip.
	Note string
}

// Stacked draws one horizontal bar per stack, its segments in the series'
// colours. axis is the value at the end of the axis (0: the largest total;
// Share: at least 100%).
// With one series the legend is left out.
func Stacked(series []Series, stacks []Stack, unit Unit, axis float64) template.HTML {
	if len(stacks) == 0 {
		return noData
	}
	const labelW, barW, rowH, top = 170.0, 270.0, 22.0, 20.0
	clipped := false
	if axis <= 0 && unit == Ms {
		totals := make([]float64, len(stacks))
		for i, st := range stacks {
			totals[i] = total(st.Values)
		}
		axis, clipped = clipAxis(totals)
	}
	if axis <= 0 {
		for _, st := range stacks {
			axis = math.Max(axis, total(st.Values))
		}
		if unit == Share {
			axis = math.Max(axis, 1)
		}
		if axis == 0 {
			axis = 1
		}
	}
	t := top
	if len(series) < 2 {
		t = 4
	}
	h := t + rowH*float64(len(stacks)) + 4
	if clipped {
		h += 16
	}
	var s strings.Builder
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" role="img">`, labelW+barW+140, h)
	if len(series) > 1 {
		names, colors := make([]string, len(series)), make([]string, len(series))
		for i, se := range series {
			names[i], colors[i] = se.Name, se.Color
		}
		s.WriteString(legend(0, names, colors))
	}
	for i, st := range stacks {
		y := t + rowH*float64(i)
		tip := st.Label
		for j, v := range st.Values {
			if j < len(series) {
				tip += fmt.Sprintf("; %s %s", series[j].Name, unit.format(v))
			}
		}
		if st.Note != "" {
			tip += "; " + st.Note
		}
		fmt.Fprintf(&s, `<g><title>%s</title><text x="0" y="%.0f" font-size="12">%s</text>`,
			esc(tip), y+14, esc(truncate(st.Label, 26)))
		x := labelW
		for j, v := range st.Values {
			if j >= len(series) {
				break
			}
			w := clamp(barW*finite(v)/axis, labelW+barW-x)
			fmt.Fprintf(&s, `<rect x="%.1f" y="%.0f" width="%.1f" height="16" fill="%s"/>`, x, y+2, w, series[j].Color)
			x += w
		}
		if clipped && total(st.Values) > axis {
			s.WriteString(cutMark(x, y+2, 16))
		}
		text := st.Text
		if text == "" {
			text = unit.format(total(st.Values))
		}
		fmt.Fprintf(&s, `<text x="%.1f" y="%.0f" font-size="11">%s</text></g>`, x+4, y+14, esc(text))
	}
	if clipped {
		s.WriteString(clipNote(h-4, axis, unit))
	}
	s.WriteString(`</svg>`)
	return template.HTML(s.String())
}

func total(vs []float64) float64 {
	t := 0.0
	for _, v := range vs {
		t += finite(v)
	}
	return t
}
