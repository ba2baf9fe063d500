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

// viewKeyMap is the key map of the current view: each view owns its keys
// (the compare and breaker views their own types), and a focused input owns
// them all.
func (m Model) viewKeyMap() help.KeyMap {
	k := m.keys
	if m.focusedField() != nil {
		return keyGroup{short: fieldHelp, full: [][]key.Binding{fieldHelp}}
	}
	scroll := []key.Binding{k.Down, k.Up, k.PageDown, k.PageUp}
	switch m.tab {
	case viewRuns:
		return keyGroup{
			short: []key.Binding{k.Enter, k.Pair, k.Filter, k.Sort, k.Quick},
			full: [][]key.Binding{{k.Down, k.Up, k.PageDown, k.PageUp, k.Enter, k.Pair, k.Back},
				{k.Filter, k.Sort, k.SortDir, k.Quick, k.Scenario, k.ErrorClass, k.GateFalse}},
		}
	case viewDetail:
		return keyGroup{short: []key.Binding{k.Back, k.Pair}, full: [][]key.Binding{append(scroll, k.Back, k.Pair)}}
	case viewCompare:
		return m.cmpKeys
	case viewBreakers:
		return m.brKeys
	case viewSQL:
		edit := key.NewBinding(key.WithKeys("enter", "/"), key.WithHelp("enter", "type a query"))
		return keyGroup{short: []key.Binding{edit}, full: [][]key.Binding{{edit, k.Down, k.Up}}}
	}
	return keyGroup{short: []key.Binding{k.Down}, full: [][]key.Binding{append(scroll, k.Back)}}
}

// globalKeys are the keys every view shares that the status line names
// (none while an input has focus: then the keys are text).
func (m Model) globalKeys() []key.Binding {
	if m.focusedField() != nil {
		return nil
	}
	k := m.keys
	return []key.Binding{k.Help, k.Quit, k.Export}
}

// shortHelp is the status line's bindings: the view's, then the global ones.
func (m Model) shortHelp() []key.Binding {
	return append(append([]key.Binding{}, m.viewKeyMap().ShortHelp()...), m.globalKeys()...)
}

// helpView is a bubbles help in the dashboard's styles.
func (m Model) helpView() help.Model {
	h := help.New()
	plain := lipgloss.NewStyle()
	h.Styles = help.Styles{
		Ellipsis: m.styles.Faint, ShortKey: m.styles.Title, ShortDesc: plain, ShortSeparator: m.styles.Faint,
		FullKey: m.styles.Title, FullDesc: plain, FullSeparator: m.styles.Faint,
	}
	h.ShortSeparator = "  "
	h.SetWidth(m.width)
	return h
}

// helpBody is the help overlay: the current view's keys, then the keys of
// every view.
func (m Model) helpBody() string {
	k := m.keys
	views := key.NewBinding(key.WithKeys("1"), key.WithHelp("1-9", "views"))
	global := []key.Binding{views, k.NextTab, k.PrevTab, k.Export, k.Help, k.Quit}
	var b strings.Builder
	b.WriteString(m.styles.Title.Render("Keys of "+viewNames[m.tab]) + "\n")
	b.WriteString(m.helpView().FullHelpView(m.viewKeyMap().FullHelp()) + "\n\n")
	b.WriteString(m.styles.Title.Render("Every view") + "\n")
	b.WriteString(m.helpView().FullHelpView([][]key.Binding{global}) + "\n\n")
	b.WriteString("While an input has focus every key is text: esc leaves it, ctrl+c quits.\nesc or ? closes this help.")
	return b.String()
}
