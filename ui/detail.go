package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/faultlens/faultlens/metrics"
)

// detailView is one run replayed: gates with reasons, waterfall, evidence.
type detailView struct {
	sh      *shared
	keys    detailKeys
	seq     int    // the request awaited; older answers are dropped
	loading string // the run asked for, until its answer arrives
	d       *metrics.RunDetail
	err     error
	// call is the timeline step under the call cursor (-1: none), shown
	// whether its full fields are shown.
	call  int
	shown bool
	scroller
}

// detailKeys are the detail view's keys: scrolling, esc back, p to pair.
type detailKeys struct {
	scrollKeys
	Pair, NextCall, PrevCall, Open key.Binding
}

// ShortHelp is esc, p and the call cursor.
func (k detailKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Back, k.Pair, k.NextCall, k.Open}
}

// FullHelp is every key of the view.
func (k detailKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.moveKeys.list(), append(k.rest(), k.Pair, k.NextCall, k.PrevCall, k.Open)}
}

func newDetailView(sh *shared) detailView {
	return detailView{sh: sh, call: -1, keys: detailKeys{scrollKeys: newScrollKeys(), Pair: pairKey("pair with its twin"),
		NextCall: key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next call")),
		PrevCall: key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous call")),
		Open:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "the call's fields")),
	}}
}

// Keys are the detail's own keys.
func (v detailView) Keys() help.KeyMap { return v.keys }

// empty reports whether no run was ever asked for.
func (v detailView) empty() bool { return v.d == nil && v.err == nil && v.loading == "" }

// open asks for run id; an answer for any earlier request is dropped.
func (v *detailView) open(id string) tea.Cmd {
	v.seq++
	v.loading = id
	return v.sh.startLoad(detailCmd(v.sh.ctx, v.sh.be, v.seq, id))
}

// Update loads the run asked for (again when the facts change, so a
// followed database refreshes the run on screen), scrolls, goes back on
// esc and pairs on p.
func (v detailView) Update(msg tea.Msg) (detailView, tea.Cmd) {
	switch msg := msg.(type) {
	case detailMsg:
		// Only the answer to the latest request: a late one for a run the
		// user has already left, or from before a refresh, is dropped.
		if msg.seq == v.seq {
			v.d, v.err, v.loading = msg.d, msg.err, ""
		}
		return v, nil
	case openRunMsg:
		v.d, v.err, v.y, v.call, v.shown = nil, nil, 0, -1, false
		return v, v.open(msg.id)
	case factsMsg:
		switch {
		case v.loading != "":
			return v, v.open(v.loading)
		case v.d != nil:
			return v, v.open(v.d.RunID) // keeps the run and the scroll while it reloads
		}
		return v, nil
	case tea.KeyPressMsg:
		if key.Matches(msg, v.keys.Pair) && v.d != nil {
			v.sh.goTo(navigation{to: viewPair, runID: v.d.RunID, what: "run " + v.d.RunID})
			return v, nil
		}
		if v.d != nil && !v.focused() {
			n := len(v.d.Timeline)
			switch {
			case key.Matches(msg, v.keys.NextCall):
				v.call, v.shown = clamp(v.call+1, 0, n-1), false
				return v, nil
			case key.Matches(msg, v.keys.PrevCall):
				v.call, v.shown = clamp(v.call-1, 0, n-1), false
				return v, nil
			case key.Matches(msg, v.keys.Open) && v.call >= 0:
				v.shown = !v.shown
				return v, nil
			case key.Matches(msg, v.keys.Back) && v.shown:
				v.shown = false // esc closes the call's fields first
				return v, nil
			}
		}
	}
	c, _ := v.update(v.sh, v.keys.scrollKeys, msg, v.View)
	return v, c
}

func yesNo(b *bool) string {
	switch {
	case b == nil:
		return "UNKNOWN"
	case *b:
		return "PASS"
	}
	return "FAIL"
}

func pass(b bool) string { return yesNo(&b) }

// gateReasons explains each of the four gates from what it read.
func gateReasons(d *metrics.RunDetail) [][2]string {
	plan := "no valid planning stage"
	if d.PlanValid == nil {
		plan = "no planning stage in the trace"
	} else if *d.PlanValid {
		plan = "a planning stage produced a valid plan"
	}
	ev := "the run has no task, so nothing to judge"
	if d.EvidenceNeeded != nil {
		ev = fmt.Sprintf("%d of %d claims confirmed at grade ≥ %s", d.ClaimsConfirmed, *d.EvidenceNeeded, safe(d.MinGrade))
	}
	gen := d.GenerationOutcome
	if gen == "" {
		gen = "none"
	}
	del := fmt.Sprintf("%d terminal(s), %d visible chars, %d chunks rejected, generation %s", d.Terminals, d.VisibleChars, d.ChunksRejected, safe(gen))
	com := fmt.Sprintf("%d terminal(s)", d.Terminals)
	if d.SealViolation {
		com += "; events after the terminal (seal violation)"
	} else if d.Terminals == 1 {
		com += "; nothing after it"
	}
	return [][2]string{
		{"plan valid " + yesNo(d.PlanValid), plan},
		{"evidence " + yesNo(d.EvidenceSatisfied), ev},
		{"deliverable " + pass(d.AnswerDeliverable), del},
		{"committed " + pass(d.TerminalCommitted), com},
	}
}

