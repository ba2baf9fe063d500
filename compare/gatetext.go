package compare

import (
	"fmt"
	"math"

	"github.com/faultlens/faultlens/stats"
)

// gateUnit formats a value in a gate's terms: percent for relative gates,
// rate points for rates, ms for latency.
func gateUnit(g Gate, kind string) func(float64) string {
	return func(v float64) string {
		if math.Abs(v) < 5e-7 {
			v = 0 // no "-0.0"
		}
		switch {
		case math.IsInf(v, 0):
			return fmt.Sprintf("%+.0f", v)
		case g.Relative:
			return fmt.Sprintf("%.1f%%", v*100)
		case kind == "rate":
			return fmt.Sprintf("%.1fpp", v*100)
		}
		return msText(v)
	}
}

// ivText is "[lo, hi] (L% interval)", or "" when there is no interval.
func ivText(lo, hi *float64, level float64, unit func(float64) string) string {
	if lo == nil && hi == nil {
		return ""
	}
	f := func(p *float64, inf float64) string {
		if p == nil {
			return unit(inf)
		}
		return unit(*p)
	}
	return fmt.Sprintf("[%s, %s] (%s interval)", f(lo, math.Inf(-1)), f(hi, math.Inf(1)), levelText(level))
}

// levelText prints a confidence level with the digits it needs.
func levelText(l float64) string {
	s := fmt.Sprintf("%.1f%%", l*100)
	if l > 0.999 {
		s = fmt.Sprintf("%.2f%%", l*100)
	}
	return s
}

func fmtPP(v float64) string     { return fmt.Sprintf("%+.1fpp", v*100) }
func fmtPPBare(v float64) string { return fmt.Sprintf("%+.1f", v*100) }

func rateText(x, n int) string { return fmt.Sprintf("%d/%d", x, n) }

// boundOf is stats.BootstrapBound on already sorted replicates.
func boundOf(sorted []float64, a float64, increase bool) float64 {
	return stats.BootstrapBound(sorted, a, increase)
}

func countText(g GateResult) string {
	if g.Kind == "latency" {
		return msText(val(g.Change))
	}
	return fmt.Sprintf("%d of %d", g.CandNum, g.CandDen)
}

// pText prints a p-value without an exponent: below 0.0001 it is
// "<0.0001" (the JSON keeps the number).
func pText(p *float64) string {
	switch {
	case p == nil:
		return "n/a"
	case *p < 0.0001:
		return "<0.0001"
	}
	return fmt.Sprintf("%.3g", *p)
}
