package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"

	"github.com/faultlens/faultlens/metrics"
)

var outcomes = []string{"first_try", "after_retry", "after_switch", "degraded", "failed"}

// errorsView is the recovery chains and violation counters, the baseline
// beside the candidate, one scrolled body with a cursor over the cells that
// count runs: enter lists those runs.
type errorsView struct {
	sh   *shared
	keys errorsKeys
	scroller
	row, col int // the cell under the cursor: a drillable row, a column of cellCols
}

func newErrorsView(sh *shared) errorsView { return errorsView{sh: sh, keys: newErrorsKeys()} }

// Keys are the cursor's and scrolling keys.
func (v errorsView) Keys() help.KeyMap { return v.keys }

// View puts the baseline beside the candidate: recovery chains by error
// class and outcome with the change of failed chains, then every violation
// counter and the invalid re-sends by reason with the change of the rate in
// points, then the evidence grade by path.
func (v errorsView) View() string {
	body, _ := v.layout()
	return body
}

// layout is the body and its drillable rows, each with its body line.
func (v errorsView) layout() (string, []errRow) {
	b, c := v.sh.pair()
	st := v.sh.styles
	bn, cn := suiteName(b), suiteName(c)
	var out strings.Builder
	var rows []errRow
	lines := 0
	emit := func(s string) {
		out.WriteString(s + "\n")
		lines += strings.Count(s, "\n") + 1
	}
	emit(v.cellLine())
	emit(fmt.Sprintf("recovery chains by error class and outcome: %s │ %s", bn, cn))
	cw := 4 // outcome columns; 3 on a narrow screen so that Δ still fits
	side := fmt.Sprintf("%5s %4s %4s %4s %4s %4s", "chain", "1st", "rtry", "swch", "degr", "fail")
	if v.sh.width < 90 {
		cw = 3
		side = fmt.Sprintf("%5s %3s %3s %3s %3s %3s", "chain", "1st", "rty", "swi", "deg", "fal")
	}
	emit(st.Header.Render(fmt.Sprintf("%-15s %s │ %s │ %6s", "error class", side, side, "Δfail")))
	bcats, bcell := matrixOf(v.sh.ov.matrix, bn)
	ccats, ccell := matrixOf(v.sh.ov.matrix, cn)
	for _, cat := range union(bcats, ccats) {
		sel := -1
		if len(rows) == v.row {
			sel = v.col
		}
		rows = append(rows, errRow{line: lines, class: cat})
		line := fmt.Sprintf("%-15s %s │ %s │ %6s", pad(safe(cat), 15), v.matrixCells(bcell, cat, cw, sel), v.matrixCells(ccell, cat, cw, sel-len(cellCols)/2),
			signedInt(ccell[cat+"\x00failed"]-bcell[cat+"\x00failed"]))
		if sel < 0 && ccell[cat+"\x00failed"] > bcell[cat+"\x00failed"] {
			line = st.Warn.Render(line)
		}
		emit(line)
	}
	emit("\n" + st.Header.Render(fmt.Sprintf("%-22s %16s %16s %9s", "violation", bn, cn, "Δ")))
	for _, r := range violationRows(b, c) {
		bc, cc := rateCell(r.b), rateCell(r.c)
		cur := r.quick != "" && len(rows) == v.row
		if cur && v.col < len(cellCols)/2 {
			bc = st.Selected.Render(lpad(bc, 16))
		} else if cur {
			cc = st.Selected.Render(lpad(cc, 16))
		}
		line := fmt.Sprintf("%-22s %16s %16s %9s", r.name, bc, cc, deltaPP(r.b, r.c))
		if r.quick != "" {
			rows = append(rows, errRow{line: lines, quick: r.quick})
		}
		if !cur && r.c != nil && r.c.Num > 0 && (r.b == nil || val(r.c.Rate) > val(r.b.Rate)) {
			line = st.Warn.Render(line + " ◀")
		}
		emit(line)
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
	return strings.TrimRight(out.String(), "\n"), rows
}

// matrixCells is one suite's chains of class cat: all, then per outcome in
// columns w wide; cell sel (0 all, 1.. an outcome) is the cursor's.
func (v errorsView) matrixCells(cell map[string]int64, cat string, w, sel int) string {
	var total int64
	var b strings.Builder
	for i, o := range outcomes {
		total += cell[cat+"\x00"+o]
		c := fmt.Sprintf("%*d", w, cell[cat+"\x00"+o])
		if sel == i+1 {
			c = v.sh.styles.Selected.Render(c)
		}
		b.WriteString(" " + c)
	}
	all := fmt.Sprintf("%5d", total)
	if sel == 0 {
		all = v.sh.styles.Selected.Render(all)
	}
	return all + b.String()
}

// violationRow is one counter of both suites (nil where a suite is absent).
type violationRow struct {
	name  string
	quick string // the runs filter of its runs; "" for a counter without one
	b, c  *metrics.Rate
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
		name, quick string
		f           func(*metrics.Metrics) metrics.Rate
	}{
		{"invalid retries", "invalid_retry", func(x *metrics.Metrics) metrics.Rate { return x.InvalidRetry }},
		{"breaker", "breaker", func(x *metrics.Metrics) metrics.Rate { return x.BreakerViolation }},
		{"zero-call", "zero_call", func(x *metrics.Metrics) metrics.Rate { return x.ZeroCallViolation }},
		{"seal", "seal", func(x *metrics.Metrics) metrics.Rate { return x.SealViolation }},
		{"duplicate calls", "duplicate", func(x *metrics.Metrics) metrics.Rate { return x.DuplicateCall }},
		{"unknown-outcome resend", "unknown_outcome", func(x *metrics.Metrics) metrics.Rate { return x.UnknownOutcomeResend }},
	} {
		rows = append(rows, violationRow{v.name, v.quick, pick(b, v.f), pick(c, v.f)})
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
		rows = append(rows, violationRow{"  " + reason, "", pick(b, by), pick(c, by)})
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
