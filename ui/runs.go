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

// runsView is the paged runs table; only the visible page is in memory.
// It is not a bubbles table: that table holds all its rows and moves its
// cursor within them, while this one pages from DuckDB (a million-event
// database has tens of thousands of runs) and refetches when the cursor
// leaves the page; it also colours a whole row by its verdict (masked in
// red), which the table's per-cell styles cannot.
//
// The cursor is a position in the whole filtered list, moved at once by
// every key: a page in flight never swallows a key (twenty quick page
// downs move twenty pages; the page asked for last is the one shown).
type runsView struct {
	sh     *shared
	keys   runsKeys
	filter metrics.RunFilter
	sort   metrics.RunSort
	input  field // the text filter; "/" focuses it
	seq    int   // answers of older requests are dropped
	// pos is the cursor in the filtered list, top the first row on
	// screen; want is the offset of the page last asked for.
	pos, top, want int
	// offset and rows are the page that arrived (at want once it is in).
	offset int
	rows   []metrics.RunRow
	total  int64
	err    error
	// keep is the run under the cursor when the facts changed: if the
	// reloaded page still holds it, the cursor goes back to it.
	keep string
	// pending is enter or p pressed while the cursor's page was in
	// flight: done when it arrives, so the key is not lost.
	pending *tea.KeyPressMsg
}

// runsKeys are the runs view's own keys.
type runsKeys struct {
	moveKeys
	Enter, Pair, Back, Next, Prev                                 key.Binding
	Filter, Sort, SortDir, Quick, Scenario, ErrorClass, GateFalse key.Binding
}

func newRunsKeys() runsKeys {
	return runsKeys{
		moveKeys:   newMoveKeys(),
		Enter:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Pair:       pairKey("pair with its twin"),
		Back:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filters, else back")),
		Next:       key.NewBinding(key.WithKeys("n"), key.WithHelp("n/N", "next/previous match (every row matches the filter)")),
		Prev:       key.NewBinding(key.WithKeys("N")),
		Filter:     key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter (search)")),
		Sort:       key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "next sort column (of those shown)")),
		SortDir:    key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "reverse sort")),
		Quick:      key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "masked, failed, seal, undisclosed")),
		Scenario:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "next scenario")),
		ErrorClass: key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "next error class")),
		GateFalse:  key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "a gate false")),
	}
}

// ShortHelp is the status line's share.
func (k runsKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Enter, k.Pair, k.Filter, k.Sort, k.Quick}
}

// FullHelp is moving, then opening, then filtering and sorting.
func (k runsKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.list(), {k.Enter, k.Pair, k.Back, k.Filter, k.Next},
		{k.Sort, k.SortDir, k.Quick, k.Scenario, k.ErrorClass, k.GateFalse}}
}

func newRunsView(sh *shared) runsView {
	return runsView{sh: sh, keys: newRunsKeys(), sort: metrics.RunSort{Column: "run_id"}, want: -1,
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
		if msg.seq != r.seq {
			return r, nil
		}
		r.rows, r.total, r.offset, r.err = msg.rows, msg.total, msg.offset, msg.err
		if r.total > 0 {
			r.pos = clamp(r.pos, 0, int(r.total)-1)
		} else {
			r.pos = 0
		}
		for i, x := range r.rows {
			if r.keep != "" && x.RunID == r.keep {
				r.pos = r.offset + i
			}
		}
		r.keep = ""
		if c := r.follow(); c != nil {
			return r, c // the list shrank under the cursor: fetch its page
		}
		if p := r.pending; p != nil && r.current() {
			r.pending = nil
			return r.key(*p)
		}
	case factsMsg:
		r.keep = r.selectedID()
		return r, r.refetch() // the page at the same offset, from the new facts
	case drillMsg:
		r.filter = msg.filter
		r.input.in.SetValue("")
		return r, r.restart()
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
	case clickMsg:
		before := r.pos
		if c, ok := r.click(msg.y); ok {
			if r.pos == before {
				return r.key(tea.KeyPressMsg{Code: tea.KeyEnter})
			}
			return r, c
		}
	}
	return r, nil
}

// current reports whether the page on screen is the one the cursor is on.
func (r runsView) current() bool {
	return r.offset == r.want && r.pos >= r.offset && r.pos < r.offset+len(r.rows)
}

func (r runsView) selectedID() string {
	if i := r.pos - r.offset; r.offset == r.want && i >= 0 && i < len(r.rows) {
		return r.rows[i].RunID
	}
	return ""
}

func (r runsView) pageSize() int { return max(1, r.sh.bodyHeight()-3) }

// follow moves the window so the cursor is on it and asks for its page
// unless that page is the one asked for last.
func (r *runsView) follow() tea.Cmd {
	ps := r.pageSize()
	switch {
	case r.pos < r.top:
		r.top = r.pos
	case r.pos >= r.top+ps:
		r.top = r.pos - ps + 1
	}
	r.top = clamp(r.top, 0, max(0, int(r.total)-ps))
	if r.top == r.want {
		return nil
	}
	return r.fetch(r.top)
}

