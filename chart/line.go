package chart

import (
	"fmt"
	"html/template"
	"math"
	"strings"
)

// Point is one value of a line chart at a labelled position on the x axis.
type Point struct {
	// Label names the position (a date and suite); it may come from a trace.
	Label string
	// Value is NaN where there is none; the line breaks there.
	Value float64
}

// Line draws points left to right as a line with dots. The y axis spans
// the values' own range (padded), so small moves show; its ends are
// labelled. With unit Share the range is kept within [0, 100%].
func Line(points []Point, unit Unit) template.HTML {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range points {
		if !math.IsNaN(p.Value) {
			lo, hi = math.Min(lo, p.Value), math.Max(hi, p.Value)
		}
	}
	if math.IsInf(lo, 1) {
		return noData
	}
	pad := (hi - lo) * 0.1
	if pad == 0 {
		pad = math.Max(math.Abs(hi)*0.1, 0.05)
	}
	lo, hi = lo-pad, hi+pad
	if unit == Share {
		lo, hi = math.Max(lo, 0), math.Min(hi, 1)
	}
	const left, plotW, plotH, top, w, h = 56.0, 440.0, 120.0, 22.0, 520.0, 180.0
	x := func(i int) float64 {
		if len(points) == 1 {
			return left + plotW/2
		}
		return left + plotW*float64(i)/float64(len(points)-1)
	}
	y := func(v float64) float64 { return top + plotH*(hi-v)/(hi-lo) }
	var s strings.Builder
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" role="img">`, w, h)
	fmt.Fprintf(&s, `<rect x="%.0f" y="%.0f" width="%.0f" height="%.0f" fill="#fafafa" stroke="#ccc"/>`, left, top, plotW, plotH)
	for _, v := range []float64{hi, lo} {
		fmt.Fprintf(&s, `<text x="%.0f" y="%.0f" font-size="10" text-anchor="end">%s</text>`, left-4, y(v)+4, unit.format(v))
	}
	var path strings.Builder
	pen := "M"
	for i, p := range points {
		if math.IsNaN(p.Value) {
			pen = "M"
			continue
		}
		fmt.Fprintf(&path, "%s%.1f %.1f ", pen, x(i), y(p.Value))
		pen = "L"
	}
	fmt.Fprintf(&s, `<path d="%s" fill="none" stroke="%s" stroke-width="2"/>`, strings.TrimSpace(path.String()), Blue)
	for i, p := range points {
		anchor := "middle"
		switch {
		case len(points) > 1 && i == 0:
			anchor = "start"
		case len(points) > 1 && i == len(points)-1:
			anchor = "end"
		}
		fmt.Fprintf(&s, `<text x="%.1f" y="%.0f" font-size="10" text-anchor="%s">%s</text>`, x(i), top+plotH+14, anchor, esc(truncate(p.Label, 24)))
		if math.IsNaN(p.Value) {
			continue
		}
		fmt.Fprintf(&s, `<g><title>%s: %s</title><circle cx="%.1f" cy="%.1f" r="4" fill="%s"/></g>`,
			esc(p.Label), unit.format(p.Value), x(i), y(p.Value), Blue)
		fmt.Fprintf(&s, `<text x="%.1f" y="%.1f" font-size="10" text-anchor="%s">%s</text>`, x(i), y(p.Value)-8, anchor, unit.format(p.Value))
	}
	s.WriteString(`</svg>`)
	return template.HTML(s.String())
}
