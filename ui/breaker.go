package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/faultlens/faultlens/metrics"
)

// breakerSlices is how many time slices a breaker lane has; breakerEvents
// bounds the list of state changes read at once.
const (
	breakerSlices = 48
	breakerEvents = 500
)

// breakerView follows each tool's circuit breaker over time: a lane per
// suite and tool whose calls report a circuit state, then every change of
// state and every call through an open breaker, with a cursor.
type breakerView struct {
	sh      *shared
	keys    breakerKeys
	seq     int  // the request awaited; older answers are dropped
	loading bool // a request is in flight
	t       *metrics.BreakerTimeline
	err     error
	cursor  int
	find    search
	// keep is the event the cursor was on when the facts changed: the
	// reloaded list puts the cursor back on it (ui --follow refreshes while
	// someone reads the list).
	keep *metrics.BreakerEvent
}

// breakerKeys are the breaker view's own keys.
type breakerKeys struct {
	moveKeys
	searchKeys
	Open, Pair, Back key.Binding
}

// ShortHelp is the status line's share.
func (k breakerKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Down, k.Open, k.Pair, k.Search}
}

// FullHelp is every key of the view.
func (k breakerKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.moveKeys.list(), append(k.searchKeys.list(), k.Open, k.Pair, k.Back)}
}

func newBreakerKeys() breakerKeys {
	return breakerKeys{
		moveKeys: newMoveKeys(), searchKeys: newSearchKeys(),
		Open: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open its run")),
		Pair: pairKey("pair its run"),
		Back: backKey(),
	}
}

func newBreakerView(sh *shared) breakerView {
	return breakerView{sh: sh, keys: newBreakerKeys(), find: newSearch()}
}

// Keys are the search input's while it has focus, else the view's.
func (v breakerView) Keys() help.KeyMap {
	if v.find.focused() {
		return fieldKeyMap
	}
	return v.keys
}

func (v breakerView) focused() bool      { return v.find.focused() }
func (v breakerView) searchLine() string { return v.find.view() }

// events is the number of events listed.
func (v breakerView) events() int {
	if v.t == nil {
		return 0
	}
	return len(v.t.Events)
}

// rowText is what the search reads of event i.
func (v breakerView) rowText(i int) string {
	e := v.t.Events[i]
	return strings.Join([]string{clock(e.AtMs), e.Suite, e.Tool, stateName(e.From) + " → " + stateName(e.To), e.Status, e.RunID, e.CallID}, " ")
}

// Update loads the breakers on the first visit after the facts change (a
// refresh drops them and any answer in flight), keeps the answer to the
// latest request only, and moves, opens and pairs.
func (v breakerView) Update(msg tea.Msg) (breakerView, tea.Cmd) {
	switch msg := msg.(type) {
	case breakersMsg:
		if msg.seq == v.seq {
			v.t, v.err, v.loading = msg.t, msg.err, false
			v.cursor = v.findEvent(v.keep)
			v.keep = nil
		}
	case factsMsg:
		// New facts make the breakers stale: drop them and any answer in
		// flight, and load them now if they are on screen, else on the
		// next visit.
		if e, ok := v.selected(); ok {
			v.keep = &e
		}
		v.seq++
		v.t, v.err, v.loading, v.cursor = nil, nil, false, 0
		if msg.onScreen {
			return v, v.load()
		}
	case shownMsg:
		if v.t == nil && v.err == nil && !v.loading && v.sh.ov != nil {
			return v, v.load()
		}
	case tea.KeyPressMsg:
		if to, c, ok := v.find.update(msg, v.cursor, v.events(), v.rowText); ok {
			v.cursor = to
			return v, c
		}
		return v.key(msg), nil
	case tea.MouseWheelMsg:
		if k, ok := wheelKey(msg); ok {
			return v.key(k), nil
		}
	case clickMsg:
		return v.click(msg.y), nil
	}
	return v, nil
}

// load asks for the breakers, dropping any answer in flight.
func (v *breakerView) load() tea.Cmd {
	v.seq++
	v.loading = true
	return v.sh.startLoad(breakersCmd(v.sh.ctx, v.sh.be, v.seq))
}

// findEvent is the index of event e in the list (the same call changing the
// same state at the same instant), 0 when e is nil or gone.
func (v breakerView) findEvent(e *metrics.BreakerEvent) int {
	if e == nil || v.t == nil {
		return 0
	}
	for i, x := range v.t.Events {
		if x == *e {
			return i
		}
	}
	return 0
}

func (v breakerView) selected() (metrics.BreakerEvent, bool) {
	if v.t != nil && v.cursor < len(v.t.Events) {
		return v.t.Events[v.cursor], true
	}
	return metrics.BreakerEvent{}, false
}

func (v breakerView) key(msg tea.KeyPressMsg) breakerView {
	k := v.keys
	if to, ok := k.move(msg, v.cursor, v.events(), max(1, v.sh.bodyHeight()-8)); ok {
		v.cursor = to
		return v
	}
	switch {
	case key.Matches(msg, k.Open):
		if e, ok := v.selected(); ok {
			v.sh.goTo(navigation{to: viewDetail, runID: e.RunID})
		}
	case key.Matches(msg, k.Pair):
		if e, ok := v.selected(); ok {
			v.sh.goTo(navigation{to: viewPair, runID: e.RunID, what: "run " + e.RunID})
		}
	case key.Matches(msg, k.Back):
		v.sh.goTo(navigation{back: true})
	}
	return v
}

