// Package chart draws the small inline SVG charts of the HTML exports:
// paired bars (baseline against candidate), stacked bars and line charts.
// Each function returns a self-contained <svg> element, or a short
// paragraph when there is nothing to draw. Labels usually come from traces,
// so every label is made safe with textsafe.HTML here, where the SVG is
// built as text.
package chart

import (
	"fmt"
	"html/template"
	"math"

	"github.com/faultlens/faultlens/textsafe"
)

// Unit says how a chart prints its values.
type Unit int

const (
	// Count prints integers.
	Count Unit = iota
	// Share prints a value in [0, 1] as a percentage; the axis runs to 100%.
	Share
	// Ms prints durations in milliseconds, in seconds from 1 s; a chart in
	// Ms clips its axis when one bar dwarfs the rest.
	Ms
	// Number prints two decimals.
	Number
)

// The palette, in one place.
const (
	Grey   = "#999"
	Blue   = "#36c"
	Green  = "#2a8a3e"
	Amber  = "#d08a00"
	Orange = "#e06c00"
	Red    = "#c62828"
	Teal   = "#1b8a8a"
	Purple = "#7b4fb0"
)

// format prints v in unit; NaN is "n/a".
func (u Unit) format(v float64) string {
	switch {
	case math.IsNaN(v):
		return "n/a"
	case u == Share:
		return fmt.Sprintf("%.0f%%", v*100)
	case u == Count:
		return fmt.Sprintf("%.0f", v)
	case u == Number:
		return fmt.Sprintf("%.2f", v)
	case math.Abs(v) >= 10000:
		return fmt.Sprintf("%.1fs", v/1000)
	case math.Abs(v) >= 1000:
		return fmt.Sprintf("%.2fs", v/1000)
	case math.Abs(v) >= 10:
		return fmt.Sprintf("%.0fms", v)
	}
	return fmt.Sprintf("%.1fms", v)
}

// formatPrec is format with extra decimals for shares (prec 0 is the
// unit's own format).
func (u Unit) formatPrec(v float64, prec int) string {
	if u == Share && prec > 0 && !math.IsNaN(v) {
		return fmt.Sprintf("%.*f%%", prec, v*100)
	}
	return u.format(v)
}

// noData is what a chart shows instead of an empty SVG.
const noData = template.HTML(`<p class="nodata">no data</p>`)

// finite maps NaN and ±Inf to 0, for drawing.
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// esc makes an untrusted label safe as SVG text or attribute value.
func esc(s string) string { return textsafe.HTML(s) }

// truncate shortens s to n runes with an ellipsis.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// legend draws coloured keys in a row starting at x.
func legend(x float64, names, colors []string) string {
	var s string
	for i, n := range names {
		s += fmt.Sprintf(`<rect x="%.0f" y="2" width="10" height="10" fill="%s"/><text x="%.0f" y="11" font-size="11">%s</text>`,
			x, colors[i], x+14, esc(n))
		x += 24 + 6.5*float64(len([]rune(n)))
	}
	return s
}
