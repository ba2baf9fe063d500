package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/faultlens/faultlens/compare"
)

// compareView is the compare engine's judgement of the chosen pair, one
// row per whole-run-set metric with a cursor. It is not a bubbles table:
// a table styles cells, not rows, and the verdict colour of a row (failed
// gate, significant change) is what the eye looks for first; the gated and
// exploratory sections also break the one-header grid a table draws.
type compareView struct {
	sh         *shared
	keys       compareKeys
	seq        int    // the request awaited; older answers are dropped
	base, cand string // the suites res compares
	res        *compare.Result
	err        error
	rows       []cmpRow
	cursor     int
	find       search
	// keep is the metric and scenario of the row under the cursor when a
	// new comparison was asked for: its rows may come in another order (a
	// gate that now fails moves up), and the cursor stays on that row.
	keep [2]string
}

// compareKeys are the compare view's own keys.
type compareKeys struct {
	moveKeys
	searchKeys
	Drill, Pair, Back key.Binding
}

// ShortHelp is the status line's share.
func (k compareKeys) ShortHelp() []key.Binding { return []key.Binding{k.Drill, k.Pair, k.Search} }

// FullHelp is every key of the view.
func (k compareKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.moveKeys.list(), append(k.searchKeys.list(), k.Drill, k.Pair, k.Back)}
}

func newCompareKeys() compareKeys {
	return compareKeys{
		moveKeys: newMoveKeys(), searchKeys: newSearchKeys(),
		Drill: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "its runs")),
		Pair:  pairKey("pair its first run"),
		Back:  backKey(),
	}
}

func newCompareView(sh *shared) compareView {
	return compareView{sh: sh, keys: newCompareKeys(), find: newSearch()}
}

// Keys are the search input's while it has focus, else the view's.
func (v compareView) Keys() help.KeyMap {
	if v.find.focused() {
		return fieldKeyMap
	}
	return v.keys
}

func (v compareView) focused() bool      { return v.find.focused() }
func (v compareView) searchLine() string { return v.find.view() }

// rowText is what the search reads of row i.
func (v compareView) rowText(i int) string {
	r := v.rows[i]
	return r.Metric + " " + r.Scenario + " " + rowName(r, false) + " " + r.verdict
}

// Update compares the pair of suites whenever the facts change, keeps the
// answer to the latest request only, and moves, drills and pairs.
func (v compareView) Update(msg tea.Msg) (compareView, tea.Cmd) {
	switch msg := msg.(type) {
	case compareMsg:
		if msg.seq != v.seq {
			return v, nil
		}
		v.res, v.err = msg.res, msg.err
		v.sh.verdict = msg.res // the overview opens with it
		if v.res != nil {
			v.rows = gatedRows(v.res)
			v.cursor = min(v.cursor, max(0, len(v.rows)-1))
			for i, r := range v.rows {
				if [2]string{r.Metric, r.Scenario} == v.keep {
					v.cursor = i
				}
			}
		}
	case factsMsg:
		b, c := v.sh.pair()
		if b == nil || c == nil {
			return v, nil
		}
		if r, ok := v.selected(); ok {
			v.keep = [2]string{r.Metric, r.Scenario}
		}
		v.seq++
		v.base, v.cand = b.Suite, c.Suite
		return v, v.sh.startLoad(compareCmd(v.sh.ctx, v.sh.be, v.seq, b.Suite, c.Suite))
	case tea.KeyPressMsg:
		if to, c, ok := v.find.update(msg, v.cursor, len(v.rows), v.rowText); ok {
			v.cursor = to
			return v, c
		}
		return v.key(msg), nil
	case tea.MouseWheelMsg:
		if k, ok := wheelKey(msg); ok {
			return v.key(k), nil
		}
	case clickMsg:
		if v.res == nil {
			return v, nil
		}
		if i, ok := v.layout().rowAt(msg.y); ok {
			if i == v.cursor {
				return v.key(tea.KeyPressMsg{Code: tea.KeyEnter}), nil
			}
			v.cursor = i
		}
	}
	return v, nil
}

