package ui

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/faultlens/faultlens/metrics"
)

// overviewView is each suite's funnel and counters, one scrolled body.
type overviewView struct {
	sh   *shared
	keys scrollKeys
	scroller
}

func newOverviewView(sh *shared) overviewView {
	k := newScrollKeys()
	k.Back.SetEnabled(false) // the first view: nowhere to go back to
	return overviewView{sh: sh, keys: k}
}

// Update scrolls; the overview's data is the shared report.
func (v overviewView) Update(msg tea.Msg) (overviewView, tea.Cmd) {
	c, _ := v.update(v.sh, v.keys, msg, v.View)
	return v, c
}

// Keys are the scrolling keys.
func (v overviewView) Keys() help.KeyMap { return v.keys }

// View shows each suite's funnel, claimed vs actual, violations and top
// error classes, suites side by side when the terminal is wide enough.
func (v overviewView) View() string {
	return v.verdict() + v.summaries()
}

// verdict is the overview's first lines: the candidate's gates (how many
// failed, the failing ones first) and its masked successes, so that an
// 80×24 screen shows the decision before any number.
func (v overviewView) verdict() string {
	st := v.sh.styles
	b, c := v.sh.pair()
	if b == nil || c == nil {
		return st.Faint.Render("one suite: 0 picks a baseline and a candidate") + "\n\n"
	}
	var out strings.Builder
	fmt.Fprintf(&out, "candidate %s vs baseline %s: ", st.Title.Render(safe(c.Suite)), st.Title.Render(safe(b.Suite)))
	res := v.sh.verdict
	switch {
	case res == nil || res.Candidate.Suite != c.Suite || res.Baseline.Suite != b.Suite:
		out.WriteString(v.sh.spin.View() + " judging the gates…")
	case res.Failed > 0:
		var names []string
		for _, g := range res.Gates {
			if !g.Passed {
				n := g.Metric
				if g.Scenario != "" {
					n += "[" + g.Scenario + "]"
				}
				names = append(names, safe(n))
			}
		}
		out.WriteString(st.Bad.Render(fmt.Sprintf("%d of %d gates FAILED", res.Failed, len(res.Gates))) + ": " + strings.Join(names, ", "))
	default:
		out.WriteString(st.Good.Render(fmt.Sprintf("all %d gates passed", len(res.Gates))))
	}
	out.WriteString("\n")
	for _, line := range []string{
		overviewRate("masked success", c.Metrics.MaskedSuccess),
		overviewRate("success", c.Metrics.Success),
	} {
		out.WriteString(line)
	}
	out.WriteString(st.Faint.Render("  (6 compare, 0 suites)") + "\n\n")
	return ansiFit(out.String(), v.sh.width)
}

// overviewRate is one of the candidate's rates on the verdict's second
// line, one per metric so that another is one more line here.
func overviewRate(name string, r metrics.Rate) string {
	return fmt.Sprintf("%s %s %s  ", name, frac(r), pct(r))
}

// summaries is each suite's funnel and counters.
func (v overviewView) summaries() string {
	var cols []string
	for _, s := range v.sh.suites() {
		cols = append(cols, v.suiteSummary(s))
	}
	if len(cols) == 0 {
		return "no runs in the input"
	}
	if len(cols) == 2 && v.sh.width >= 2*48+2 {
		return lipgloss.JoinHorizontal(lipgloss.Top, lipgloss.NewStyle().Width(50).Render(cols[0]), cols[1])
	}
	return strings.Join(cols, "\n\n")
}

