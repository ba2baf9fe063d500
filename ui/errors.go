package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/faultlens/faultlens/metrics"
)

var outcomes = []string{"first_try", "after_retry", "after_switch", "degraded", "failed"}

// errorsView is the recovery chains and violation counters, the baseline
// beside the candidate, one scrolled body.
type errorsView struct {
	sh   *shared
	keys scrollKeys
	scroller
}

func newErrorsView(sh *shared) errorsView { return errorsView{sh: sh, keys: newScrollKeys()} }

// Update scrolls; the errors' data is the shared report and error matrix.
func (v errorsView) Update(msg tea.Msg) (errorsView, tea.Cmd) {
	c, _ := v.update(v.sh, v.keys, msg, v.View)
	return v, c
}

// Keys are the scrolling keys.
func (v errorsView) Keys() help.KeyMap { return v.keys }

// View puts the baseline beside the candidate: recovery chains by error
// class and outcome with the change of failed chains, then every violation
// counter and the invalid re-sends by reason with the change of the rate in
// points, then the evidence grade by path.
func (v errorsView) View() string {
	b, c := v.sh.pair()
	st := v.sh.styles
	bn, cn := suiteName(b), suiteName(c)
	var out strings.Builder
	fmt.Fprintf(&out, "recovery chains by error class and outcome: %s │ %s\n", bn, cn)
	cw := 4 // outcome columns; 3 on a narrow screen so that Δ still fits
	side := fmt.Sprintf("%5s %4s %4s %4s %4s %4s", "chain", "1st", "rtry", "swch", "degr", "fail")
	if v.sh.width < 90 {
		cw = 3
		side = fmt.Sprintf("%5s %3s %3s %3s %3s %3s", "chain", "1st", "rty", "swi", "deg", "fal")
	}
	out.WriteString(st.Header.Render(fmt.Sprintf("%-15s %s │ %s │ %6s", "error class", side, side, "Δfail")) + "\n")
	bcats, bcell := matrixOf(v.sh.ov.matrix, bn)
	ccats, ccell := matrixOf(v.sh.ov.matrix, cn)
	for _, cat := range union(bcats, ccats) {
		line := fmt.Sprintf("%-15s %s │ %s │ %6s", pad(safe(cat), 15), matrixCells(bcell, cat, cw), matrixCells(ccell, cat, cw),
			signedInt(ccell[cat+"\x00failed"]-bcell[cat+"\x00failed"]))
		if ccell[cat+"\x00failed"] > bcell[cat+"\x00failed"] {
			line = st.Warn.Render(line)
		}
		out.WriteString(line + "\n")
	}
	out.WriteString("\n" + st.Header.Render(fmt.Sprintf("%-22s %16s %16s %9s", "violation", bn, cn, "Δ")) + "\n")
	for _, v := range violationRows(b, c) {
		line := fmt.Sprintf("%-22s %16s %16s %9s", v.name, rateCell(v.b), rateCell(v.c), deltaPP(v.b, v.c))
		if v.c != nil && v.c.Num > 0 && (v.b == nil || val(v.c.Rate) > val(v.b.Rate)) {
			line = st.Warn.Render(line + " ◀")
		}
		out.WriteString(line + "\n")
	}
	for _, s := range []*metrics.Suite{b, c} {
		if s == nil {
			continue
		}
		amp := "–"
		if s.RetryAmplification != nil {
			amp = fmt.Sprintf("%.2f", *s.RetryAmplification)
		}
		fmt.Fprintf(&out, "\n%s amplification %s calls/action; evidence grade by path:", st.Title.Render(safe(s.Suite)), amp)
		for _, g := range s.EvidenceGrade {
			mg := "–"
			if g.MeanGrade != nil {
				mg = fmt.Sprintf("%.2f", *g.MeanGrade)
			}
			fmt.Fprintf(&out, " %s %d (mean %s)", safe(g.Path), g.Count, mg)
		}
	}
	return strings.TrimRight(out.String(), "\n")
}

// matrixCells is one suite's chains of class cat: all, then per outcome in
// columns w wide.
func matrixCells(cell map[string]int64, cat string, w int) string {
	var total int64
	var b strings.Builder
	for _, o := range outcomes {
		total += cell[cat+"\x00"+o]
		fmt.Fprintf(&b, " %*d", w, cell[cat+"\x00"+o])
	}
	return fmt.Sprintf("%5d", total) + b.String()
}

// violationRow is one counter of both suites (nil where a suite is absent).
type violationRow struct {
	name string
	b, c *metrics.Rate
}

// violationRows are the violation counters and the invalid re-sends by
// reason (of all re-sends) of both suites.
func violationRows(b, c *metrics.Suite) []violationRow {
	pick := func(s *metrics.Suite, f func(*metrics.Metrics) metrics.Rate) *metrics.Rate {
		if s == nil {
			return nil
		}
		r := f(&s.Metrics)
		return &r
	}
	var rows []violationRow
	for _, v := range []struct {
		name string
		f    func(*metrics.Metrics) metrics.Rate
	}{
		{"invalid retries", func(x *metrics.Metrics) metrics.Rate { return x.InvalidRetry }},
		{"breaker", func(x *metrics.Metrics) metrics.Rate { return x.BreakerViolation }},
		{"zero-call", func(x *metrics.Metrics) metrics.Rate { return x.ZeroCallViolation }},
		{"seal", func(x *metrics.Metrics) metrics.Rate { return x.SealViolation }},
		{"duplicate calls", func(x *metrics.Metrics) metrics.Rate { return x.DuplicateCall }},
		{"unknown-outcome resend", func(x *metrics.Metrics) metrics.Rate { return x.UnknownOutcomeResend }},
	} {
		rows = append(rows, violationRow{v.name, pick(b, v.f), pick(c, v.f)})
	}
	for _, reason := range metrics.InvalidRetryReasons {
		by := func(x *metrics.Metrics) metrics.Rate {
			n := x.InvalidRetry.ByReason[reason]
			r := metrics.Rate{Num: n, Den: x.InvalidRetry.Den}
			if r.Den > 0 {
				f := float64(n) / float64(r.Den)
				r.Rate = &f
			}
			return r
		}
		rows = append(rows, violationRow{"  " + reason, pick(b, by), pick(c, by)})
	}
	return rows
}

func rateCell(r *metrics.Rate) string {
	if r == nil {
		return "–"
	}
	return frac(*r) + " " + pct(*r)
}

// deltaPP is the change of the rate in percentage points.
func deltaPP(b, c *metrics.Rate) string {
	if b == nil || c == nil || b.Rate == nil || c.Rate == nil {
		return "–"
	}
	return fmt.Sprintf("%+.1fpp", (*c.Rate-*b.Rate)*100)
}

func signedInt(n int64) string { return fmt.Sprintf("%+d", n) }

// union is a's items then those of b not in a.
func union(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range append(append([]string{}, a...), b...) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
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