func (v compareView) selected() (cmpRow, bool) {
	if v.cursor < len(v.rows) {
		return v.rows[v.cursor], true
	}
	return cmpRow{}, false
}

// key moves the cursor, drills to the runs behind the row, or pairs the
// row's first candidate run with its baseline twin.
func (v compareView) key(msg tea.KeyPressMsg) compareView {
	k := v.keys
	if to, ok := k.move(msg, v.cursor, len(v.rows), max(1, v.sh.bodyHeight()-6)); ok {
		v.cursor = to
		return v
	}
	switch {
	case key.Matches(msg, k.Drill, k.Pair):
		r, ok := v.selected()
		if !ok {
			return v
		}
		f, narrowed := drill(r.Row, v.res.Candidate.Suite)
		if !narrowed {
			v.sh.status = "no run filter for " + safe(r.Metric) + ": all runs of " + safe(v.res.Candidate.Suite)
		}
		if key.Matches(msg, k.Pair) {
			v.sh.goTo(navigation{to: viewPair, filter: f, what: "the first run behind the row"})
		} else {
			v.sh.goTo(navigation{to: viewRuns, filter: f})
		}
	case key.Matches(msg, k.Back):
		v.sh.goTo(navigation{back: true})
	}
	return v
}

// compareBody draws the summary, then the gated rows with their verdicts
// and the exploratory rows after them, a window around the cursor, and the
// selected row's gate reason.
func (v compareView) View() string {
	b, c := v.sh.pair()
	if b == nil || c == nil {
		return "compare needs two suites (--baseline B --candidate C)"
	}
	st := v.sh.styles
	switch {
	case v.err != nil:
		return st.Error.Render("compare: " + safe(v.err.Error()))
	case v.res == nil:
		return v.sh.spin.View() + " comparing " + safe(b.Suite) + " with " + safe(c.Suite) + "…"
	}
	l := v.layout()
	return l.head + strings.Join(l.lines[l.start:l.end], "\n") + "\n" + l.foot
}

// cmpLayout is the compare body: the head, the window start:end of the
// lines (rowOf[i] the row of line i, -1 for a section title) and the foot.
type cmpLayout struct {
	head, foot string
	lines      []string
	rowOf      []int
	start, end int
}

// rowAt is the row drawn at body line y, if any.
func (l cmpLayout) rowAt(y int) (int, bool) {
	i := l.start + y - strings.Count(l.head, "\n")
	if i < l.start || i >= l.end {
		return 0, false
	}
	return l.rowOf[i], l.rowOf[i] >= 0
}

