package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/faultlens/faultlens/metrics"
)

// FaultFree is the scenario of runs without an injected fault (the trace
// contract's default).
const FaultFree = "baseline"

// The scenario mixes compare can judge.
const (
	// MixSame: both sides ran the same set of scenarios (a nightly against
	// earlier nights of the same suite). Every gate judges the whole run
	// set.
	MixSame = "same"
	// MixConformance: a fault-free baseline against a fault-injected
	// candidate. Rates that a fault moves by design (success, the gate
	// funnel, latency, evidence grades, budget overruns) are not gated:
	// their gates point at the fault-free control runs' rows and report
	// themselves skipped (even control runs of a fault-injected suite are
	// not drawn like a fault-free suite); defect rates that must stay low
	// under any fault (masked success, violations, invalid re-sends) and
	// expectation conformance judge every run.
	MixConformance = "conformance"
	// MixUnjudgeable: the sides ran different fault scenarios; no gate
	// can tell a regression from a change of mix.
	MixUnjudgeable = "different"
)

// isFaultSensitive reports whether a fault moves the metric by design
// (the registry says which rates; latency keys all are): with a
// conformance mix such metrics are not gated.
func isFaultSensitive(metric string) bool {
	if d, ok := metrics.LookupRate(metric); ok {
		return d.FaultSensitive
	}
	return strings.HasPrefix(metric, "latency.")
}

// detectMix classifies the two sides' scenario sets and lists the
// scenarios found on one side only.
func detectMix(b, c []*metrics.RunFact) (mix string, onlyBase, onlyCand []string) {
	bs, cs := scenarioSet(b), scenarioSet(c)
	for s := range bs {
		if !cs[s] {
			onlyBase = append(onlyBase, s)
		}
	}
	for s := range cs {
		if !bs[s] {
			onlyCand = append(onlyCand, s)
		}
	}
	slices.Sort(onlyBase)
	slices.Sort(onlyCand)
	switch {
	case len(onlyBase) == 0 && len(onlyCand) == 0:
		return MixSame, nil, nil
	case len(bs) == 1 && bs[FaultFree]:
		return MixConformance, onlyBase, onlyCand
	}
	return MixUnjudgeable, onlyBase, onlyCand
}

func scenarioSet(rs []*metrics.RunFact) map[string]bool {
	m := map[string]bool{}
	for _, r := range rs {
		sc := r.Scenario
		if sc == "" {
			sc = FaultFree
		}
		m[sc] = true
	}
	return m
}

// MixError says why two run sets cannot be compared.
type MixError struct {
	OnlyBase, OnlyCand []string
}

func (e *MixError) Error() string {
	var parts []string
	if len(e.OnlyBase) > 0 {
		parts = append(parts, "only in the baseline: "+strings.Join(e.OnlyBase, ", "))
	}
	if len(e.OnlyCand) > 0 {
		parts = append(parts, "only in the candidate: "+strings.Join(e.OnlyCand, ", "))
	}
	return fmt.Sprintf("baseline and candidate ran different fault scenarios (%s): a gate cannot tell a regression "+
		"from a change of mix; compare against a baseline of the same fault mix, or against a fault-free baseline "+
		"(each fault scenario then judged by expectation conformance)", strings.Join(parts, "; "))
}

// CheckMix returns a *MixError when the sides' fault scenarios cannot be
// judged together (see MixSame, MixConformance), else the mix.
func CheckMix(base, cand *metrics.Evidence) (string, error) {
	mix, ob, oc := detectMix(pointers(base.Runs), pointers(cand.Runs))
	if mix == MixUnjudgeable {
		return mix, &MixError{OnlyBase: ob, OnlyCand: oc}
	}
	return mix, nil
}

// gateScenario is the scenario whose row a gate names for the whole run
// set: "" normally; with a conformance mix the fault-free control runs for
// fault-sensitive metrics (shown, and reported as not gated).
func gateScenario(res *Result, metric string) string {
	if res.Mix == MixConformance && isFaultSensitive(metric) {
		return FaultFree
	}
	return ""
}
