package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// sqlView is the read-only query console. Its input takes focus when the
// view is entered, so what a person types first is the query.
type sqlView struct {
	input  field
	seq    int    // the request whose answer is awaited; older answers are dropped
	ran    string // the statement res or err answers
	res    *sqlResult
	err    error
	scroll int
}

func newSQLView() sqlView {
	return sqlView{input: newField("sql> ", "SELECT type, count(*) FROM events GROUP BY ALL")}
}

// apply keeps the answer to the latest statement only.
func (v *sqlView) apply(msg sqlMsg) {
	if msg.seq != v.seq {
		return
	}
	v.res, v.err, v.ran, v.scroll = msg.res, msg.err, msg.query, 0
}

// sqlKey is the console's keys while its input does not have focus: enter
// or / focuses it, j/k scroll the result.
func (m Model) sqlKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Enter, k.Filter):
		return m, m.sql.input.focus()
	case key.Matches(msg, k.Down):
		m.sql.scroll++
	case key.Matches(msg, k.Up) && m.sql.scroll > 0:
		m.sql.scroll--
	}
	return m, nil
}

func (m Model) sqlBody() string {
	v, st := m.sql, m.styles
	var b strings.Builder
	b.WriteString("read-only console: type a query, enter runs it, ↑↓ history, esc leaves the input\n")
	b.WriteString(m.schemaList())
	b.WriteString(v.input.view() + "\n")
	switch {
	case v.err != nil:
		b.WriteString(st.Error.Render("error: "+safe(v.err.Error())) + "\n")
	case v.res != nil:
		b.WriteString(m.sqlTable())
	case v.seq > 0:
		b.WriteString(m.spin.View() + " running…\n")
	default:
		b.WriteString(st.Faint.Render("no query run yet") + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func (m Model) sqlTable() string {
	r := m.sql.res
	widths := make([]int, len(r.cols))
	for i, c := range r.cols {
		widths[i] = min(30, len([]rune(c)))
	}
	for _, row := range r.rows {
		for i, c := range row {
			widths[i] = min(30, max(widths[i], len([]rune(c))))
		}
	}
	line := func(cells []string) string {
		parts := make([]string, len(cells))
		for i, c := range cells {
			parts[i] = pad(c, widths[i])
		}
		return strings.Join(parts, " │ ")
	}
	var b strings.Builder
	b.WriteString(m.styles.Header.Render(line(r.cols)) + "\n")
	h := max(1, m.bodyHeight()-5-len(m.ov.schema))
	start := min(m.sql.scroll, max(0, len(r.rows)-h))
	end := min(len(r.rows), start+h)
	for _, row := range r.rows[start:end] {
		b.WriteString(line(row) + "\n")
	}
	more := ""
	if r.truncated {
		more = fmt.Sprintf(" (first %d only)", maxSQLRows)
	}
	fmt.Fprintf(&b, "rows %d–%d of %d%s  pgup/pgdn scroll\n", min(start+1, len(r.rows)), end, len(r.rows), more)
	return b.String()
}

// schemaList is one line per table: its name and its columns in order (the
// line is cut at the screen's edge).
func (m Model) schemaList() string {
	var b strings.Builder
	for _, t := range m.ov.schema {
		cols := make([]string, len(t.Columns))
		for i, c := range t.Columns {
			cols[i] = safe(c.Name)
		}
		b.WriteString(m.styles.Title.Render(safe(t.Table)) + " " + m.styles.Faint.Render(strings.Join(cols, " ")) + "\n")
	}
	return b.String()
}