func (v compareView) layout() cmpLayout {
	st := v.sh.styles
	res := v.res
	var head strings.Builder
	outcome := st.Good.Render("all gates passed")
	if res.Failed > 0 {
		outcome = st.Bad.Render(fmt.Sprintf("%d of %d gates FAILED", res.Failed, len(res.Gates)))
	}
	fmt.Fprintf(&head, "%s vs %s (%d vs %d runs): %s  Holm α=%g\n", st.Title.Render(safe(res.Baseline.Name)),
		st.Title.Render(safe(res.Candidate.Name)), res.Baseline.Runs, res.Candidate.Runs, outcome, res.Alpha)
	fmt.Fprintf(&head, "delta = candidate − baseline [%.0f%% interval]; ~ no significant change\n", res.Confidence*100)
	// Below 110 columns the names are abbreviated by a legend, the delta
	// loses its interval to the footer, and a name still wider than its
	// column wraps onto the next lines: a name is never cut, so two rows
	// never read the same.
	narrow := v.sh.width < 110
	if narrow {
		head.WriteString(st.Faint.Render("names: "+metricLegend) + "\n")
	}
	nw := 10
	for _, r := range v.rows {
		nw = max(nw, len([]rune(rowName(r, narrow))))
	}
	fixed, deltaHead := 50, "delta [interval]"
	if narrow {
		fixed, deltaHead = 45, "delta"
	}
	nw = min(nw, max(10, v.sh.width-fixed))
	head.WriteString(st.Header.Render(fmt.Sprintf("  %-*s %-4s %8s %8s %-9s %s", nw, "metric", "gate",
		lpad(pad(safe(res.Baseline.Name), 8), 8), lpad(pad(safe(res.Candidate.Name), 8), 8), "sig", deltaHead)) + "\n")
	var lines []string
	var rowOf []int
	at := 0
	for i, r := range v.rows {
		if i == 0 || r.gated != v.rows[i-1].gated {
			title := "── gated ──"
			if !r.gated {
				title = "── exploratory (not gated) ──"
			}
			lines = append(lines, st.Faint.Render(title))
			rowOf = append(rowOf, -1)
		}
		mark := "  "
		if i == v.cursor {
			mark, at = "> ", len(lines)
		}
		gate := r.verdict
		if gate == "" {
			gate = "–"
		}
		delta := cmpDelta(r.Row)
		if narrow {
			delta = cmpDiff(r.Row)
		}
		name := wrapName(safe(rowName(r, narrow)), nw)
		row := []string{fmt.Sprintf("%s%-*s %-4s %8s %8s %-9s %s", mark, nw, pad(name[0], nw), gate,
			cmpCell(r.Row, r.Base), cmpCell(r.Row, r.Cand), pad(sigMark(r.Row), 9), delta)}
		for _, more := range name[1:] {
			row = append(row, "  "+more)
		}
		for _, line := range row {
			switch {
			case i == v.cursor:
				line = st.Selected.Render(line)
			case gate == "FAIL":
				line = st.Bad.Render(line)
			case r.Significant:
				line = st.Warn.Render(line)
			}
			lines = append(lines, line)
			rowOf = append(rowOf, i)
		}
	}
	// The footer is the selected row in full: its interval (on a narrow
	// screen, on a line of its own) and its gate's reason.
	foot := ""
	if r, ok := v.selected(); ok {
		foot = safe(r.Metric) + ": "
		if narrow {
			foot += cmpDelta(r.Row) + "\n"
		}
		if r.gated {
			foot += r.verdict + " — " + safe(r.reason)
		} else {
			foot += "exploratory, not gated"
		}
	}
	h := max(1, v.sh.bodyHeight()-strings.Count(head.String(), "\n")-strings.Count(foot, "\n")-1)
	start := min(max(0, at-h/2), max(0, len(lines)-h))
	end := min(len(lines), start+h)
	return cmpLayout{head: head.String(), foot: foot, lines: lines, rowOf: rowOf, start: start, end: end}
}

// cmpCell is a rate as a percentage or a latency in ms.
func cmpCell(r compare.Row, v *float64) string {
	switch {
	case v == nil:
		return "–"
	case r.Kind == "rate":
		return fmt.Sprintf("%.1f%%", *v*100)
	}
	return ms(v)
}

// cmpDelta is the change with its interval: points for rates, ms for
// latency.
func cmpDelta(r compare.Row) string {
	if r.Diff == nil {
		return "–"
	}
	if r.Kind == "rate" {
		return fmt.Sprintf("%+.1fpp [%+.1f, %+.1f]", *r.Diff*100, val(r.Lo)*100, val(r.Hi)*100)
	}
	return fmt.Sprintf("%s [%s, %s]", signedMs(*r.Diff), signedMs(val(r.Lo)), signedMs(val(r.Hi)))
}

// sigMark is "~" without a significant change, else the change itself.
func sigMark(r compare.Row) string { return compare.ShortVerdict(r) }

func signedMs(v float64) string {
	if v < 0 {
		return "-" + msf(-v)
	}
	return "+" + msf(v)
}
