package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
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

// shortNames are the tab labels below 120 columns, where the full names
// do not fit on one line.
var shortNames = [nViews]string{"Overview", "Latency", "Errors", "Runs", "Run", "Compare", "SQL", "Breakers", "Pair"}

func (m Model) tabBar() string {
	var parts []string
	narrow := m.width < 120
	for i, n := range viewNames {
		label := fmt.Sprintf("%d %s", i+1, n)
		if narrow {
			label = fmt.Sprintf("%d %s", i+1, shortNames[i])
		}
		switch {
		case view(i) == m.tab:
			parts = append(parts, m.styles.TabActive.Render("["+label+"]"))
		case narrow:
			parts = append(parts, label)
		default:
			parts = append(parts, m.styles.Tab.Render(label))
		}
	}
	sep := ""
	if narrow {
		sep = " "
	}
	return ansi.Truncate(strings.Join(parts, sep), m.width, "…")
}

func (m Model) statusLine() string {
	s := m.helpView().ShortHelpView(m.shortHelp())
	if p := position(m.viewport(m.currentBody())); p != "" && !m.selfScrolling() {
		s = p + "  " + s
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
	case viewBreakers:
		return m.breakerBody()
	case viewPair:
		return m.pairBody()
	}
	return ""
}
