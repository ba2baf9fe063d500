package calibrate

import (
	"math"

	"github.com/faultlens/faultlens/compare"
	"github.com/faultlens/faultlens/simulate"
)

// Case is one row of the calibration table: a baseline distribution and a
// candidate distribution (equal for an A/A case).
type Case struct {
	// Name is the row's label; Group the baseline it shares (cases of
	// one group are compared with the same baseline suite of each seed).
	Name, Group string
	// Base and Cand describe the two suites (Runs, Seed and Suite are
	// set by the runner).
	Base, Cand simulate.Options
	// Gates, when not nil, replaces the shipped defaults.
	Gates *compare.Gates
	// AA says the two sides come from one distribution: a failure is a
	// false alarm. Otherwise it is a detection.
	AA bool
	// PerSeed is the number of candidate suites per seed (default 1): A/A
	// cases use 2, so that 50 seeds give 100 A/A pairs.
	PerSeed int
	// Counts says the watched gate reports a count (a zero rule), not a
	// rate or a relative change.
	Counts bool
	// Watch is the gated metric whose observed change is reported (the
	// realised size of the injected regression).
	Watch string
}

func nan() float64 { return math.NaN() }

var (
	careful       = simulate.Options{Policy: simulate.Careful}
	carefulFaults = simulate.Options{Policy: simulate.Careful, Faults: true}
)

func with(o simulate.Options, in simulate.Injection) simulate.Options {
	o.Inject = in
	return o
}

// Cases are the regressions the gates must catch, each at the sizes a
// nightly uses, and the A/A pairs that measure their false alarms.
// The tool slowed down is "search", the tool with the most calls (every
// claim starts with one).
func Cases() []Case {
	naive5 := simulate.Injection{NaiveFraction: 0.05}
	calm := simulate.Injection{NoTransients: true}
	mni, _ := mustNotIncrease()
	return []Case{
		{Name: "A/A careful, fault-free", Group: "careful", Base: careful, Cand: careful, AA: true, PerSeed: 2, Watch: "success"},
		{Name: "success −5 points", Group: "careful", Base: careful, Cand: with(careful, simulate.Injection{LostEvidence: 0.05}), Watch: "success"},
		{Name: "success −10 points", Group: "careful", Base: careful, Cand: with(careful, simulate.Injection{LostEvidence: 0.10}), Watch: "success"},
		{Name: "one masked success", Group: "careful", Base: careful, Cand: with(careful, simulate.Injection{MaskedRuns: 1}), Watch: "masked_success", Counts: true},
		{Name: "three masked successes", Group: "careful", Base: careful, Cand: with(careful, simulate.Injection{MaskedRuns: 3}), Watch: "masked_success", Counts: true},
		{Name: "search exec p95 +20 %", Group: "careful", Base: careful, Cand: with(careful, simulate.Injection{SlowTool: "search", SlowToolScale: 1.2}), Watch: "latency.tool.search.exec.p95"},
		{Name: "search exec p95 +50 %", Group: "careful", Base: careful, Cand: with(careful, simulate.Injection{SlowTool: "search", SlowToolScale: 1.5}), Watch: "latency.tool.search.exec.p95"},
		{Name: "search exec p95 +100 %", Group: "careful", Base: careful, Cand: with(careful, simulate.Injection{SlowTool: "search", SlowToolScale: 2}), Watch: "latency.tool.search.exec.p95"},
		{Name: "all exec ×1.2 (end to end)", Group: "careful", Base: careful, Cand: with(careful, simulate.Injection{ExecScale: 1.2}), Watch: "latency.run.end_to_end.wall.p95"},
		{Name: "all exec ×1.5 (end to end)", Group: "careful", Base: careful, Cand: with(careful, simulate.Injection{ExecScale: 1.5}), Watch: "latency.run.end_to_end.wall.p95"},
		{Name: "all exec ×2 (end to end)", Group: "careful", Base: careful, Cand: with(careful, simulate.Injection{ExecScale: 2}), Watch: "latency.run.end_to_end.wall.p95"},
		{Name: "queue ×1.5 (queue p95 +50 %)", Group: "careful", Base: careful, Cand: with(careful, simulate.Injection{QueueScale: 1.5}), Watch: "latency.tool.search.queue.p95"},
		{Name: "invalid re-sends +5 points", Group: "careful", Base: careful, Cand: with(careful, simulate.Injection{InvalidResends: invalidFor5Points}), Watch: "invalid_retry"},
		// Against a baseline without transient faults, where any re-send stands out.
		{Name: "A/A retry-free baseline", Group: "calm", Base: with(careful, calm), Cand: with(careful, calm), AA: true, PerSeed: 2, Watch: "invalid_retry"},
		{Name: "invalid re-sends (≈25 % of re-sends) vs a retry-free baseline", Group: "calm", Base: with(careful, calm),
			Cand: with(careful, simulate.Injection{InvalidResends: 0.05}), Watch: "invalid_retry"},
		{Name: "A/A 5 % naive baseline (must_be_zero)", Group: "naive5", Base: with(careful, naive5), Cand: with(careful, naive5), AA: true, PerSeed: 2, Watch: "masked_success"},
		{Name: "A/A 5 % naive baseline (must_not_increase)", Group: "naive5", Base: with(careful, naive5), Cand: with(careful, naive5), AA: true, PerSeed: 2, Watch: "masked_success", Gates: mni},
		{Name: "A/A careful under faults (same mix)", Group: "faults", Base: carefulFaults, Cand: carefulFaults, AA: true, PerSeed: 2, Watch: "expectation_conformance"},
		{Name: "careful under faults vs fault-free (conformance)", Group: "careful", Base: careful, Cand: carefulFaults, AA: true, PerSeed: 2, Watch: "expectation_conformance"},
		{Name: "conformance −10 points (same mix)", Group: "faults", Base: carefulFaults,
			Cand: with(carefulFaults, simulate.Injection{WrongTerminal: wrongFor10Points}), Watch: "expectation_conformance"},
		{Name: "conformance −10 points vs fault-free", Group: "careful", Base: careful,
			Cand: with(carefulFaults, simulate.Injection{WrongTerminal: wrongFor10Points}), Watch: "expectation_conformance"},
	}
}

// The injection probabilities that give the sizes the issues name; the
// realised mean change is printed beside each row.
var (
	invalidFor5Points = 0.01
	wrongFor10Points  = 0.085
)

// mustNotIncrease is the shipped gates with every must_be_zero rule
// turned into must_not_increase: the setting for baselines known to carry
// the defects.
func mustNotIncrease() (*compare.Gates, error) {
	g := compare.DefaultGates()
	for i := range g.Gates {
		if g.Gates[i].MustBeZero {
			g.Gates[i].MustBeZero, g.Gates[i].MustNotIncrease = false, true
		}
	}
	return g, nil
}
