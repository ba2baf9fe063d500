package metrics

import (
	"context"
	"fmt"
)

// Options narrow a report.
type Options struct {
	// Suites, when not empty, keeps only these suites (in this order).
	Suites []string
}

// Report computes the full evaluation over the session's facts.
func (s *Session) Report(ctx context.Context, opts Options) (*Report, error) {
	rep := &Report{ReportVersion: ReportVersion, Rejected: Rejected{ByReason: map[string]int64{}}}
	rej, err := s.query(ctx, "metrics.rejected")
	if err != nil {
		return nil, err
	}
	for _, r := range rej {
		n := asInt(r["n"])
		rep.Rejected.ByReason[asString(r["reason"])] = n
		rep.Rejected.Lines += n
	}

	suites := map[string]*Suite{}
	scenarios := map[[2]string]*ScenarioPart{}
	scenarioOrder := map[string][]*ScenarioPart{}
	var order []string
	// target finds the suite or scenario a rate row belongs to.
	target := func(row map[string]any) (*Metrics, **float64) {
		suite, scen := asString(row["suite"]), row["scenario"]
		st, ok := suites[suite]
		if !ok {
			st = &Suite{Suite: suite, Recovery: []RecoveryRow{}, EvidenceGrade: []GradeRow{}, Latency: []LatencyRow{}, Scenarios: []ScenarioPart{}}
			initMetrics(&st.Metrics)
			suites[suite] = st
			order = append(order, suite)
		}
		if scen == nil {
			return &st.Metrics, &st.RetryAmplification
		}
		key := [2]string{suite, asString(scen)}
		sp, ok := scenarios[key]
		if !ok {
			sp = &ScenarioPart{Scenario: key[1]}
			initMetrics(&sp.Metrics)
			scenarios[key] = sp
			scenarioOrder[suite] = append(scenarioOrder[suite], sp)
		}
		return &sp.Metrics, &sp.RetryAmplification
	}

	runRows, err := s.query(ctx, "metrics.run_rates")
	if err != nil {
		return nil, err
	}
	for _, row := range runRows {
		m, amp := target(row)
		if err := fillRates(m, row); err != nil {
			return nil, fmt.Errorf("metrics: metrics.run_rates: %w", err)
		}
		*amp = ratio(asInt(row["tool_calls"]), asInt(row["actions"]))
		if row["scenario"] == nil {
			suites[asString(row["suite"])].Runs = asInt(row["runs"])
		} else {
			scenarios[[2]string{asString(row["suite"]), asString(row["scenario"])}].Runs = asInt(row["runs"])
		}
	}
	for _, q := range []string{"metrics.call_rates", "metrics.stage_rates"} {
		rows, err := s.query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, row := range rows {
			m, _ := target(row)
			if err := fillRates(m, row); err != nil {
				return nil, fmt.Errorf("metrics: %s: %w", q, err)
			}
		}
	}
	for _, name := range order {
		for _, sp := range scenarioOrder[name] {
			suites[name].Scenarios = append(suites[name].Scenarios, *sp)
		}
	}
	if err := s.fillBreakdowns(ctx, suites); err != nil {
		return nil, err
	}
	rep.Suites = pick(order, suites, opts.Suites)
	return rep, nil
}

func pick(order []string, suites map[string]*Suite, want []string) []Suite {
	out := []Suite{}
	if len(want) == 0 {
		for _, n := range order {
			out = append(out, *suites[n])
		}
		return out
	}
	for _, n := range want {
		if st, ok := suites[n]; ok {
			out = append(out, *st)
		}
	}
	return out
}

// fillBreakdowns adds recovery, evidence grade and latency rows, and the
// calls of unknown arguments per tool, per suite.
func (s *Session) fillBreakdowns(ctx context.Context, suites map[string]*Suite) error {
	rows, err := s.query(ctx, "metrics.recovery")
	if err != nil {
		return err
	}
	for _, r := range rows {
		if st := suites[asString(r["suite"])]; st != nil {
			st.Recovery = append(st.Recovery, RecoveryRow{
				Category: asString(r["category"]), Tool: asString(r["tool"]), Chains: asInt(r["chains"]),
				FirstTry: asInt(r["first_try"]), AfterRetry: asInt(r["after_retry"]),
				AfterSwitch: asInt(r["after_switch"]), Degraded: asInt(r["degraded"]), Failed: asInt(r["failed"]),
			})
		}
	}
	if rows, err = s.query(ctx, "metrics.evidence_grade"); err != nil {
		return err
	}
	for _, r := range rows {
		if st := suites[asString(r["suite"])]; st != nil {
			st.EvidenceGrade = append(st.EvidenceGrade, GradeRow{Path: asString(r["path"]), Count: asInt(r["count"]), MeanGrade: asFloat(r["mean_grade"])})
		}
	}
	if rows, err = s.query(ctx, "metrics.unknown_args"); err != nil {
		return err
	}
	for _, r := range rows {
		if st := suites[asString(r["suite"])]; st != nil {
			if st.UnknownArgs == nil {
				st.UnknownArgs = map[string]int64{}
			}
			st.UnknownArgs[asString(r["tool"])] = asInt(r["calls"])
		}
	}
	lat, err := s.latency(ctx)
	if err != nil {
		return err
	}
	for name, st := range suites {
		st.Latency = append(st.Latency, lat[name]...)
	}
	return nil
}

// latency is the latency of every stage, tool and run end to end by suite,
// in the report's order: Suite.Latency. It reads the ~100 rows of the
// session's latency_facts (facts.latency), where the percentiles were
// computed once when the facts were built.
func (s *Session) latency(ctx context.Context) (map[string][]LatencyRow, error) {
	rows, err := s.query(ctx, "metrics.latency")
	if err != nil {
		return nil, err
	}
	out := map[string][]LatencyRow{}
	for _, r := range rows {
		suite := asString(r["suite"])
		out[suite] = append(out[suite], LatencyRow{
			Scope: asString(r["scope"]), Name: asString(r["name"]), N: asInt(r["n"]),
			QueueMs: quantiles(r["queue_q"], r["queue_max"]), ExecMs: quantiles(r["exec_q"], r["exec_max"]),
			WallMs: quantiles(r["wall_q"], r["wall_max"]), QueueShare: asFloat(r["queue_share"]),
		})
	}
	return out, nil
}
