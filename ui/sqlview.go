package ui

import (
	"fmt"
	"strings"
)

// sqlView is the read-only query console.
type sqlView struct {
	input   lineInput
	editing bool
	res     *sqlResult
	err     error
	scroll  int
}

func newSQLView() sqlView {
	return sqlView{input: lineInput{value: "SELECT type, count(*) AS n FROM events GROUP BY type ORDER BY n DESC"}}
}

func (v *sqlView) apply(msg sqlMsg) { v.res, v.err = msg.res, msg.err }

func (m Model) sqlBody() string {
	v, st := m.sql, m.styles
	var b strings.Builder
	b.WriteString("read-only console  (/ or enter to edit, enter runs, esc stops editing)\n")
	b.WriteString(m.schemaList())
	cur := ""
	if v.editing {
		cur = "▏"
	}
	b.WriteString(st.Title.Render("sql> ") + safe(v.input.value) + cur + "\n")
	switch {
	case v.err != nil:
		b.WriteString(st.Error.Render("error: "+safe(v.err.Error())) + "\n")
	case v.res != nil:
		b.WriteString(m.sqlTable())
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
	fmt.Fprintf(&b, "rows %d–%d of %d%s  j/k scroll\n", min(start+1, len(r.rows)), end, len(r.rows), more)
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
