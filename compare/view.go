package compare

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// gateView is the gates as every renderer shows them: the failed ones
// worst first, the passed ones, and the skipped ones collapsed by reason.
type gateView struct {
	Failed, Passed []GateResult
	Skipped        []skipGroup
	Total          int
}

// skipGroup is the gates skipped for one reason: one line in a report.
type skipGroup struct {
	// Reason is the reason's sentence; the gates' own counts, where the
	// reason has them, follow each gate's label.
	Reason string
	Gates  []GateResult
}

// Labels lists the group's gates.
func (s skipGroup) Labels() string { return strings.Join(s.labels(), ", ") }

// labels are the group's gates, each with its own counts where the reason
// has them.
func (s skipGroup) labels() []string {
	ls := make([]string, len(s.Gates))
	for i, g := range s.Gates {
		ls[i] = gateLabel(g)
		if g.SkipReason == SkipTooFewSamples {
			ls[i] += fmt.Sprintf(" (%d and %d of %d)", g.BaseDen, g.CandDen, MinLatencySamples(g.Metric))
		}
	}
	return ls
}

// severity ranks a failed gate: a zero-tolerance violation (a defect that
// must never happen) before a tested regression; then the strongest
// evidence (smallest Holm-adjusted p) first.
func severity(a, b GateResult) int {
	za, zb := a.Method == MethodZeroTolerance, b.Method == MethodZeroTolerance
	if za != zb {
		if za {
			return -1
		}
		return 1
	}
	return cmp.Compare(val(a.PAdj), val(b.PAdj))
}

func viewGates(res *Result) gateView {
	v := gateView{Total: len(res.Gates)}
	at := map[SkipReason]int{}
	for _, g := range res.Gates {
		switch g.Outcome {
		case OutcomeFail:
			v.Failed = append(v.Failed, g)
		case OutcomeSkip:
			why := SkipText(g)
			if g.SkipReason == SkipTooFewSamples {
				why = "too few samples a side to gate these quantiles (baseline and candidate of the samples needed)"
			}
			i, ok := at[g.SkipReason]
			if !ok {
				i, at[g.SkipReason] = len(v.Skipped), len(v.Skipped)
				v.Skipped = append(v.Skipped, skipGroup{Reason: why})
			}
			v.Skipped[i].Gates = append(v.Skipped[i].Gates, g)
		default:
			v.Passed = append(v.Passed, g)
		}
	}
	slices.SortStableFunc(v.Failed, severity)
	return v
}

// bannerTitle is the verdict in one phrase: "FAILED: 7 of 25 gates" or
// "PASSED: all 25 gates (18 skipped)".
func bannerTitle(v gateView) string {
	skipped := 0
	for _, s := range v.Skipped {
		skipped += len(s.Gates)
	}
	tail := ""
	if skipped > 0 {
		tail = fmt.Sprintf(", %d skipped", skipped)
	}
	switch {
	case len(v.Failed) > 0:
		return fmt.Sprintf("FAILED: %d of %d gates failed, %d passed%s", len(v.Failed), v.Total, len(v.Passed), tail)
	case skipped == 0:
		return fmt.Sprintf("PASSED: all %d gates passed", v.Total)
	}
	return fmt.Sprintf("PASSED: no gate failed, %d of %d passed%s", len(v.Passed), v.Total, tail)
}

// worstText names the failed gates, worst first.
func worstText(v gateView) string {
	ls := make([]string, len(v.Failed))
	for i, g := range v.Failed {
		ls[i] = gateLabel(g)
	}
	return strings.Join(ls, ", ")
}

// failedRows marks the rows a failed gate judged, so that every renderer
// shows them failing, whatever their significance.
func failedRows(res *Result) map[[2]string]bool {
	m := map[[2]string]bool{}
	for _, g := range res.Gates {
		if g.Outcome == OutcomeFail {
			m[[2]string{g.Metric, g.Scenario}] = true
		}
	}
	return m
}

// shownExploratory is the exploratory rows a report lists: the whole run
// set's, and the per-scenario rows that changed significantly; hidden
// counts the rest (every row is in the JSON and CSV exports).
func shownExploratory(res *Result) (shown []Row, hidden int) {
	for _, r := range family(res, FamilyExploratory) {
		if r.Scenario == "" || r.Significant {
			shown = append(shown, r)
		} else {
			hidden++
		}
	}
	return shown, hidden
}
