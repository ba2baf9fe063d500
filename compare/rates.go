package compare

import "github.com/faultlens/faultlens/metrics"

// rateDefs are the rates compare tests, in row order: the registry's
// (metrics/registry.go), which gives their names and per-run counts.
var rateDefs = metrics.ComparedRates()

// RateNames lists the rate metric keys a gate may name, in row order.
func RateNames() []string {
	var out []string
	for _, d := range rateDefs {
		out = append(out, d.Name)
	}
	return out
}

// tally sums one rate over runs.
func tally(d metrics.RateDef, runs []*metrics.RunFact) (num, den int) {
	for _, r := range runs {
		n, m := d.PerRun(r)
		num += int(n)
		den += int(m)
	}
	return num, den
}

// is reads a three-valued verdict as "known true".
func is(b *bool) bool { return b != nil && *b }
