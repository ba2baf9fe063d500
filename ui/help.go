package ui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
)

// keyGroup is a help.KeyMap over fixed bindings: short is the status line's
// share, full the columns of the help overlay.
type keyGroup struct {
	short []key.Binding
	full  [][]key.Binding
}

func (g keyGroup) ShortHelp() []key.Binding  { return g.short }
func (g keyGroup) FullHelp() [][]key.Binding { return g.full }

// globalKeys are the keys every view shares that the status line names
// (none while an input has focus: then the keys are text).
func (m Model) globalKeys() []key.Binding {
	if m.focused() {
		return nil
	}
	k := m.keys
	return []key.Binding{k.Help, k.Quit, k.Export}
}

// shortHelp is the status line's bindings: the view's own, then the global
// ones.
func (m Model) shortHelp() []key.Binding {
	return append(append([]key.Binding{}, m.page(m.tab).Keys().ShortHelp()...), m.globalKeys()...)
}

// helpView is a bubbles help in the dashboard's styles.
func (m Model) helpView() help.Model {
	st := m.sh.styles
	h := help.New()
	plain := lipgloss.NewStyle()
	h.Styles = help.Styles{
		Ellipsis: st.Faint, ShortKey: st.Title, ShortDesc: plain, ShortSeparator: st.Faint,
		FullKey: st.Title, FullDesc: plain, FullSeparator: st.Faint,
	}
	h.ShortSeparator = "  "
	h.SetWidth(m.sh.width)
	return h
}

// helpBody is the help overlay: the current view's keys, then the keys of
// every view.
func (m Model) helpBody() string {
	k, st := m.keys, m.sh.styles
	views := key.NewBinding(key.WithKeys("1"), key.WithHelp("1-9 0", "views (0 suites)"))
	global := []key.Binding{views, k.NextTab, k.PrevTab, k.Export, k.Help, k.Quit}
	var b strings.Builder
	b.WriteString(st.Title.Render("Keys of "+viewNames[m.tab]) + "\n")
	b.WriteString(m.helpColumns(m.page(m.tab).Keys().FullHelp()) + "\n\n")
	b.WriteString(st.Title.Render("Every view") + "\n")
	b.WriteString(m.helpColumns([][]key.Binding{global}) + "\n\n")
	b.WriteString("While an input has focus every key is text: esc leaves it, ctrl+c quits.\nesc or ? closes this help.")
	return b.String()
}

// helpColumns draws the columns of a full help side by side while they fit
// the screen and below one another when they do not: the help is never
// cut, so every key of the view is in it.
func (m Model) helpColumns(groups [][]key.Binding) string {
	h := m.helpView()
	h.SetWidth(0)
	var rows, row []string
	w := 0
	for _, g := range groups {
		col := h.FullHelpView([][]key.Binding{g})
		cw := lipgloss.Width(col)
		if len(row) > 0 && w+3+cw > m.sh.width {
			rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
			row, w = nil, 0
		}
		if len(row) > 0 {
			row = append(row, "   ")
			w += 3
		}
		row = append(row, col)
		w += cw
	}
	if len(row) > 0 {
		rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
	}
	return strings.Join(rows, "\n\n")
}
