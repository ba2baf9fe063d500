package ui

import (
	"fmt"
	"strings"

	"github.com/faultlens/faultlens/metrics"
)

var outcomes = []string{"first_try", "after_retry", "after_switch", "degraded", "failed"}

// errorsBody shows the error class × recovery outcome matrix, invalid
// retries by reason, the violation counters and evidence grade by path.
func (m Model) errorsBody() string {
	st := m.styles
	var b strings.Builder
	for _, s := range m.suites() {
		mt := s.Metrics
		b.WriteString(st.Title.Render("suite "+safe(s.Suite)) + "\n")
		b.WriteString(st.Header.Render(fmt.Sprintf("%-16s %6s %9s %11s %12s %8s %6s", "error class", "chains", "first_try", "after_retry", "after_switch", "degraded", "failed")) + "\n")
		cats, cell := matrixOf(m.ov.matrix, s.Suite)
		for _, c := range cats {
			total := int64(0)
			for _, o := range outcomes {
				total += cell[c+"\x00"+o]
			}
			line := fmt.Sprintf("%-16s %6d %9d %11d %12d %8d %6d", safe(c), total,
				cell[c+"\x00first_try"], cell[c+"\x00after_retry"], cell[c+"\x00after_switch"],
				cell[c+"\x00degraded"], cell[c+"\x00failed"])
			if cell[c+"\x00failed"] > 0 {
				line = st.Warn.Render(line)
			}
			b.WriteString(line + "\n")
		}
		fmt.Fprintf(&b, "invalid retries %s of re-sends (%s):", frac(mt.InvalidRetry), pct(mt.InvalidRetry))
		for _, r := range metrics.InvalidRetryReasons {
			fmt.Fprintf(&b, " %s %d", r, mt.InvalidRetry.ByReason[r])
		}
		b.WriteString("\n")
		amp := "–"
		if s.RetryAmplification != nil {
			amp = fmt.Sprintf("%.2f", *s.RetryAmplification)
		}
		fmt.Fprintf(&b, "breaker %s  zero-call %s  seal %s  duplicates %s  amplification %s calls/action\n",
			frac(mt.BreakerViolation), frac(mt.ZeroCallViolation), frac(mt.SealViolation), frac(mt.DuplicateCall), amp)
		b.WriteString("evidence grade by path:")
		for _, g := range s.EvidenceGrade {
			mg := "–"
			if g.MeanGrade != nil {
				mg = fmt.Sprintf("%.2f", *g.MeanGrade)
			}
			fmt.Fprintf(&b, "  %s %d (mean %s)", safe(g.Path), g.Count, mg)
		}
		b.WriteString("\n\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// matrixOf returns the categories of suite in order and its cells keyed by
// category NUL outcome.
func matrixOf(cells []metrics.ErrorCell, suite string) ([]string, map[string]int64) {
	var cats []string
	seen := map[string]bool{}
	out := map[string]int64{}
	for _, c := range cells {
		if c.Suite != suite {
			continue
		}
		if !seen[c.Category] {
			seen[c.Category] = true
			cats = append(cats, c.Category)
		}
		out[c.Category+"\x00"+c.Outcome] += c.Chains
	}
	return cats, out
}
