package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/faultlens/faultlens/metrics"
)

// runsFilterAt is roughly where the filter input starts on the runs view's
// first line.
const runsFilterAt = 40

var sortOrder = []string{"run_id", "suite", "scenario", "agent", "claimed", "verdict", "masked", "calls", "resends", "e2e"}

// runsView is the paged runs table; only the visible page is in memory.
// It is not a bubbles table: that table holds all its rows and moves its
// cursor within them, while this one pages from DuckDB (a million-event
// database has tens of thousands of runs) and refetches at the page's
// edge; it also colours a whole row by its verdict (masked in red), which
// the table's per-cell styles cannot.
type runsView struct {
	sh     *shared
	keys   runsKeys
	filter metrics.RunFilter
	sort   metrics.RunSort
	input  field // the text filter; "/" focuses it
	seq    int   // answers of older requests are dropped
	offset int
	cursor int
	rows   []metrics.RunRow
	total  int64
	err    error
	// keep is the run under the cursor when the facts changed: if the
	// reloaded page still holds it, the cursor goes back to it.
	keep string
}

// runsKeys are the runs view's own keys.
type runsKeys struct {
	Up, Down, PageUp, PageDown, Enter, Pair, Back                 key.Binding
	Filter, Sort, SortDir, Quick, Scenario, ErrorClass, GateFalse key.Binding
}

func newRunsKeys() runsKeys {
	s := newScrollKeys()
	return runsKeys{
		Up: upKey(), Down: downKey(), PageUp: s.PageUp, PageDown: s.PageDown,
		Enter:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Pair:       pairKey("pair with its twin"),
		Back:       backKey(),
		Filter:     key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Sort:       key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "next sort column")),
		SortDir:    key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "reverse sort")),
		Quick:      key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "masked, failed, seal, undisclosed")),
		Scenario:   key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next scenario")),
		ErrorClass: key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "next error class")),
		GateFalse:  key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "a gate false")),
	}
}

// ShortHelp is the status line's share.
func (k runsKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Enter, k.Pair, k.Filter, k.Sort, k.Quick}
}

// FullHelp is moving and opening, then filtering and sorting.
func (k runsKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Down, k.Up, k.PageDown, k.PageUp, k.Enter, k.Pair, k.Back},
		{k.Filter, k.Sort, k.SortDir, k.Quick, k.Scenario, k.ErrorClass, k.GateFalse}}
}

func newRunsView(sh *shared) runsView {
	return runsView{sh: sh, keys: newRunsKeys(), sort: metrics.RunSort{Column: "run_id"},
		input: newField("/", "filter: part of run id, suite, scenario or agent")}
}

// Keys are the filter's while it has focus, else the table's.
func (r runsView) Keys() help.KeyMap {
	if r.input.focused() {
		return fieldKeyMap
	}
	return r.keys
}

func (r runsView) focused() bool { return r.input.focused() }

// Update pages, filters and sorts; enter opens the run, p pairs it.
func (r runsView) Update(msg tea.Msg) (runsView, tea.Cmd) {
	switch msg := msg.(type) {
	case runsMsg:
		if msg.seq == r.seq {
			r.rows, r.total, r.offset, r.err = msg.rows, msg.total, msg.offset, msg.err
			r.cursor = min(r.cursor, max(0, len(r.rows)-1))
			for i, x := range r.rows {
				if r.keep != "" && x.RunID == r.keep {
					r.cursor = i
				}
			}
			r.keep = ""
		}
	case factsMsg:
		r.keep = r.selectedID()
		return r, r.reload() // the page at the same offset, from the new facts
	case drillMsg:
		r.filter, r.offset, r.cursor = msg.filter, 0, 0
		r.input.in.SetValue("")
		return r, r.reload()
	case tea.WindowSizeMsg:
		r.input.setWidth(msg.Width - runsFilterAt)
	case tea.KeyPressMsg:
		if r.input.focused() {
			return r.fieldKey(msg)
		}
		return r.key(msg)
	case tea.MouseWheelMsg:
		if k, ok := wheelKey(msg); ok {
			return r.key(k)
		}
	}
	return r, nil
}

func (r runsView) selectedID() string {
	if r.cursor < len(r.rows) {
		return r.rows[r.cursor].RunID
	}
	return ""
}

func (r runsView) pageSize() int { return max(1, r.sh.bodyHeight()-3) }

// reload asks for the page at the current offset.
func (r *runsView) reload() tea.Cmd {
	return r.fetch(r.offset)
}

func (r *runsView) fetch(offset int) tea.Cmd {
	r.seq++
	return r.sh.startLoad(runsCmd(r.sh.ctx, r.sh.be, r.seq, r.filter, r.sort, max(0, offset), r.pageSize()))
}

// fieldKey is a key for the focused filter: every edit refilters, enter
// or esc returns the keys to the table.
func (r runsView) fieldKey(msg tea.KeyPressMsg) (runsView, tea.Cmd) {
	ev, c := r.input.update(msg)
	switch ev {
	case fieldSubmit:
		r.input.remember(r.input.value())
		r.input.blur()
	case fieldEdited:
		r.filter.Text = r.input.value()
		r.offset, r.cursor = 0, 0
		return r, tea.Batch(c, r.reload())
	}
	return r, c
}

