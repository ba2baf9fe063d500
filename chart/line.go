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

// The geometry of a line chart, and the width of a character of its
// 10-pixel labels (an upper bound for the sans-serif fonts browsers use).
const (
	lineLeft, lineW, lineH, lineTop = 56.0, 440.0, 120.0, 22.0
	charW                           = 6.0
	labelRunes                      = 24
)

// Line draws points left to right as a line with dots. The y axis starts
// at 0 (shares run to 100%), so a height is never exaggerated, and is
// ruled at quarters; values are printed with the decimals it takes to
// tell different ones apart. X labels are thinned, counting back from the
// newest point, so that they never overlap; every point keeps its
// tooltip.
func Line(points []Point, unit Unit) template.HTML {
	hi := math.Inf(-1)
	lo := 0.0
	var vals []float64
	for _, p := range points {
		if !math.IsNaN(p.Value) {
			hi, lo = math.Max(hi, p.Value), math.Min(lo, p.Value)
			vals = append(vals, p.Value)
		}
	}
	if math.IsInf(hi, -1) {
		return noData
	}
	switch {
	case unit == Share:
		lo, hi = 0, 1
	case hi <= lo:
		hi = lo + 1
	default:
		hi *= 1.1
	}
	prec := decimals(vals, unit)
	x := func(i int) float64 {
		if len(points) == 1 {
			return lineLeft + lineW/2
		}
		return lineLeft + lineW*float64(i)/float64(len(points)-1)
	}
	y := func(v float64) float64 { return lineTop + lineH*(hi-v)/(hi-lo) }
	var s strings.Builder
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" role="img">`, 520.0, 180.0)
	fmt.Fprintf(&s, `<rect x="%.0f" y="%.0f" width="%.0f" height="%.0f" fill="#fafafa" stroke="#ccc"/>`, lineLeft, lineTop, lineW, lineH)
	for q := 0; q <= 4; q++ {
		v := lo + (hi-lo)*float64(q)/4
		if q > 0 && q < 4 {
			fmt.Fprintf(&s, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#e4e4e4"/>`, lineLeft, y(v), lineLeft+lineW, y(v))
		}
		fmt.Fprintf(&s, `<text class="ytick" x="%.0f" y="%.1f" font-size="10" text-anchor="end">%s</text>`, lineLeft-4, y(v)+4, unit.formatPrec(v, 0))
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
	step, spacing := labelStep(points)
	valueLabels := spacing >= 8*charW
	for i, p := range points {
		anchor := "middle"
		switch {
		case len(points) > 1 && i == 0:
			anchor = "start"
		case len(points) > 1 && i == len(points)-1:
			anchor = "end"
		}
		if (len(points)-1-i)%step == 0 {
			fmt.Fprintf(&s, `<text class="xlabel" x="%.1f" y="%.0f" font-size="10" text-anchor="%s">%s</text>`,
				x(i), lineTop+lineH+14, anchor, esc(truncate(p.Label, labelRunes)))
		}
		if math.IsNaN(p.Value) {
			continue
		}
		r := 4.0
		if !valueLabels {
			r = 2.5
		}
		fmt.Fprintf(&s, `<g><title>%s: %s</title><circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s"/></g>`,
			esc(p.Label), unit.formatPrec(p.Value, prec), x(i), y(p.Value), r, Blue)
		if valueLabels || i == len(points)-1 {
			fmt.Fprintf(&s, `<text class="value" x="%.1f" y="%.1f" font-size="10" text-anchor="%s">%s</text>`,
				x(i), y(p.Value)-8, anchor, unit.formatPrec(p.Value, prec))
		}
	}
	s.WriteString(`</svg>`)
	return template.HTML(s.String())
}

// labelStep is every how many points an x label fits, and the spacing of
// the points: a middle-anchored label next to an end-anchored one needs
// one and a half label widths.
func labelStep(points []Point) (int, float64) {
	if len(points) < 2 {
		return 1, lineW
	}
	widest := 0
	for _, p := range points {
		widest = max(widest, min(len([]rune(p.Label)), labelRunes))
	}
	spacing := lineW / float64(len(points)-1)
	need := 1.5*float64(widest)*charW + 8
	return max(1, int(math.Ceil(need/spacing))), spacing
}

// decimals is how many decimals a share or number needs so that values
// that differ print differently (at most 2 beyond the unit's own).
func decimals(vals []float64, unit Unit) int {
	for prec := 0; prec < 2; prec++ {
		seen := map[string]float64{}
		ok := true
		for _, v := range vals {
			t := unit.formatPrec(v, prec)
			if w, dup := seen[t]; dup && w != v {
				ok = false
				break
			}
			seen[t] = v
		}
		if ok {
			return prec
		}
	}
	return 2
}
