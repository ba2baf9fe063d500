package ui

import (
	"fmt"
	"strings"

	"github.com/faultlens/faultlens/metrics"
)

// compareBody puts baseline and candidate side by side per metric with the
// delta in percentage points. TODO: interval, significance mark and gate
// verdict come from package compare when it lands.
func (m Model) compareBody() string {
	b, c := m.pair()
	if b == nil || c == nil {
		return "compare needs two suites (--baseline B --candidate C)"
	}
	st := m.styles
	var out strings.Builder
	fmt.Fprintf(&out, "%s vs %s  (delta = candidate − baseline, percentage points)\n", st.Title.Render(safe(b.Suite)), st.Title.Render(safe(c.Suite)))
	out.WriteString(st.Header.Render(fmt.Sprintf("%-33s %16s %16s %9s %5s", "metric", safe(b.Suite), safe(c.Suite), "delta", "sig")) + "\n")
	br, cr := b.Metrics.Rates(), c.Metrics.Rates()
	for i := range br {
		line := fmt.Sprintf("%-33s %16s %16s %9s %5s", br[i].Name,
			frac(br[i].Rate)+" "+pct(br[i].Rate), frac(cr[i].Rate)+" "+pct(cr[i].Rate), delta(br[i].Rate, cr[i].Rate), "n/a")
		if worse(br[i].Name, br[i].Rate, cr[i].Rate) {
			line = st.Bad.Render(line + " ◀")
		}
		out.WriteString(line + "\n")
	}
	out.WriteString("\nsig: significance is not computed here yet (TODO: from package compare)\n")
	return strings.TrimRight(out.String(), "\n")
}

func delta(b, c metrics.Rate) string {
	if b.Rate == nil || c.Rate == nil {
		return "–"
	}
	return fmt.Sprintf("%+.1fpp", (*c.Rate-*b.Rate)*100)
}

// higherIsBetter names the rates where a rise is good.
var higherIsBetter = map[string]bool{"plan_validity": true, "evidence_satisfaction": true,
	"evidence_satisfaction_given_plan": true, "answer_deliverable": true, "terminal_committed": true,
	"success": true, "expectation_conformance": true, "claimed_completed": true}

func worse(name string, b, c metrics.Rate) bool {
	if b.Rate == nil || c.Rate == nil || *b.Rate == *c.Rate || name == "claimed_completed" {
		return false
	}
	return (*c.Rate < *b.Rate) == higherIsBetter[name]
}
