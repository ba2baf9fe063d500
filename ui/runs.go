package ui

import (
	"fmt"
	"strings"

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
	filter metrics.RunFilter
	sort   metrics.RunSort
	input  field // the text filter; "/" focuses it
	seq    int   // answers of older requests are dropped
	offset int
	cursor int
	rows   []metrics.RunRow
	total  int64
	err    error
}

func newRunsView() runsView {
	return runsView{sort: metrics.RunSort{Column: "run_id"}, input: newField("/", "filter: part of run id, suite, scenario or agent")}
}

func (r *runsView) apply(msg runsMsg) {
	if msg.seq != r.seq {
		return
	}
	r.rows, r.total, r.offset, r.err = msg.rows, msg.total, msg.offset, msg.err
	r.cursor = min(r.cursor, max(0, len(r.rows)-1))
}

func (r runsView) selectedID() string {
	if r.cursor < len(r.rows) {
		return r.rows[r.cursor].RunID
	}
	return ""
}

func (m Model) pageSize() int { return max(1, m.bodyHeight()-3) }

// reloadRuns asks for the page at the current offset.
func (m *Model) reloadRuns() tea.Cmd {
	return m.fetchRuns(m.runs.offset)
}

func (m *Model) fetchRuns(offset int) tea.Cmd {
	m.runs.seq++
	return m.startLoad(runsCmd(m.ctx, m.be, m.runs.seq, m.runs.filter, m.runs.sort, max(0, offset), m.pageSize()))
}

func (m Model) runsKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k, r := m.keys, &m.runs
	ps := m.pageSize()
	switch {
	case key.Matches(msg, k.Filter):
		return m, r.input.focus()
	case key.Matches(msg, k.Back):
		if r.filter != (metrics.RunFilter{}) {
			r.filter, r.offset, r.cursor = metrics.RunFilter{}, 0, 0
			r.input.in.SetValue("")
			return m, m.reloadRuns()
		}
		return m.switchTo(m.prevTab)
	case key.Matches(msg, k.Down):
		if r.cursor < len(r.rows)-1 {
			r.cursor++
		} else if int64(r.offset+ps) < r.total {
			r.cursor = 0
			return m, m.fetchRuns(r.offset + ps)
		}
	case key.Matches(msg, k.Up):
		if r.cursor > 0 {
			r.cursor--
		} else if r.offset > 0 {
			r.cursor = ps - 1
			return m, m.fetchRuns(r.offset - ps)
		}
	case key.Matches(msg, k.PageDown):
		if int64(r.offset+ps) < r.total {
			return m, m.fetchRuns(r.offset + ps)
		}
	case key.Matches(msg, k.PageUp):
		return m, m.fetchRuns(r.offset - ps)
	case key.Matches(msg, k.Sort):
		i := 0
		for j, c := range sortOrder {
			if c == r.sort.Column {
				i = j
			}
		}
		r.sort.Column = sortOrder[(i+1)%len(sortOrder)]
		r.offset, r.cursor = 0, 0
		return m, m.reloadRuns()
	case key.Matches(msg, k.SortDir):
		r.sort.Desc = !r.sort.Desc
		r.offset, r.cursor = 0, 0
		return m, m.reloadRuns()
	case key.Matches(msg, k.Quick, k.Scenario, k.ErrorClass, k.GateFalse):
		switch {
		case key.Matches(msg, k.Quick):
			r.filter.Quick = next(r.filter.Quick, metrics.QuickFilters)
		case key.Matches(msg, k.Scenario):
			r.filter.Scenario = next(r.filter.Scenario, m.filterValues().Scenarios)
		case key.Matches(msg, k.ErrorClass):
			r.filter.ErrorClass = next(r.filter.ErrorClass, m.filterValues().ErrorClasses)
		default:
			r.filter.GateFalse = next(r.filter.GateFalse, metrics.GateFilters)
		}
		r.offset, r.cursor = 0, 0
		return m, m.reloadRuns()
	case key.Matches(msg, k.Enter):
		if id := r.selectedID(); id != "" {
			return m.openRun(id)
		}
	case key.Matches(msg, k.Pair):
		if id := r.selectedID(); id != "" {
			c := m.pairRun(id)
			return m, c
		}
	}
	return m, nil
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

// filterValues are the scenarios and error classes fetched with the report.
func (m Model) filterValues() metrics.FilterValues {
	if m.ov == nil {
		return metrics.FilterValues{}
	}
	return m.ov.filters
}

func orAll(s string) string {
	if s == "" {
		return "all"
	}
	return safe(s)
}

func (m Model) runsBody() string {
	r := m.runs
	st := m.styles
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
	b.WriteString(st.Header.Render(fmt.Sprintf("  %-18s %-9s %-12s %-10s %-10s %-7s %-6s %5s %4s %8s",
		"run", "suite", "scenario", "agent", "claimed", "verdict", "masked", "calls", "re", "e2e")) + "\n")
	for i, x := range r.rows {
		masked := ""
		if x.Masked {
			masked = "MASKED"
		}
		mark := "  "
		if i == r.cursor {
			mark = "> "
		}
		line := fmt.Sprintf("%s%-18s %-9s %-12s %-10s %-10s %-7s %-6s %5d %4d %8s", mark,
			pad(safe(x.RunID), 18), pad(safe(x.Suite), 9), pad(safe(x.Scenario), 12), pad(safe(x.Agent), 10),
			pad(safe(x.Claimed), 10), x.Verdict, masked, x.Calls, x.Resends, ms(x.EndToEndMs))
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
