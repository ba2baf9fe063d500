package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/faultlens/faultlens/metrics"
)

// errRow is a row of the errors body whose cells count runs: a recovery
// chain class of the matrix, or a violation counter with its runs filter.
type errRow struct {
	line  int    // the body line it is drawn on
	class string // the matrix row's error class; "" for a counter
	quick string // the counter's runs filter
}

// cellCols are the columns the cursor visits, the baseline's then the
// candidate's: all chains, then one per recovery outcome. On a counter
// row either half picks that suite's cell.
var cellCols = append(append([]string{""}, outcomes...), append([]string{""}, outcomes...)...)

// errorsKeys are the errors view's keys: the moving keys move the cursor's
// row (the body scrolls with it), left and right its column, enter lists
// the runs behind the cell.
type errorsKeys struct {
	scrollKeys
	Left, Right, Drill key.Binding
}

func newErrorsKeys() errorsKeys {
	return errorsKeys{
		scrollKeys: newScrollKeys(),
		Left:       key.NewBinding(key.WithKeys("h", "left"), key.WithHelp("h/←", "cell left")),
		Right:      key.NewBinding(key.WithKeys("l", "right"), key.WithHelp("l/→", "cell right")),
		Drill:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "cell's runs")),
	}
}

// ShortHelp is the status line's share.
func (k errorsKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Drill, k.Search}
}

// FullHelp is every key of the view.
func (k errorsKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.moveKeys.list(), append([]key.Binding{k.Left, k.Right, k.Drill}, k.rest()...)}
}

// Update moves the cursor and drills; the search, esc and the wheel scroll
// the body as in every scrolled view.
func (v errorsView) Update(msg tea.Msg) (errorsView, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if !v.find.focused() {
			if nv, ok := v.key(msg); ok {
				return nv, nil
			}
		}
	case clickMsg:
		_, rows := v.layout()
		for i, r := range rows {
			if r.line == v.y+msg.y {
				if i == v.row {
					nv, _ := v.key(tea.KeyPressMsg{Code: tea.KeyEnter})
					return nv, nil
				}
				v.row = i
			}
		}
		return v, nil
	}
	c, _ := v.update(v.sh, v.keys.scrollKeys, msg, v.View)
	return v, c
}

// key moves the cursor or drills; ok is false for any other key.
func (v errorsView) key(msg tea.KeyPressMsg) (errorsView, bool) {
	body, rows := v.layout()
	k := v.keys
	h := v.sh.bodyHeight()
	if to, ok := k.move(msg, v.row, len(rows), h); ok {
		v.row = to
		if to < len(rows) {
			// Keep the cursor's line on screen; the top shows the cell line.
			line := rows[to].line
			switch {
			case to == 0:
				v.y = 0
			case to == len(rows)-1:
				// The last row: the body below it (the evidence grades)
				// has no cell, so show it down to the end.
				v.y = v.sh.clampY(body, len(rows[to:])+line)
			case line < v.y:
				v.y = line
			case line >= v.y+h:
				v.y = line - h + 1
			}
		}
		return v, true
	}
	switch {
	case key.Matches(msg, k.Left):
		v.col = clamp(v.col-1, 0, len(cellCols)-1)
	case key.Matches(msg, k.Right):
		v.col = clamp(v.col+1, 0, len(cellCols)-1)
	case key.Matches(msg, k.Drill):
		if f, ok := v.drill(rows); ok {
			v.sh.goTo(navigation{to: viewRuns, filter: f})
		}
	default:
		return v, false
	}
	return v, true
}

// cell is the cursor's row (ok false without one) and the suite of its
// column.
func (v errorsView) cell(rows []errRow) (errRow, string, bool) {
	if v.row >= len(rows) {
		return errRow{}, "", false
	}
	b, c := v.sh.pair()
	s := b
	if v.col >= len(cellCols)/2 {
		s = c
	}
	if s == nil {
		return errRow{}, "", false
	}
	return rows[v.row], s.Suite, true
}

// drill is the runs filter of the cursor's cell: the runs of its suite
// with a chain of that class (and outcome), or those the counter counts.
func (v errorsView) drill(rows []errRow) (metrics.RunFilter, bool) {
	r, suite, ok := v.cell(rows)
	if !ok {
		return metrics.RunFilter{}, false
	}
	if r.class == "" {
		return metrics.RunFilter{Suite: suite, Quick: r.quick}, true
	}
	return metrics.RunFilter{Suite: suite, ErrorClass: r.class, ErrorOutcome: cellCols[v.col]}, true
}

// cellLine names the cursor's cell and what enter lists.
func (v errorsView) cellLine() string {
	// The rows are those layout draws; cellLine runs inside it, so it
	// derives the row from the same data without recursing.
	b, c := v.sh.pair()
	bc, _ := matrixOf(v.sh.ov.matrix, suiteName(b))
	cc, _ := matrixOf(v.sh.ov.matrix, suiteName(c))
	cats := union(bc, cc)
	var rows []errRow
	for _, cat := range cats {
		rows = append(rows, errRow{class: cat})
	}
	for _, r := range violationRows(b, c) {
		if r.quick != "" {
			rows = append(rows, errRow{quick: r.quick})
		}
	}
	f, ok := v.drill(rows)
	if !ok {
		return v.sh.styles.Faint.Render("no cell")
	}
	what := "runs with a " + orAll(f.ErrorClass) + " chain"
	if f.ErrorOutcome != "" {
		what += " " + safe(f.ErrorOutcome)
	}
	if f.Quick != "" {
		what = "runs counted by " + safe(f.Quick)
	}
	return v.sh.styles.Faint.Render(fmt.Sprintf("cell: %s, %s (enter lists them, h/l j/k move)", safe(f.Suite), what))
}