// refetch asks again for the page on screen (new facts).
func (r *runsView) refetch() tea.Cmd { return r.fetch(r.top) }

// restart goes back to the first row of a new filter or sort.
func (r *runsView) restart() tea.Cmd {
	r.pos, r.top = 0, 0
	return r.fetch(0)
}

func (r *runsView) fetch(offset int) tea.Cmd {
	r.seq++
	r.want = max(0, offset)
	return r.sh.startLoad(runsCmd(r.sh.ctx, r.sh.be, r.seq, r.filter, r.sort, r.want, r.pageSize()))
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
		return r, tea.Batch(c, r.restart())
	}
	return r, c
}

// sortable is the sort columns of the columns on screen, in their order:
// s never sorts by a column the screen does not show.
func (r runsView) sortable() []string {
	var out []string
	for _, c := range runColumnsFor(r.sh.width) {
		out = append(out, c.sort)
	}
	return out
}

func (r runsView) key(msg tea.KeyPressMsg) (runsView, tea.Cmd) {
	k := r.keys
	ps := r.pageSize()
	n := int(r.total)
	switch {
	case key.Matches(msg, k.Filter):
		return r, r.input.focus()
	case key.Matches(msg, k.Back):
		if r.filter != (metrics.RunFilter{}) {
			r.filter = metrics.RunFilter{}
			r.input.in.SetValue("")
			return r, r.restart()
		}
		r.sh.goTo(navigation{back: true})
	case key.Matches(msg, k.Next):
		r.pos = clamp(r.pos+1, 0, n-1)
		return r, r.follow()
	case key.Matches(msg, k.Prev):
		r.pos = clamp(r.pos-1, 0, n-1)
		return r, r.follow()
	case key.Matches(msg, k.PageDown, k.PageUp):
		// A page moves the window with the cursor, as less does.
		d := ps
		if key.Matches(msg, k.PageUp) {
			d = -ps
		}
		r.top = clamp(r.top+d, 0, max(0, n-ps))
		r.pos = clamp(r.pos+d, 0, n-1)
		return r, r.follow()
	case key.Matches(msg, k.Sort):
		cols := r.sortable()
		i := -1
		for j, c := range cols {
			if c == r.sort.Column {
				i = j
			}
		}
		r.sort.Column = cols[(i+1)%len(cols)]
		return r, r.restart()
	case key.Matches(msg, k.SortDir):
		r.sort.Desc = !r.sort.Desc
		return r, r.restart()
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
		return r, r.restart()
	case key.Matches(msg, k.Enter, k.Pair):
		id := r.selectedID()
		if id == "" {
			if r.total > 0 {
				r.pending = &msg // the page is in flight: open it when it arrives
			}
			return r, nil
		}
		if key.Matches(msg, k.Enter) {
			r.sh.goTo(navigation{to: viewDetail, runID: id})
		} else {
			r.sh.goTo(navigation{to: viewPair, runID: id, what: "run " + id})
		}
	default:
		if to, ok := k.move(msg, r.pos, n, ps); ok {
			r.pos = to
			return r, r.follow()
		}
	}
	return r, nil
}

// click puts the cursor on the row drawn at body line y (0 the first line
// under the tab bar); ok is false when no row is there.
func (r *runsView) click(y int) (tea.Cmd, bool) {
	i := y - r.headLines()
	if i < 0 || i >= len(r.rows) || r.offset != r.want {
		return nil, false
	}
	r.pos = r.offset + i
	return r.follow(), true
}

// headLines is the number of lines above the first row: the counts and
// filters, the drill's filters when there are, and the header.
func (r runsView) headLines() int { return 3 }

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
	if r.offset != r.want {
		b.WriteString(r.sh.spin.View() + " ")
	}
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
	fmt.Fprintf(&b, "quick %s  scenario %s  error %s  gate-false %s  (m c x v cycle, esc clears)\n", orAll(r.filter.Quick),
		orAll(r.filter.Scenario), errorLabel(r.filter), orAll(r.filter.GateFalse))
	if r.err != nil {
		return b.String() + st.Error.Render("error: "+r.err.Error())
	}
	cols := fitRunColumns(runColumnsFor(r.sh.width), r.sh.width-2)
	b.WriteString(st.Header.Render("  "+runLine(cols, func(c runColumn) string { return c.head })) + "\n")
	for i, x := range r.rows {
		mark := "  "
		sel := r.offset+i == r.pos
		if sel {
			mark = "> "
		}
		line := mark + runLine(cols, func(c runColumn) string { return c.cell(x) })
		switch {
		case sel:
			line = st.Selected.Render(line)
		case x.Masked:
			line = st.Bad.Render(line)
		}
		b.WriteString(line + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// errorLabel is the error filter: the class, and the chain outcome after a
// drill from an errors cell.
func errorLabel(f metrics.RunFilter) string {
	if f.ErrorOutcome == "" {
		return orAll(f.ErrorClass)
	}
	return orAll(f.ErrorClass) + "/" + safe(f.ErrorOutcome)
}