// View is the run's verdict, its gates with what each read, the waterfall
// and the evidence.
func (v detailView) View() string {
	st := v.sh.styles
	switch {
	case v.loading != "" && v.d == nil:
		return v.sh.spin.View() + " loading run " + safe(v.loading) + "…"
	case v.err != nil:
		return st.Error.Render("error: " + v.err.Error())
	case v.d == nil:
		return "no run selected: choose one in 4 Runs and press enter"
	}
	d := v.d
	var b strings.Builder
	fmt.Fprintf(&b, "%s  suite %s  scenario %s  agent %s  (esc back)\n", st.Title.Render("run "+safe(d.RunID)),
		safe(d.Suite), safe(d.Scenario), safe(d.Agent))
	verdict := "success " + yesNo(d.Success)
	claimed := d.Claimed
	if claimed == "" {
		claimed = "(none)"
	}
	line := fmt.Sprintf("claimed terminal %s  verdict %s  e2e %s  calls %d  re-sends %d (%d invalid)",
		safe(claimed), verdict, ms(d.EndToEndMs), d.Calls, d.Resends, d.InvalidResends)
	if d.Masked {
		// First on the line, so that a narrow screen does not cut it off.
		line = st.Bad.Render("MASKED SUCCESS ▶ " + line)
	}
	b.WriteString(line + "\n")
	if d.SealViolation {
		b.WriteString(st.Bad.Render("seal violation: events after the committed terminal") + "\n")
	}
	if d.Undisclosed {
		b.WriteString(st.Bad.Render("undisclosed degradation") + "\n")
	}
	b.WriteString(st.Header.Render("Gates") + "\n")
	for _, g := range gateReasons(d) {
		fmt.Fprintf(&b, " %-20s %s\n", g[0], g[1])
	}
	b.WriteString(st.Header.Render("Timeline") + "  queue ░  execution █  ([ ] a call, enter its fields)\n")
	b.WriteString(v.waterfall(d.Timeline))
	if v.shown && v.call >= 0 && v.call < len(d.Timeline) {
		b.WriteString(v.callFields(d.Timeline[v.call]))
	}
	if len(d.Evidence) > 0 {
		b.WriteString(st.Header.Render("Evidence") + "\n")
		for _, e := range d.Evidence {
			fmt.Fprintf(&b, " %-20s %-10s grade %-9s path %-9s from %s\n", pad(safe(e.Claim), 20), safe(e.Status), safe(e.Grade), safe(e.Path), safe(e.CallID))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// waterfall draws each span at its offset, queue apart from execution.
func (v detailView) waterfall(spans []metrics.Span) string {
	st := v.sh.styles
	end := 0.0
	for _, s := range spans {
		end = max(end, s.StartMs+s.QueueMs+s.ExecMs)
	}
	w := max(10, v.sh.width-62)
	var b strings.Builder
	for i, s := range spans {
		glyph := map[string]string{"stage": "S", "tool_call": "T", "model_call": "M"}[s.Kind]
		name := safe(s.Name)
		if s.Kind == "tool_call" && s.Attempt > 1 {
			name += fmt.Sprintf("#%d", s.Attempt)
		}
		off := cellsAt(s.StartMs, end, w)
		qn, xn := cells(s.QueueMs, end, w), cells(s.ExecMs, end, w)
		off = min(off, w)
		qn = min(qn, w-off)
		xn = min(xn, w-off-qn)
		bars := strings.Repeat(" ", off) + st.Queue.Render(strings.Repeat("░", qn)) + st.Exec.Render(strings.Repeat("█", xn)) + strings.Repeat(" ", w-off-qn-xn)
		note := safe(s.Status)
		if s.Category != "" {
			r := "retryable ?"
			if s.Retryable != nil {
				r = map[bool]string{true: "retryable", false: "not retryable"}[*s.Retryable]
			}
			note += " " + safe(s.Category) + " " + r
		}
		if s.Recovery != "" {
			note += " ↳" + safe(s.Recovery) + " of " + safe(s.RecoveryOf)
		}
		if s.InvalidResend {
			note += " INVALID RE-SEND"
		}
		if s.BreakerViolation {
			note += " BREAKER"
		}
		line := fmt.Sprintf("%s %-14s %s q%7s x%7s %s", glyph, pad(name, 14), bars, msf(s.QueueMs), msf(s.ExecMs), note)
		if v.call >= 0 {
			mark := "  "
			if i == v.call {
				mark = "> "
			}
			line = mark + line
		}
		if s.Category != "" {
			line = st.Warn.Render(line)
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

func cellsAt(v, scale float64, w int) int {
	if scale <= 0 {
		return 0
	}
	return int(v / scale * float64(w))
}

// callFields is every field of step s, one a line, under the timeline.
func (v detailView) callFields(s metrics.Span) string {
	st := v.sh.styles
	retry := "unknown"
	if s.Retryable != nil {
		retry = fmt.Sprint(*s.Retryable)
	}
	var b strings.Builder
	b.WriteString(st.Header.Render(fmt.Sprintf("Step %d (esc closes)", v.call+1)) + "\n")
	for _, f := range [][2]string{
		{"kind", s.Kind}, {"name", s.Name}, {"id", s.ID}, {"attempt", fmt.Sprint(s.Attempt)},
		{"status", s.Status}, {"error category", s.Category}, {"retryable", retry},
		{"recovery", s.Recovery}, {"recovers", s.RecoveryOf},
		{"invalid re-send", fmt.Sprint(s.InvalidResend)}, {"through open breaker", fmt.Sprint(s.BreakerViolation)},
		{"starts at", msf(s.StartMs)}, {"queued", msf(s.QueueMs)}, {"executed", msf(s.ExecMs)},
	} {
		fmt.Fprintf(&b, " %-21s %s\n", f[0], safe(f[1]))
	}
	return b.String()
}
