package compare

import (
	"fmt"
	"math"
	"sort"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/stats"
)

var nan = math.NaN()

// Options tune a comparison; zero values mean the defaults.
type Options struct {
	// Alpha is the family-wise significance level (default 0.05).
	Alpha float64
	// Confidence is the interval level (default 0.95).
	Confidence float64
	// Iters is the number of bootstrap resamples (default 2000).
	Iters int
	// Seed makes the bootstrap reproducible (default 1).
	Seed uint64
	// OnlyGated, when set, computes only the latency rows these gates
	// name (rates are cheap and always computed): the calibration loop
	// needs the gated decision, not the exploratory table.
	OnlyGated *Gates
}

func (o Options) withDefaults() Options {
	if o.Alpha <= 0 || o.Alpha >= 1 {
		o.Alpha = 0.05
	}
	if o.Confidence <= 0 || o.Confidence >= 1 {
		o.Confidence = 0.95
	}
	if o.Iters <= 0 {
		o.Iters = 2000
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}

// tooSmallRate is the minimum detectable difference (in rate points)
// above which a rate comparison is reported as too small to tell.
const tooSmallRate = 0.25

// Compare judges cand against base. The sides' Runs are filled in; gates
// are evaluated separately (Evaluate).
func Compare(base, cand *metrics.Evidence, bs, cs Side, o Options) *Result {
	o = o.withDefaults()
	bs.Runs, cs.Runs = len(base.Runs), len(cand.Runs)
	res := &Result{ResultVersion: ResultVersion, Baseline: bs, Candidate: cs, Alpha: o.Alpha, Confidence: o.Confidence}
	bRuns, cRuns := pointers(base.Runs), pointers(cand.Runs)
	groups := aaGroups(bRuns)
	res.Rows = append(res.Rows, rateRows("", bRuns, cRuns, groups, o)...)
	lat, in := latencyRows(base.Latency, cand.Latency, idSets(groups), "", nil, o)
	res.Rows = append(res.Rows, lat...)
	res.latency, res.iters = in, o.Iters
	res.Mix, _, _ = detectMix(bRuns, cRuns)
	for _, sc := range scenarios(bRuns, cRuns) {
		b, c := byScenario(bRuns, sc), byScenario(cRuns, sc)
		g := aaGroups(b)
		res.Rows = append(res.Rows, rateRows(sc, b, c, g, o)...)
		if res.Mix == MixConformance && sc == FaultFree {
			// The fault-sensitive gates judge the fault-free control runs
			// both sides share; their latency is compared on its own.
			scope := idSet(append(append([]*metrics.RunFact(nil), b...), c...))
			lat, in := latencyRows(base.Latency, cand.Latency, idSets(g), sc, scope, o)
			res.Rows = append(res.Rows, lat...)
			for k, v := range in {
				res.latency[k] = v
			}
		}
	}
	for i := range res.Rows {
		res.Rows[i].Family = FamilyExploratory
	}
	holmExploratory(res.Rows, o.Alpha)
	res.Paired = paired(bRuns, cRuns)
	if o.OnlyGated != nil {
		Evaluate(res, o.OnlyGated)
	}
	res.Charts = charts(base, cand, res.Rows)
	return res
}

// rateRows compares every rate over the given runs.
func rateRows(scenario string, b, c []*metrics.RunFact, groups [][]*metrics.RunFact, o Options) []Row {
	var rows []Row
	for _, d := range rateDefs {
		x1, n1 := tally(d, b)
		x2, n2 := tally(d, c)
		if n1 == 0 && n2 == 0 {
			continue
		}
		rc := stats.CompareRates(x1, n1, x2, n2, o.Confidence)
		r := Row{Metric: d.Name, Scenario: scenario, Kind: "rate", BaseNum: x1, BaseDen: n1, CandNum: x2, CandDen: n2,
			Base: num(rc.P1), Cand: num(rc.P2), Diff: num(rc.Diff), Lo: num(rc.Interval.Lo), Hi: num(rc.Interval.Hi),
			P: num(newcombeTwoSided(x1, n1, x2, n2)), Test: stats.TestNewcombe, Level: o.Confidence}
		base := rc.P1
		if math.IsNaN(base) {
			base = 0
		}
		mde := stats.MinDetectableRateDiff(n1, n2, base, o.Alpha, 0.8)
		r.MinDetectable = num(mde)
		r.TooSmall = n1 == 0 || n2 == 0 || mde > tooSmallRate
		var vals []float64
		for _, g := range groups {
			if a, m := tally(d, g); m > 0 {
				vals = append(vals, float64(a)/float64(m))
			}
		}
		r.Noise = num(spread(vals))
		rows = append(rows, r)
	}
	return rows
}

// verdict is the signed change of a significant row: points for rates,
// a duration for latency, with its share of the baseline when that share
// is at most 100 % (beyond, the percentage of a quantile near 0 is huge
// and says nothing the duration does not).
func verdict(r *Row) string {
	if r.Kind == "rate" {
		return fmtSigned(val(r.Diff)*100, "pp")
	}
	d := signedMs(val(r.Diff))
	if b := val(r.Base); b > 0 && math.Abs(val(r.Diff)/b) <= 1 {
		d += fmt.Sprintf(" (%+.0f%%)", val(r.Diff)/b*100)
	}
	return d
}

func pointers(rs []metrics.RunFact) []*metrics.RunFact {
	out := make([]*metrics.RunFact, len(rs))
	for i := range rs {
		out[i] = &rs[i]
	}
	return out
}

// aaGroups splits the baseline into the groups whose differences are the
// A/A noise band: its suites (the nights of --baseline-last K), ordered by
// their first run, when it has more than one; else its two halves by run
// order.
func aaGroups(rs []*metrics.RunFact) [][]*metrics.RunFact {
	var order []string
	by := map[string][]*metrics.RunFact{}
	for _, r := range inOrder(rs) {
		if _, ok := by[r.Suite]; !ok {
			order = append(order, r.Suite)
		}
		by[r.Suite] = append(by[r.Suite], r)
	}
	if len(order) > 1 {
		out := make([][]*metrics.RunFact, len(order))
		for i, s := range order {
			out[i] = by[s]
		}
		return out
	}
	a, b := halves(rs)
	return [][]*metrics.RunFact{a, b}
}

// spread is the largest absolute difference between two of vals (NaN with
// fewer than two): the widest change seen between two baseline groups.
func spread(vals []float64) float64 {
	if len(vals) < 2 {
		return math.NaN()
	}
	lo, hi := vals[0], vals[0]
	for _, v := range vals[1:] {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return hi - lo
}

func idSets(groups [][]*metrics.RunFact) []map[string]bool {
	out := make([]map[string]bool, len(groups))
	for i, g := range groups {
		out[i] = idSet(g)
	}
	return out
}

// halves splits runs by order (their start time) into a first and a second
// half: the A/A split.
func halves(rs []*metrics.RunFact) (a, b []*metrics.RunFact) {
	s := append([]*metrics.RunFact(nil), rs...)
	sort.SliceStable(s, func(i, j int) bool { return before(s[i], s[j]) })
	return s[:len(s)/2], s[len(s)/2:]
}

func before(a, b *metrics.RunFact) bool {
	switch {
	case a.StartedAt == nil || b.StartedAt == nil:
		return a.StartedAt != nil && b.StartedAt == nil
	case !a.StartedAt.Equal(*b.StartedAt):
		return a.StartedAt.Before(*b.StartedAt)
	}
	return a.RunID < b.RunID
}

func idSet(rs []*metrics.RunFact) map[string]bool {
	m := make(map[string]bool, len(rs))
	for _, r := range rs {
		m[r.RunID] = true
	}
	return m
}

// scenarios lists the scenarios of either side, sorted.
func scenarios(b, c []*metrics.RunFact) []string {
	seen := map[string]bool{}
	for _, r := range append(append([]*metrics.RunFact(nil), b...), c...) {
		seen[r.Scenario] = true
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func byScenario(rs []*metrics.RunFact, sc string) []*metrics.RunFact {
	var out []*metrics.RunFact
	for _, r := range rs {
		if r.Scenario == sc {
			out = append(out, r)
		}
	}
	return out
}

// newcombeTwoSided is the two-sided p-value of the inverted Newcombe
// interval, NaN when a side is empty.
func newcombeTwoSided(x1, n1, x2, n2 int) float64 {
	return math.Min(1, 2*math.Min(stats.NewcombeOneSidedP(x1, n1, x2, n2, true), stats.NewcombeOneSidedP(x1, n1, x2, n2, false)))
}