func (r runsView) key(msg tea.KeyPressMsg) (runsView, tea.Cmd) {
	k := r.keys
	ps := r.pageSize()
	switch {
	case key.Matches(msg, k.Filter):
		return r, r.input.focus()
	case key.Matches(msg, k.Back):
		if r.filter != (metrics.RunFilter{}) {
			r.filter, r.offset, r.cursor = metrics.RunFilter{}, 0, 0
			r.input.in.SetValue("")
			return r, r.reload()
		}
		r.sh.goTo(navigation{back: true})
	case key.Matches(msg, k.Down):
		if r.cursor < len(r.rows)-1 {
			r.cursor++
		} else if int64(r.offset+ps) < r.total {
			r.cursor = 0
			return r, r.fetch(r.offset + ps)
		}
	case key.Matches(msg, k.Up):
		if r.cursor > 0 {
			r.cursor--
		} else if r.offset > 0 {
			r.cursor = ps - 1
			return r, r.fetch(r.offset - ps)
		}
	case key.Matches(msg, k.PageDown):
		if int64(r.offset+ps) < r.total {
			return r, r.fetch(r.offset + ps)
		}
	case key.Matches(msg, k.PageUp):
		return r, r.fetch(r.offset - ps)
	case key.Matches(msg, k.Sort):
		i := 0
		for j, c := range sortOrder {
			if c == r.sort.Column {
				i = j
			}
		}
		r.sort.Column = sortOrder[(i+1)%len(sortOrder)]
		r.offset, r.cursor = 0, 0
		return r, r.reload()
	case key.Matches(msg, k.SortDir):
		r.sort.Desc = !r.sort.Desc
		r.offset, r.cursor = 0, 0
		return r, r.reload()
	case key.Matches(msg, k.Quick, k.Scenario, k.ErrorClass, k.GateFalse):
		switch {
		case key.Matches(msg, k.Quick):
			r.filter.Quick = next(r.filter.Quick, metrics.QuickFilters)
		case key.Matches(msg, k.Scenario):
			r.filter.Scenario = next(r.filter.Scenario, r.sh.filterValues().Scenarios)
		case key.Matches(msg, k.ErrorClass):
			r.filter.ErrorClass = next(r.filter.ErrorClass, r.sh.filterValues().ErrorClasses)
		default:
			r.filter.GateFalse = next(r.filter.GateFalse, metrics.GateFilters)
		}
		r.offset, r.cursor = 0, 0
		return r, r.reload()
	case key.Matches(msg, k.Enter):
		if id := r.selectedID(); id != "" {
			r.sh.goTo(navigation{to: viewDetail, runID: id})
		}
	case key.Matches(msg, k.Pair):
		if id := r.selectedID(); id != "" {
			r.sh.goTo(navigation{to: viewPair, runID: id, what: "run " + id})
		}
	}
	return r, nil
}

// next is the quick-filter value after cur: "" (all), then each of values
// in turn, then "" again.
func next(cur string, values []string) string {
	q := append([]string{""}, values...)
	i := 0
	for j, c := range q {
		if c == cur {
			i = j
		}
	}
	return q[(i+1)%len(q)]
}

func orAll(s string) string {
	if s == "" {
		return "all"
	}
	return safe(s)
}

// View is the page of runs with the filters that made it.
func (r runsView) View() string {
	st := r.sh.styles
	var b strings.Builder
	dir := "asc"
	if r.sort.Desc {
		dir = "desc"
	}
	fmt.Fprintf(&b, "runs %d–%d of %d  sort %s %s  ",
		min(int64(r.offset+1), r.total), int64(r.offset+len(r.rows)), r.total, r.sort.Column, dir)
	b.WriteString(r.input.view() + "\n")
	// A compare drill also narrows to the candidate suite and maybe to runs
	// with a slow span; say so first, or the list would look unexplained.
	if f := r.filter; f.Suite != "" || f.Slow.Scope != "" {
		b.WriteString("drill: " + orAll(f.Suite) + " runs")
		if f.Slow.Scope != "" {
			fmt.Fprintf(&b, ", %s %s %s > %s", f.Slow.Scope, safe(f.Slow.Name), f.Slow.Clock, msf(f.Slow.OverMs))
		}
		b.WriteString("  ")
	}
	fmt.Fprintf(&b, "quick %s  scenario %s  error %s  gate-false %s  (m n x g cycle, esc clears)\n", orAll(r.filter.Quick),
		orAll(r.filter.Scenario), orAll(r.filter.ErrorClass), orAll(r.filter.GateFalse))
	if r.err != nil {
		return b.String() + st.Error.Render("error: "+r.err.Error())
	}
	cols := runColumnsFor(r.sh.width)
	b.WriteString(st.Header.Render("  "+runLine(cols, func(c runColumn) string { return c.head })) + "\n")
	for i, x := range r.rows {
		mark := "  "
		if i == r.cursor {
			mark = "> "
		}
		line := mark + runLine(cols, func(c runColumn) string { return c.cell(x) })
		switch {
		case i == r.cursor:
			line = st.Selected.Render(line)
		case x.Masked:
			line = st.Bad.Render(line)
		}
		b.WriteString(line + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