func (v overviewView) suiteSummary(s *metrics.Suite) string {
	st := v.sh.styles
	mt := s.Metrics
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %d runs\n", st.Title.Render("suite "+safe(s.Suite)), s.Runs)
	b.WriteString(st.Header.Render("Funnel") + "\n")
	steps := []struct {
		name, key string
		r         metrics.Rate
	}{
		{"runs", "", metrics.Rate{Num: s.Runs, Den: s.Runs, Rate: ptr(1)}},
		{"plan valid", "plan_validity", mt.PlanValidity},
		{"evidence ok", "evidence_satisfaction", mt.EvidenceSatisfaction},
		{"deliverable", "answer_deliverable", mt.AnswerDeliverable},
		{"committed", "terminal_committed", mt.TerminalCommitted},
		{"success", "success", mt.Success},
	}
	for _, x := range steps {
		p := pct(x.r)
		// A gate no run could be judged on is unknown, not 0 %.
		if nr, ok := mt.Named(x.key); ok && nr.UnknownBecause() != "" {
			p = "unknown"
		}
		fmt.Fprintf(&b, " %-11s %s %4d %6s\n", x.name, bar(val(x.r.Rate), 18), x.r.Num, p)
	}
	b.WriteString(st.Header.Render("Claimed vs actual") + "\n")
	fmt.Fprintf(&b, " claimed completed   %4d\n", mt.ClaimedCompleted.Num)
	fmt.Fprintf(&b, " actually successful %4d\n", mt.Success.Num)
	masked := fmt.Sprintf(" MASKED SUCCESS      %4d/%d %s", mt.MaskedSuccess.Num, mt.MaskedSuccess.Den, pct(mt.MaskedSuccess))
	if mt.MaskedSuccess.Num > 0 {
		masked = st.Bad.Render(masked + " ◀◀")
	}
	b.WriteString(masked + "\n")
	// An unverified claim is no defect: said plainly, with what was missing.
	if u, ok := mt.Named("unverified_completion"); ok && u.Rate.Num > 0 {
		b.WriteString(st.Warn.Render(fmt.Sprintf(" unverified          %4d/%d — %s", u.Rate.Num, u.Rate.Den, u.ReasonsText())) + "\n")
	}
	b.WriteString(st.Header.Render("Violations") + "\n")
	for _, v := range []struct {
		name string
		r    metrics.Rate
	}{
		{"undisclosed degr.", mt.UndisclosedDegradation},
		{"zero-call", mt.ZeroCallViolation},
		{"seal", mt.SealViolation},
		{"breaker", mt.BreakerViolation},
		{"duplicate calls", mt.DuplicateCall},
		{"invalid retries", mt.InvalidRetry},
		{"unknown-outc. resend", mt.UnknownOutcomeResend},
		{"retry budget over", mt.RetryBudgetOverrun},
		{"deadline over", mt.DeadlineOverrun},
		{"stage budget over", mt.StageBudgetOverrun},
	} {
		line := fmt.Sprintf(" %-20s %9s %6s", v.name, frac(v.r), pct(v.r))
		if v.r.Num > 0 {
			line = st.Warn.Render(line + " ◀")
		}
		b.WriteString(line + "\n")
	}
	b.WriteString(st.Header.Render("Top error classes") + "\n")
	for _, e := range topErrors(s.Recovery, 3) {
		fmt.Fprintf(&b, " %-16s %4d chains, %d failed\n", safe(e.Category), e.Chains, e.Failed)
	}
	return strings.TrimRight(b.String(), "\n")
}

func ptr(f float64) *float64 { return &f }

// ansiFit wraps each line of s at width cells (a verdict naming many gates
// goes on over lines rather than off the screen).
func ansiFit(s string, width int) string {
	return ansi.Wrap(s, width, " ,")
}

// topErrors sums recovery rows by category (errors only) and keeps the n
// largest.
func topErrors(rows []metrics.RecoveryRow, n int) []metrics.RecoveryRow {
	by := map[string]*metrics.RecoveryRow{}
	var out []metrics.RecoveryRow
	for _, r := range rows {
		if r.Category == "none" {
			continue
		}
		if by[r.Category] == nil {
			by[r.Category] = &metrics.RecoveryRow{Category: r.Category}
		}
		a := by[r.Category]
		a.Chains += r.Chains
		a.Failed += r.Failed
	}
	for _, r := range by {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Chains != out[j].Chains {
			return out[i].Chains > out[j].Chains
		}
		return out[i].Category < out[j].Category
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}
