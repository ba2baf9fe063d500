package compare

import (
	"fmt"
	"sort"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/stats"
)

// latencyKey identifies one latency distribution.
type latencyKey struct{ scope, name, measure string }

func (k latencyKey) metric(q string) string {
	return fmt.Sprintf("latency.%s.%s.%s.%s", k.scope, k.name, k.measure, q)
}

// samples groups latency samples by key; keep (if not nil) selects runs.
func samples(ls []metrics.LatencySample, keep map[string]bool) map[latencyKey][]float64 {
	out := map[latencyKey][]float64{}
	for _, s := range ls {
		if keep != nil && !keep[s.RunID] {
			continue
		}
		for _, m := range []struct {
			name string
			v    *float64
		}{{"queue", s.QueueMs}, {"exec", s.ExecMs}, {"wall", s.WallMs}} {
			if m.v != nil {
				k := latencyKey{s.Scope, s.Name, m.name}
				out[k] = append(out[k], *m.v)
			}
		}
	}
	// Sorted, so that the bootstrap's resamples and the pooled SD's sum do
	// not depend on the order the database returned the calls in (a parallel
	// scan's order varies from run to run).
	for _, v := range out {
		sort.Float64s(v)
	}
	return out
}

// latencyInput is what a gate needs to test one latency row again, one
// sided: both samples and the row's bootstrap seed.
type latencyInput struct {
	a, b []float64
	q    float64
	seed uint64
}

// latencyRows compares every latency distribution present on both sides:
// one row each for p50 and p95, each with a seeded percentile bootstrap of
// the quantile's change whose two-sided p-value is read from the same
// replicates as the interval (so "p < 1−confidence" and "the interval
// excludes 0" agree). It also returns the inputs by metric key.
//
// scope, when not nil, keeps only the runs of one scenario on both sides
// (the rows then carry scenario sc and their inputs are keyed
// "sc\x00metric"); nil compares all runs.
func latencyRows(base, cand []metrics.LatencySample, groups []map[string]bool, sc string, scope map[string]bool, o Options) ([]Row, map[string]latencyInput) {
	bs, cs := samples(base, scope), samples(cand, scope)
	gs := make([]map[latencyKey][]float64, len(groups))
	for i, g := range groups {
		gs[i] = samples(base, g)
	}
	keys := make([]latencyKey, 0, len(bs))
	for k := range bs {
		if len(cs[k]) > 0 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return scopeOrder(keys[i]) < scopeOrder(keys[j]) })
	var rows []Row
	in := map[string]latencyInput{}
	for i, k := range keys {
		a, b := bs[k], cs[k]
		small := stats.TooSmallToTell(len(a), len(b), o.Alpha)
		mde := stats.MinDetectableShift(len(a), len(b), o.Alpha, 0.8).Absolute(stats.PooledSD(a, b))
		for j, q := range []float64{0.5, 0.95} {
			metric := k.metric([]string{"p50", "p95"}[j])
			if o.OnlyGated != nil && !o.OnlyGated.names(metric) {
				continue
			}
			li := latencyInput{a: a, b: b, q: q, seed: o.Seed + uint64(2*i+j)}
			in[inputKey(sc, metric)] = li
			diffs, _ := stats.BootstrapQuantileReps(a, b, q, o.Iters, li.seed)
			qa, qb := stats.Quantile(a, q), stats.Quantile(b, q)
			half := (1 - o.Confidence) / 2
			r := Row{Metric: metric, Scenario: sc, Kind: "latency", BaseDen: len(a), CandDen: len(b),
				Base: num(qa), Cand: num(qb), Diff: num(qb - qa),
				Lo: num(stats.BootstrapBound(diffs, half, true)), Hi: num(stats.BootstrapBound(diffs, half, false)),
				P: num(stats.BootstrapTwoSidedP(diffs)), Test: stats.TestBootstrap, Level: o.Confidence,
				TooSmall: small, MinDetectable: num(mde)}
			var vals []float64
			for _, g := range gs {
				if x := g[k]; len(x) > 0 {
					vals = append(vals, stats.Quantile(x, q))
				}
			}
			r.Noise = num(spread(vals))
			rows = append(rows, r)
		}
	}
	return rows, in
}

// inputKey names the latency input of a row.
func inputKey(sc, metric string) string {
	if sc == "" {
		return metric
	}
	return sc + "\x00" + metric
}

// scopeOrder sorts stages in pipeline order, then tools, then the run.
func scopeOrder(k latencyKey) string {
	scope := map[string]string{"stage": "0", "tool": "1", "run": "2"}[k.scope]
	stage := map[string]string{"planning": "0", "evidence": "1", "generation": "2", "review": "3", "delivery": "4"}[k.name]
	if stage == "" {
		stage = "5"
	}
	measure := map[string]string{"queue": "0", "exec": "1", "wall": "2"}[k.measure]
	return scope + stage + k.name + "\x00" + measure
}

func fmtSigned(v float64, unit string) string {
	if unit == "ms" {
		return fmt.Sprintf("%+.4gms", v)
	}
	return fmt.Sprintf("%+.1f%s", v, unit)
}
