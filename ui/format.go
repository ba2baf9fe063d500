package ui

import (
	"fmt"
	"math"
	"strings"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/textsafe"
)

// safe makes a trace string fit to print.
func safe(s string) string { return textsafe.Terminal(s) }

func pct(r metrics.Rate) string {
	if r.Rate == nil {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", *r.Rate*100)
}

func frac(r metrics.Rate) string {
	return fmt.Sprintf("%d/%d", r.Num, r.Den)
}

// bar draws a horizontal bar of width cells filled to share f.
func bar(f float64, width int) string {
	if math.IsNaN(f) || f < 0 {
		f = 0
	}
	n := int(math.Round(min(f, 1) * float64(width)))
	return strings.Repeat("█", n) + strings.Repeat("·", width-n)
}

func ms(v *float64) string {
	if v == nil {
		return "–"
	}
	return msf(*v)
}

func msf(v float64) string {
	if v >= 10000 {
		return fmt.Sprintf("%.1fs", v/1000)
	}
	return fmt.Sprintf("%.0fms", v)
}

func val(v *float64) float64 {
	if v == nil {
		return 0
	}
	return *v
}

func pad(s string, w int) string {
	if n := len([]rune(s)); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return string([]rune(s)[:w])
}

func lpad(s string, w int) string {
	if n := len([]rune(s)); n < w {
		return strings.Repeat(" ", w-n) + s
	}
	return s
}
