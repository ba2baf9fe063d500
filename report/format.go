package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/faultlens/faultlens/metrics"
)

// pct formats a rate as a percentage with one decimal, "–" when undefined.
func pct(r *float64) string {
	if r == nil {
		return "–"
	}
	return strconv.FormatFloat(*r*100, 'f', 1, 64) + "%"
}

// frac formats "num/den (rate)".
func frac(r metrics.Rate) string {
	return fmt.Sprintf("%d/%d (%s)", r.Num, r.Den, pct(r.Rate))
}

// ratePct is a registered rate as a percentage, or "unknown" when it has
// none to show (no denominator, or no run judged): never 0 % for that.
func ratePct(nr metrics.NamedRate) string {
	if nr.UnknownBecause() != "" {
		return "unknown"
	}
	return pct(nr.Rate.Rate)
}

// rateFrac is "num/den (rate)", or "num/den (unknown: why)".
func rateFrac(nr metrics.NamedRate) string {
	if why := nr.UnknownBecause(); why != "" {
		return fmt.Sprintf("%d/%d (unknown: %s)", nr.Rate.Num, nr.Rate.Den, why)
	}
	return frac(nr.Rate)
}

// named is the rate name of m; names are constants of this package, so a
// miss is a bug the golden tests hit.
func named(m metrics.Metrics, name string) metrics.NamedRate {
	nr, ok := m.Named(name)
	if !ok {
		panic("report: no reported rate " + name + " in metrics/registry.go")
	}
	return nr
}

// ms formats milliseconds compactly: integers below 10 s, seconds above.
func ms(v *float64) string {
	if v == nil {
		return "–"
	}
	x := *v
	switch {
	case x >= 10000:
		return strconv.FormatFloat(x/1000, 'f', 1, 64) + "s"
	case x == float64(int64(x)):
		return strconv.FormatInt(int64(x), 10)
	default:
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
}

// num formats an optional number with two decimals.
func num(v *float64) string {
	if v == nil {
		return "–"
	}
	return strconv.FormatFloat(*v, 'f', 2, 64)
}

// share formats a share as a percentage.
func share(v *float64) string { return pct(v) }

// table lays out rows in aligned columns; the first row is the header.
// Columns listed in right are right-aligned.
func table(rows [][]string, right map[int]bool, indent string) string {
	if len(rows) == 0 {
		return ""
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			if w := displayWidth(c); w > widths[i] {
				widths[i] = w
			}
		}
	}
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(indent)
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-displayWidth(c))
			if right[i] {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c)
				if i < len(r)-1 {
					b.WriteString(pad)
				}
			}
			if i < len(r)-1 {
				b.WriteString("  ")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// displayWidth counts runes, which is right for the strings faultlens
// prints (names are sanitised; no wide characters in our own labels).
func displayWidth(s string) int { return len([]rune(s)) }
