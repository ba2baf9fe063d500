package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/textsafe"
)

// style applies ANSI attributes when colour is on.
type style struct{ color bool }

func (s style) wrap(code, text string) string {
	if !s.color {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}
func (s style) bold(t string) string { return s.wrap("1", t) }
func (s style) bad(t string) string  { return s.wrap("1;31", t) }
func (s style) dim(t string) string  { return s.wrap("2", t) }

// alarm marks a violation count: loud when non-zero.
func (s style) alarm(r metrics.Rate) string {
	t := frac(r)
	if r.Num > 0 {
		return s.bad(t + "  ◀")
	}
	return t
}

// Text writes the report for a person at a terminal.
func Text(w io.Writer, rep *metrics.Report, opts Options) error {
	st := style{color: opts.Color}
	var b strings.Builder
	var runs int64
	for _, s := range rep.Suites {
		runs += s.Runs
	}
	fmt.Fprintf(&b, "%s  %d suite(s), %d runs, %s\n", st.bold("faultlens report"), len(rep.Suites), runs, rejectedLine(st, rep.Rejected))
	if rep.Rejected.Lines > 0 {
		reasons := make([]string, 0, len(rep.Rejected.ByReason))
		for r := range rep.Rejected.ByReason {
			reasons = append(reasons, r)
		}
		sort.Strings(reasons)
		for _, r := range reasons {
			fmt.Fprintf(&b, "  %6d  %s\n", rep.Rejected.ByReason[r], textsafe.Terminal(r))
		}
		b.WriteString(st.dim("  (faultlens rejected lists them with file and line)") + "\n")
	}
	for _, s := range rep.Suites {
		b.WriteString("\n")
		suiteText(&b, st, s)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func rejectedLine(st style, r metrics.Rejected) string {
	t := fmt.Sprintf("%d rejected lines", r.Lines)
	if r.Lines > 0 {
		return st.bad(t)
	}
	return t
}

func suiteText(b *strings.Builder, st style, s metrics.Suite) {
	m := s.Metrics
	fmt.Fprintf(b, "%s %s  (%d runs)\n", st.bold("━━ suite"), st.bold(textsafe.Terminal(s.Suite)), s.Runs)

	b.WriteString(st.bold("Funnel") + "  (every rate over all runs)\n")
	funnel := [][]string{{"step", "runs", "rate", "unknown"}, {"runs", fmt.Sprint(s.Runs), "", ""}}
	for _, nr := range m.RatesIn(metrics.GroupFunnel) {
		funnel = append(funnel, []string{nr.Def.Label, fmt.Sprint(nr.Rate.Num), ratePct(nr), unknownOf(nr.Rate)})
	}
	b.WriteString(table(funnel, map[int]bool{1: true, 2: true, 3: true}, "  "))
	for _, why := range unknownReasons(m) {
		fmt.Fprintf(b, "  %s\n", st.dim(why))
	}
	fmt.Fprintf(b, "  %s: %s\n", label("evidence_satisfaction_given_plan"), rateFrac(named(m, "evidence_satisfaction_given_plan")))

	b.WriteString(st.bold("Claimed vs actual") + "\n")
	fmt.Fprintf(b, "  %-24s %d runs;  actually successful %d runs\n", label("claimed_completed"), m.ClaimedCompleted.Num, m.Success.Num)
	for _, nr := range m.RatesIn(metrics.GroupClaims) {
		rateLine(b, st, nr)
	}

	b.WriteString(st.bold("Violations") + "\n")
	for _, nr := range m.RatesIn(metrics.GroupViolations) {
		rateLine(b, st, nr)
	}
	fmt.Fprintf(b, "  retry amplification      %s tool calls per logical action\n", num(s.RetryAmplification))
	if list := unknownArgsList(s.UnknownArgs, textsafe.Terminal); list != "" {
		fmt.Fprintf(b, "  %s: %s\n", unknownArgsLabel, list)
	}

	b.WriteString(st.bold("Budgets and expectations") + "\n")
	for _, nr := range m.RatesIn(metrics.GroupBudgets) {
		rateLine(b, st, nr)
	}

	recoveryText(b, st, s.Recovery)
	gradeText(b, st, s.EvidenceGrade)
	latencyText(b, st, s.Latency)
	scenarioText(b, st, s.Scenarios)
}

// rateLine writes one rate of a section: its label, num/den (rate), loud
// when it counts defects and some occurred, and what the denominator
// counts.
// A rate without a value says why instead, and its reasons follow it.
func rateLine(b *strings.Builder, st style, nr metrics.NamedRate) {
	v := frac(nr.Rate)
	switch {
	case nr.UnknownBecause() != "":
		v = rateFrac(nr)
	case nr.Def.Defect:
		v = st.alarm(nr.Rate)
	}
	if nr.Def.Of != "" && nr.UnknownBecause() == "" {
		v += " of " + nr.Def.Of
	}
	fmt.Fprintf(b, "  %-24s %s\n", nr.Def.Label, v)
	for _, r := range nr.Def.Reasons {
		if n := nr.Rate.ByReason[r]; n > 0 {
			fmt.Fprintf(b, "    %-28s %d\n", nr.Def.ReasonLabel(r), n)
		}
	}
}

// label is the registry's label of a rate; names are constants of this
// package, so a miss is a bug the golden tests hit.
func label(name string) string {
	d, ok := metrics.LookupRate(name)
	if !ok {
		panic("report: no rate " + name + " in metrics/registry.go")
	}
	return d.Label
}

func recoveryText(b *strings.Builder, st style, rows []metrics.RecoveryRow) {
	b.WriteString(st.bold("Recovery by error class") + "\n")
	if len(rows) == 0 {
		b.WriteString("  no tool calls\n")
		return
	}
	t := [][]string{{"category", "tool", "chains", "first_try", "after_retry", "after_switch", "degraded", "failed"}}
	for _, r := range rows {
		t = append(t, []string{textsafe.Terminal(r.Category), textsafe.Terminal(r.Tool), fmt.Sprint(r.Chains), fmt.Sprint(r.FirstTry),
			fmt.Sprint(r.AfterRetry), fmt.Sprint(r.AfterSwitch), fmt.Sprint(r.Degraded), fmt.Sprint(r.Failed)})
	}
	b.WriteString(table(t, map[int]bool{2: true, 3: true, 4: true, 5: true, 6: true, 7: true}, "  "))
}

func gradeText(b *strings.Builder, st style, rows []metrics.GradeRow) {
	b.WriteString(st.bold("Evidence grade by path") + "  (confirmed evidence; primary 3, secondary 2, reprint 1, cache 0)\n")
	if len(rows) == 0 {
		b.WriteString("  no confirmed evidence\n")
		return
	}
	t := [][]string{{"path", "count", "mean grade"}}
	for _, r := range rows {
		t = append(t, []string{r.Path, fmt.Sprint(r.Count), num(r.MeanGrade)})
	}
	b.WriteString(table(t, map[int]bool{1: true, 2: true}, "  "))
}

func latencyText(b *strings.Builder, st style, rows []metrics.LatencyRow) {
	b.WriteString(st.bold("Latency") + "  (ms; s where marked)\n")
	t := [][]string{{"scope", "name", "n", "clock", "p50", "p90", "p95", "p99", "max", "queue share"}}
	for _, r := range rows {
		name := textsafe.Terminal(r.Name)
		if r.Scope == "run" {
			t = append(t, []string{r.Scope, name, fmt.Sprint(r.N), "wall",
				ms(r.WallMs.P50), ms(r.WallMs.P90), ms(r.WallMs.P95), ms(r.WallMs.P99), ms(r.WallMs.Max), ""})
			continue
		}
		for i, c := range []struct {
			label string
			q     metrics.Quantiles
		}{{"queue", r.QueueMs}, {"exec", r.ExecMs}, {"wall", r.WallMs}} {
			scope, n, nm, sh := "", "", "", ""
			if i == 0 {
				scope, nm, n, sh = r.Scope, name, fmt.Sprint(r.N), share(r.QueueShare)
			}
			t = append(t, []string{scope, nm, n, c.label, ms(c.q.P50), ms(c.q.P90), ms(c.q.P95), ms(c.q.P99), ms(c.q.Max), sh})
		}
	}
	b.WriteString(table(t, map[int]bool{2: true, 4: true, 5: true, 6: true, 7: true, 8: true, 9: true}, "  "))
}

func scenarioText(b *strings.Builder, st style, parts []metrics.ScenarioPart) {
	b.WriteString(st.bold("Scenarios") + "\n")
	t := [][]string{{"scenario", "runs", "success", "masked", "unverified", "conformance", "invalid retry", "seal viol.", "zero-call viol."}}
	for _, p := range parts {
		m := p.Metrics
		t = append(t, []string{textsafe.Terminal(p.Scenario), fmt.Sprint(p.Runs), ratePct(named(m, "success")),
			fmt.Sprint(m.MaskedSuccess.Num), fmt.Sprint(m.UnverifiedCompletion.Num), pct(m.ExpectationConformance.Rate),
			fmt.Sprintf("%d/%d", m.InvalidRetry.Num, m.InvalidRetry.Den), fmt.Sprint(m.SealViolation.Num), fmt.Sprint(m.ZeroCallViolation.Num)})
	}
	b.WriteString(table(t, map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true}, "  "))
}

func unknownOf(r metrics.Rate) string {
	if r.Unknown == nil {
		return ""
	}
	return fmt.Sprint(*r.Unknown)
}

// unknownReasons says why gates could not be judged, when some could not:
// a run without a planning stage has no plan verdict, a run without a task
// has no evidence verdict (traces such as OTLP cannot express them).
func unknownReasons(m metrics.Metrics) []string {
	var out []string
	if r := m.PlanValidity.Unknown; r != nil && *r > 0 {
		out = append(out, fmt.Sprintf("plan validity unknown for %d runs: no planning stage in the trace", *r))
	}
	if r := m.EvidenceSatisfaction.Unknown; r != nil && *r > 0 {
		out = append(out, fmt.Sprintf("evidence satisfaction unknown for %d runs: the run states no task (evidence required)", *r))
	}
	if m.MissingTerminal.Num > 0 {
		out = append(out, fmt.Sprintf("%s in %d runs: not deliverable, not committed (OTLP: none unless the root span "+
			"records an answer with a finish reason, or faultlens.terminal)", label("missing_terminal"), m.MissingTerminal.Num))
	}
	if r := m.Success.Unknown; r != nil && *r > 0 {
		out = append(out, fmt.Sprintf("success unknown for %d runs: no gate was false and at least one could not be judged", *r))
	}
	return out
}
