package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// View draws the tab bar, the current view and the status line.
func (m Model) View() tea.View {
	var b strings.Builder
	b.WriteString(m.tabBar())
	b.WriteString("\n")
	body := m.body()
	if m.help {
		body = m.helpBody()
	}
	if m.selfScrolling() {
		b.WriteString(fit(body, m.width, m.bodyHeight()))
	} else {
		vp := m.viewport(body)
		b.WriteString(vp.View())
	}
	b.WriteString("\n")
	b.WriteString(m.statusLine())
	v := tea.NewView(b.String())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion // wheel events; shift+drag still selects text
	return v
}

func (m Model) tabBar() string {
	var parts []string
	for i, n := range viewNames {
		label := fmt.Sprintf("%d %s", i+1, n)
		if m.width < 100 {
			label = fmt.Sprintf("%d %s", i+1, strings.Fields(n)[0])
		}
		if view(i) == m.tab {
			parts = append(parts, m.styles.TabActive.Render("["+label+"]"))
		} else {
			parts = append(parts, m.styles.Tab.Render(label))
		}
	}
	return ansi.Truncate(lipgloss.JoinHorizontal(lipgloss.Top, parts...), m.width, "…")
}

func (m Model) statusLine() string {
	s := "? help  q quit  e export"
	if p := position(m.viewport(m.currentBody())); p != "" && !m.selfScrolling() {
		s += "  " + p
	}
	if m.loading > 0 {
		s = m.spin.View() + " loading…  " + s
	}
	if m.status != "" {
		s = m.status + "  " + s
	}
	return m.styles.Status.Render(ansi.Truncate(s, m.width, "…"))
}

// currentBody is the body or, while it is open, the help.
func (m Model) currentBody() string {
	if m.help {
		return m.helpBody()
	}
	return m.body()
}

// body renders the current view without the chrome.
func (m Model) body() string {
	if m.err != nil {
		return m.styles.Error.Render("error: " + m.err.Error())
	}
	if m.ov == nil {
		return m.spin.View() + " building facts and the report…"
	}
	switch m.tab {
	case viewOverview:
		return m.overviewBody()
	case viewLatency:
		return m.latencyBody()
	case viewErrors:
		return m.errorsBody()
	case viewRuns:
		return m.runsBody()
	case viewDetail:
		return m.detailBody()
	case viewCompare:
		return m.compareBody()
	case viewSQL:
		return m.sqlBody()
	}
	return ""
}

func (m Model) helpBody() string {
	var b strings.Builder
	b.WriteString(m.styles.Title.Render("Keys") + "\n")
	for _, l := range m.keys.helpLines() {
		fmt.Fprintf(&b, "  %-12s %s\n", l[0], l[1])
	}
	b.WriteString("\nesc or ? closes this help.")
	return b.String()
}
