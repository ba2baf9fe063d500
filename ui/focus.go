package ui

import (
	tea "charm.land/bubbletea/v2"
)

// focusedField is the input of the current view that has focus, or nil.
func (m *Model) focusedField() *field {
	switch {
	case m.tab == viewSQL && m.sql.input.focused():
		return &m.sql.input
	case m.tab == viewRuns && m.runs.input.focused():
		return &m.runs.input
	}
	return nil
}

// fieldKey hands a key to the focused input. In the console enter runs the
// statement and keeps the focus, so the next query can be typed at once;
// in the runs view every edit refilters and enter or esc returns the keys
// to the table.
func (m Model) fieldKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if m.tab == viewSQL {
		ev, c := m.sql.input.update(msg)
		switch ev {
		case fieldSubmit:
			q := m.sql.input.value()
			if q == "" {
				return m, c
			}
			m.sql.input.remember(q)
			m.sql.seq++
			return m, tea.Batch(c, m.startLoad(sqlCmd(m.ctx, m.be, m.sql.seq, q)))
		}
		return m, c
	}
	ev, c := m.runs.input.update(msg)
	switch ev {
	case fieldSubmit:
		m.runs.input.remember(m.runs.input.value())
		m.runs.input.blur()
	case fieldEdited:
		m.runs.filter.Text = m.runs.input.value()
		m.runs.offset, m.runs.cursor = 0, 0
		return m, tea.Batch(c, m.reloadRuns())
	}
	return m, c
}
