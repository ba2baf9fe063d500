package ui

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/faultlens/faultlens/metrics"
)

// pairView is one request answered by both suites, the baseline's run on
// the left and the candidate's on the right, the first step where they
// part and every gate that differs highlighted.
type pairView struct {
	sh   *shared
	keys scrollKeys
	seq  int    // the request awaited; older answers are dropped
	what string // what was asked for, while loading
	// id and filter are the request: run id, or with id "" the first run
	// matching filter. Once answered, id is the run that was paired, so a
	// refresh pairs the same run again.
	id     string
	filter metrics.RunFilter
	p      *metrics.RunPair
	err    error
	scroller
}

func newPairView(sh *shared) pairView { return pairView{sh: sh, keys: newScrollKeys()} }

// Keys are the scrolling keys and esc back.
func (v pairView) Keys() help.KeyMap { return v.keys }

// Update pairs the run asked for (again when the facts change, keeping the
// pair on screen until the new one arrives) and scrolls.
func (v pairView) Update(msg tea.Msg) (pairView, tea.Cmd) {
	switch msg := msg.(type) {
	case pairMsg:
		if msg.seq != v.seq {
			return v, nil
		}
		v.p, v.err, v.what = msg.p, msg.err, ""
		if v.p != nil && v.id == "" {
			v.id = v.p.Cand.RunID
			if v.filter.Suite == v.p.Base.Suite {
				v.id = v.p.Base.RunID
			}
		}
		return v, nil
	case askPairMsg:
		v.id, v.filter, v.what, v.p, v.err, v.y = msg.id, msg.filter, msg.what, nil, nil, 0
		return v, v.ask()
	case factsMsg:
		if v.what == "" && v.p == nil && v.err == nil {
			return v, nil // nothing asked yet
		}
		if v.p == nil {
			v.what = "run " + v.id
			if v.id == "" {
				v.what = "the first run behind the row"
			}
		}
		return v, v.ask()
	}
	c, _ := v.update(v.sh, v.keys, msg, v.View)
	return v, c
}

// ask pairs the request with its twin; an answer to any earlier request is
// dropped.
func (v *pairView) ask() tea.Cmd {
	b, c := v.sh.pair()
	if b == nil || c == nil {
		v.what, v.p, v.err = "", nil, errors.New("pairing needs two suites (--baseline B --candidate C)")
		return nil
	}
	v.seq++
	return v.sh.startLoad(pairCmd(v.sh.ctx, v.sh.be, v.seq, v.id, v.filter, b.Suite, c.Suite))
}

// View is both runs side by side, section by section.
func (v pairView) View() string {
	st := v.sh.styles
	switch {
	case v.what != "":
		return v.sh.spin.View() + " pairing " + safe(v.what) + "…"
	case errors.Is(v.err, metrics.ErrNoTwin):
		return st.Warn.Render(safe(v.err.Error()))
	case v.err != nil:
		return st.Error.Render("error: " + safe(v.err.Error()))
	case v.p == nil:
		return "no pair yet: press p on a run (4 Runs, 5 Run detail), a compare row or a breaker event"
	}
	p := v.p
	var b strings.Builder
	fmt.Fprintf(&b, "same request in both suites (matched by %s)\n", safe(p.MatchedBy))
	b.WriteString("aligned by kind and name: ≠ differs  · not taken  ▶ first difference\n")
	if p.FirstDiff < 0 {
		b.WriteString(st.Good.Render("the timelines match step for step") + "\n")
	}
	colW := max(30, (v.sh.width-3)/2)
	differs := map[string]bool{}
	for _, g := range p.Gates {
		differs[g] = true
	}
	left := pairSide(p.Base, differs, p, func(a metrics.AlignedStep) int { return a.Base }, colW, st)
	right := pairSide(p.Cand, differs, p, func(a metrics.AlignedStep) int { return a.Cand }, colW, st)
	for i := range max(len(left), len(right)) {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		b.WriteString(padCells(l, colW) + " │ " + r + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// pairSide is one run's column: header, gates, timeline and evidence, each
// section the same number of lines on both sides so that rows line up.
func pairSide(d *metrics.RunDetail, differs map[string]bool, p *metrics.RunPair, at func(metrics.AlignedStep) int, w int, st Styles) []string {
	cut := func(s string) string { return ansi.Truncate(s, w, "…") }
	claimed := d.Claimed
	if claimed == "" {
		claimed = "(none)"
	}
	lines := []string{
		st.Title.Render(cut("run " + safe(d.RunID))),
		cut("suite " + safe(d.Suite) + "  scenario " + safe(d.Scenario)),
		cut(fmt.Sprintf("claimed %s  e2e %s  calls %d  re-sends %d", safe(claimed), ms(d.EndToEndMs), d.Calls, d.Resends)),
		st.Header.Render("Gates"),
	}
	for _, g := range []struct{ name, label, verdict string }{
		{"plan", "plan valid", yesNo(d.PlanValid)},
		{"evidence", "evidence", yesNo(d.EvidenceSatisfied)},
		{"deliverable", "deliverable", pass(d.AnswerDeliverable)},
		{"committed", "committed", pass(d.TerminalCommitted)},
		{"success", "success", yesNo(d.Success)},
	} {
		line := fmt.Sprintf("  %-12s %s", g.label, g.verdict)
		if g.name == "success" && d.Masked {
			line += "  MASKED"
		}
		if differs[g.name] {
			line = st.Bad.Render("≠" + line[1:])
		}
		lines = append(lines, line)
	}
	lines = append(lines, st.Header.Render("Timeline"))
	for k, a := range p.Steps {
		i := at(a)
		mark := "  "
		switch {
		case k == p.FirstDiff:
			mark = "▶ "
		case a.Differs:
			mark = "≠ "
		}
		if i < 0 {
			lines = append(lines, st.Faint.Render(mark+"   ·"))
			continue
		}
		s := d.Timeline[i]
		glyph := map[string]string{"stage": "S", "tool_call": "T", "model_call": "M"}[s.Kind]
		name := safe(s.Name)
		if s.Kind == "tool_call" && s.Attempt > 1 {
			name += fmt.Sprintf("#%d", s.Attempt)
		}
		note := safe(s.Status)
		if s.Category != "" {
			note += " " + safe(s.Category)
		}
		if s.Recovery != "" {
			note += " ↳" + safe(s.Recovery)
		}
		took := fmt.Sprintf("%-8s", msf(s.ExecMs))
		if w < 50 {
			took = "" // a narrow column keeps what happened, not how long it took
		}
		line := cut(fmt.Sprintf("%s%2d %s %-14s %s%s", mark, i+1, glyph, pad(name, 14), took, note))
		if a.Differs {
			line = st.Bad.Render(line)
		}
		lines = append(lines, line)
	}
	lines = append(lines, st.Header.Render("Evidence"))
	for _, e := range d.Evidence {
		lines = append(lines, cut(fmt.Sprintf("  %-16s %-9s %-9s %s", pad(safe(e.Claim), 16), safe(e.Status), safe(e.Grade), safe(e.Path))))
	}
	if len(d.Evidence) == 0 {
		lines = append(lines, "  (none)")
	}
	return lines
}

// padCells pads s with spaces to w terminal cells.
func padCells(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}