// stateCell is one slice of a lane: ✗ a call went through the open breaker,
// █ a call saw it open, ▒ half-open, ─ every call saw it closed.
func (v breakerView) stateCell(s metrics.BreakerSlice) string {
	st := v.sh.styles
	switch {
	case s.Violations > 0:
		return st.Bad.Render("✗")
	case s.Open > 0:
		return st.Warn.Render("█")
	case s.HalfOpen > 0:
		return st.Warn.Render("▒")
	}
	return "─"
}

// View is a lane per suite and tool, then the list of state changes.
func (v breakerView) View() string {
	st := v.sh.styles
	switch {
	case v.err != nil:
		return st.Error.Render("error: " + safe(v.err.Error()))
	case v.t == nil:
		return v.sh.spin.View() + " rebuilding the breakers from the calls…"
	case len(v.t.Lanes) == 0:
		return "no tool call reports a circuit state (the tool_call field circuit): no breaker to follow"
	}
	var head strings.Builder
	head.WriteString("breakers as runs' calls saw them: ─ closed ▒ half-open █ open ✗ through open\n")
	// "half → closed  error" reads as a contradiction without this: the
	// state is the breaker's, the status the call's own outcome.
	head.WriteString(st.Faint.Render("state: breaker before → after this call (half = half-open, a trial call); status: the call's own outcome") + "\n")
	for _, l := range v.t.Lanes {
		var strip strings.Builder
		var open, half, viol int64
		for _, s := range l.Slices {
			strip.WriteString(v.stateCell(s))
			open, half, viol = open+s.Open, half+s.HalfOpen, viol+s.Violations
		}
		fmt.Fprintf(&head, "%-10s %-12s │%s│\n", pad(safe(l.Suite), 10), pad(safe(l.Tool), 12), strip.String())
		fmt.Fprintf(&head, "%-23s  %s → %s  calls: %d open, %d half-open, %d ✗\n", "",
			clock(l.FirstMs), clock(l.LastMs), open, half, viol)
	}
	fmt.Fprintf(&head, "\n%d changes of state (a run starts closed) and calls through an open breaker", v.t.TotalEvents)
	if int64(len(v.t.Events)) < v.t.TotalEvents {
		fmt.Fprintf(&head, " (the first %d)", len(v.t.Events))
	}
	// Below 100 columns a list of one suite's events leaves the suite out
	// (a line names it), so that the run and call are not cut.
	only := ""
	if v.sh.width < 100 {
		only = singleSuite(v.t.Events)
	}
	suiteCol := func(s string) string {
		if only != "" {
			return ""
		}
		return pad(s, 10) + " "
	}
	if only != "" {
		head.WriteString("\nevery one of suite " + safe(only))
	}
	head.WriteString("\n" + st.Header.Render(fmt.Sprintf("    %-8s %s%-12s %-14s %-9s %s", "time", suiteCol("suite"), "tool", "state", "status", "run / call")) + "\n")
	var lines []string
	for i, e := range v.t.Events {
		mark := "  "
		if i == v.cursor {
			mark = "> "
		}
		flag := "  "
		if e.BreakerViolation {
			flag = "✗ "
		}
		line := fmt.Sprintf("%s%s%-8s %s%-12s %-14s %-9s %s", mark, flag, clock(e.AtMs), suiteCol(safe(e.Suite)), pad(safe(e.Tool), 12),
			pad(stateName(e.From)+" → "+stateName(e.To), 14), pad(safe(e.Status), 9), callName(e.RunID, e.CallID))
		switch {
		case i == v.cursor:
			line = st.Selected.Render(line)
		case e.BreakerViolation:
			line = st.Bad.Render(line)
		}
		lines = append(lines, line)
	}
	start, end := v.window(strings.Count(head.String(), "\n"))
	return head.String() + strings.Join(lines[start:end], "\n")
}

// window is the events on screen, start:end, below a head of n lines.
func (v breakerView) window(n int) (int, int) {
	h := max(1, v.sh.bodyHeight()-n)
	start := min(max(0, v.cursor-h/2), max(0, v.events()-h))
	return start, min(v.events(), start+h)
}

// click puts the cursor on the event drawn at body line y; a click on
// the event under the cursor opens its run.
func (v breakerView) click(y int) breakerView {
	if v.t == nil || len(v.t.Lanes) == 0 {
		return v
	}
	// The head's lines: the legends, two per lane, the count and the
	// table's header, and a line naming the suite below 100 columns.
	n := 2 + 2*len(v.t.Lanes) + 2 + 1
	if v.sh.width < 100 && singleSuite(v.t.Events) != "" {
		n++
	}
	start, end := v.window(n)
	i := start + y - n
	if i < start || i >= end {
		return v
	}
	if i == v.cursor {
		return v.key(tea.KeyPressMsg{Code: tea.KeyEnter})
	}
	v.cursor = i
	return v
}

// singleSuite is the suite of every event, or "" when they are of more
// than one (or there are none).
func singleSuite(events []metrics.BreakerEvent) string {
	if len(events) == 0 {
		return ""
	}
	for _, e := range events[1:] {
		if e.Suite != events[0].Suite {
			return ""
		}
	}
	return events[0].Suite
}

// stateName is a breaker state in at most six cells, open in capitals.
func stateName(s string) string {
	switch s {
	case "open":
		return "OPEN"
	case "half_open":
		return "half"
	}
	return safe(s)
}

// callName is the run and call, the call without the run prefix it
// usually repeats.
func callName(run, call string) string {
	return safe(run) + " " + safe(strings.TrimPrefix(call, run+"/"))
}

// clock is an instant (ms since the epoch) as UTC time of day.
func clock(ms float64) string {
	return time.UnixMilli(int64(ms)).UTC().Format("15:04:05")
}
