package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// sqlView is the read-only query console. Its input takes focus when the
// view is entered, so what a person types first is the query.
type sqlView struct {
	sh     *shared
	keys   sqlKeys
	input  field
	seq    int    // the request whose answer is awaited; older answers are dropped
	ran    string // the statement res or err answers
	res    *sqlResult
	err    error
	scroll int
	// stale is set when the suites were read again (ui --follow) after the
	// statement ran: its result is the older snapshot's. The console does
	// not run the user's statement again by itself; enter does.
	stale bool
	// cancel interrupts the statement running (nil when none is): esc or
	// ctrl+c while it runs.
	cancel context.CancelFunc
}

// sqlKeys are the console's keys while its input does not have focus.
type sqlKeys struct{ Edit, Down, Up, Cancel key.Binding }

// ShortHelp is how to type a query.
func (k sqlKeys) ShortHelp() []key.Binding { return []key.Binding{k.Edit, k.Cancel} }

// FullHelp is every key of the console.
func (k sqlKeys) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Edit, k.Down, k.Up, k.Cancel}} }

func newSQLView(sh *shared) sqlView {
	return sqlView{sh: sh, input: newField("sql> ", "SELECT type, count(*) FROM events GROUP BY ALL"),
		keys: sqlKeys{
			Edit: key.NewBinding(key.WithKeys("enter", "/"), key.WithHelp("enter", "type a query")),
			Down: downKey(), Up: upKey(),
			Cancel: key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc/ctrl+c", "cancel the running query")),
		}}
}

// Keys are the input's while it has focus, else the console's.
func (v sqlView) Keys() help.KeyMap {
	if v.input.focused() {
		return fieldKeyMap
	}
	return v.keys
}

func (v sqlView) focused() bool { return v.input.focused() }

// Update runs statements and keeps the answer to the latest one only.
func (v sqlView) Update(msg tea.Msg) (sqlView, tea.Cmd) {
	switch msg := msg.(type) {
	case sqlMsg:
		if msg.seq == v.seq {
			v.res, v.err, v.ran, v.scroll, v.stale = msg.res, msg.err, msg.query, 0, false
			if v.cancel != nil {
				v.cancel()
				v.cancel = nil
			}
		}
	case factsMsg:
		v.stale = v.res != nil || v.err != nil
	case shownMsg:
		return v, v.input.focus() // what a person types first is the query
	case tea.WindowSizeMsg:
		v.input.setWidth(msg.Width)
	case tea.KeyPressMsg:
		if v.running() && key.Matches(msg, v.keys.Cancel) {
			v.cancel()
			v.cancel = nil
			v.sh.status = "query cancelled"
			return v, nil
		}
		if v.input.focused() {
			return v.fieldKey(msg)
		}
		return v.key(msg)
	case tea.MouseWheelMsg:
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			v.scroll = max(0, v.scroll-wheelStep)
		case tea.MouseWheelDown:
			if v.res != nil {
				v.scroll = min(v.scroll+wheelStep, max(0, len(v.res.rows)-1))
			}
		}
	}
	return v, nil
}

// fieldKey hands a key to the focused input: enter runs the statement and
// keeps the focus, so the next query can be typed at once.
func (v sqlView) fieldKey(msg tea.KeyPressMsg) (sqlView, tea.Cmd) {
	ev, c := v.input.update(msg)
	if ev != fieldSubmit {
		return v, c
	}
	q := v.input.value()
	if q == "" {
		return v, c
	}
	v.input.remember(q)
	v.seq++
	if v.cancel != nil {
		v.cancel() // the statement before, whose answer would be dropped
	}
	ctx, cancel := context.WithCancel(v.sh.ctx)
	v.cancel = cancel
	return v, tea.Batch(c, v.sh.startLoad(sqlCmd(ctx, v.sh.be, v.seq, q)))
}

// running reports whether a statement is running.
func (v sqlView) running() bool { return v.cancel != nil }

// key is the console's keys while its input does not have focus: enter
// or / focuses it, j/k scroll the result.
func (v sqlView) key(msg tea.KeyPressMsg) (sqlView, tea.Cmd) {
	k := v.keys
	switch {
	case key.Matches(msg, k.Edit):
		return v, v.input.focus()
	case key.Matches(msg, k.Down):
		v.scroll++
	case key.Matches(msg, k.Up) && v.scroll > 0:
		v.scroll--
	}
	return v, nil
}

// View is the schema, the input and the result of the last statement.
func (v sqlView) View() string {
	st := v.sh.styles
	var b strings.Builder
	b.WriteString("read-only console: type a query, enter runs it, ↑↓ history, esc leaves the input\n")
	b.WriteString(v.schemaList())
	b.WriteString(v.input.view() + "\n")
	switch {
	case v.running():
		b.WriteString(v.sh.spin.View() + " running… esc or ctrl+c cancels\n")
	case errors.Is(v.err, context.Canceled):
		b.WriteString(st.Warn.Render("cancelled: "+safe(v.ran)) + "\n")
	case v.err != nil:
		// Wrapped, not cut: DuckDB's message says where the statement
		// went wrong at its end.
		b.WriteString(st.Error.Render(ansi.Wrap("error: "+safe(v.err.Error()), v.sh.width, " ")) + "\n")
	case v.res != nil:
		b.WriteString(v.table())
		if v.stale {
			b.WriteString(st.Warn.Render("read before the database grew: enter on the statement runs it again") + "\n")
		}
	default:
		b.WriteString(st.Faint.Render("no query run yet") + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func (v sqlView) table() string {
	r := v.res
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
	b.WriteString(v.sh.styles.Header.Render(line(r.cols)) + "\n")
	chrome := 5 + len(v.sh.ov.schema) // the lines around the rows
	if v.stale {
		chrome++
	}
	h := max(1, v.sh.bodyHeight()-chrome)
	start := min(v.scroll, max(0, len(r.rows)-h))
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
func (v sqlView) schemaList() string {
	st := v.sh.styles
	var b strings.Builder
	for _, t := range v.sh.ov.schema {
		cols := make([]string, len(t.Columns))
		for i, c := range t.Columns {
			cols[i] = safe(c.Name)
		}
		b.WriteString(st.Title.Render(safe(t.Table)) + " " + st.Faint.Render(strings.Join(cols, " ")) + "\n")
	}
	return b.String()
}
