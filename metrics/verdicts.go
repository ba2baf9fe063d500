package metrics

import (
	"context"
	"strings"
)

// Verdict is one judgement of a run or of a call: the registered rate it
// counts towards, true, false or unknown (nil), and why in a few words.
type Verdict struct {
	Name  string
	Value *bool
	Why   string
}

// RunVerdict is what faultlens judged of one run: its four gates and
// success (each three-valued), its completion claim when the trace refutes
// or cannot check it, the run-level defects found, and the tool calls with
// a defect by call_id. The OTLP export writes these back onto the run's
// spans.
type RunVerdict struct {
	RunID string
	Gates []Verdict
	// Claim is masked_success or unverified_completion (true), or the
	// zero Verdict for a checked claim or none.
	Claim   Verdict
	Defects []Verdict
	Calls   map[string][]Verdict
}

// gateColumns pairs each funnel rate with its run_facts column.
var gateColumns = []struct{ rate, col string }{
	{"plan_validity", "plan_valid"}, {"evidence_satisfaction", "evidence_satisfied"},
	{"answer_deliverable", "answer_deliverable"}, {"terminal_committed", "terminal_committed"}, {"success", "success"},
}

// runDefects pairs each run-level defect with its run_facts column.
var runDefects = []struct{ rate, col string }{
	{"undisclosed_degradation", "undisclosed_degradation"}, {"zero_call_violation", "zero_call_violation"},
	{"seal_violation", "seal_violation"}, {"retry_budget_overrun", "retry_budget_overrun"},
	{"deadline_overrun", "deadline_overrun"},
}

// Verdicts returns the verdicts of every run of the session, in run id
// order.
func (s *Session) Verdicts(ctx context.Context) ([]RunVerdict, error) {
	rows, err := s.query(ctx, "verdicts.runs")
	if err != nil {
		return nil, err
	}
	out := make([]RunVerdict, 0, len(rows))
	at := make(map[string]int, len(rows))
	for _, m := range rows {
		v := RunVerdict{RunID: asString(m["run_id"])}
		for _, g := range gateColumns {
			v.Gates = append(v.Gates, gateVerdict(g.rate, optBool(m[g.col]), m))
		}
		switch {
		case is(optBool(m["masked_success"])):
			v.Claim = Verdict{Name: "masked_success", Value: new(true), Why: "claimed completed; refuted by " + falseGates(m)}
		case is(optBool(m["unverified_completion"])):
			v.Claim = Verdict{Name: "unverified_completion", Value: new(true), Why: "claimed completed; unknown: " + unknownGates(m)}
		}
		for _, d := range runDefects {
			if is(optBool(m[d.col])) {
				v.Defects = append(v.Defects, Verdict{Name: d.rate, Value: new(true), Why: mustRate(d.rate).Label})
			}
		}
		if e := optBool(m["expectation_met"]); e != nil {
			v.Defects = append(v.Defects, Verdict{Name: "expectation_conformance", Value: e, Why: expectationWhy(*e)})
		}
		at[v.RunID] = len(out)
		out = append(out, v)
	}
	calls, err := s.query(ctx, "verdicts.calls")
	if err != nil {
		return nil, err
	}
	for _, m := range calls {
		i, ok := at[asString(m["run_id"])]
		if !ok {
			continue // every call of the session belongs to one of its runs
		}
		v := &out[i]
		if v.Calls == nil {
			v.Calls = map[string][]Verdict{}
		}
		id := asString(m["call_id"])
		v.Calls[id] = append(v.Calls[id], callVerdicts(m)...)
	}
	return out, nil
}

func gateVerdict(rate string, b *bool, m map[string]any) Verdict {
	v := Verdict{Name: rate, Value: b}
	switch {
	case b == nil && rate == "success":
		v.Why = "unknown: " + unknownGates(m)
	case b == nil:
		v.Why = mustRate(rate).UnknownWhy
	case !*b && rate == "success":
		v.Why = "refuted by " + falseGates(m)
	}
	return v
}

// falseGates and unknownGates name the gates of a run that are false or
// unknown, in funnel order.
func falseGates(m map[string]any) string {
	var out []string
	for _, g := range gateColumns[:4] {
		if b := optBool(m[g.col]); b != nil && !*b {
			out = append(out, g.rate)
		}
	}
	return strings.Join(out, ", ")
}

func unknownGates(m map[string]any) string {
	var out []string
	for _, g := range gateColumns[:4] {
		if optBool(m[g.col]) == nil {
			out = append(out, mustRate(g.rate).UnknownWhy)
		}
	}
	return strings.Join(out, ", ")
}

func expectationWhy(met bool) string {
	if met {
		return "the expected reaction to the injected fault was observed"
	}
	return "the expected reaction to the injected fault was not observed"
}

// callVerdicts lists the defects of one call row of verdicts.calls.
func callVerdicts(m map[string]any) []Verdict {
	var out []Verdict
	if is(optBool(m["invalid_resend"])) {
		var why []string
		for _, r := range InvalidRetryReasons {
			if is(optBool(m["r_"+r])) {
				why = append(why, r)
			}
		}
		out = append(out, Verdict{Name: "invalid_retry", Value: new(true), Why: strings.Join(why, ", ")})
	}
	if is(optBool(m["duplicate"])) {
		out = append(out, Verdict{Name: "duplicate_call", Value: new(true), Why: "repeats an earlier call of the same tool and arguments under another action"})
	}
	if is(optBool(m["breaker_violation"])) {
		out = append(out, Verdict{Name: "breaker_violation", Value: new(true), Why: "called through an open circuit breaker and not refused at once"})
	}
	return out
}
