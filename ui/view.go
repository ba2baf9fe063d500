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
	if y, ok := m.scrollOffset(); ok {
		b.WriteString(m.sh.viewport(m.currentBody(), y).View())
	} else {
		b.WriteString(fit(m.currentBody(), m.sh.width, m.sh.bodyHeight()))
	}
	b.WriteString("\n")
	b.WriteString(m.statusLine())
	v := tea.NewView(b.String())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion // wheel events; shift+drag still selects text
	return v
}

// scrollOffset is where the viewport of the body on screen starts; ok is
// false when the view fits its own rows to the screen.
func (m Model) scrollOffset() (int, bool) {
	if m.help {
		return 0, true
	}
	if p, ok := m.page(m.tab).(scrolledPage); ok {
		return p.offset(), true
	}
	return 0, false
}

// shortNames are the tab labels below 120 columns, where the full names
// do not fit on one line.
var shortNames = [nViews]string{"Overview", "Latency", "Errors", "Runs", "Run", "Compare", "SQL", "Breakers", "Pair", "Suites"}

// tabLabels are the tab bar's labels as drawn and the separator between
// them.
func (m Model) tabLabels() ([]string, string) {
	var parts []string
	st := m.sh.styles
	narrow := m.sh.width < 120
	for i, n := range viewNames {
		if view(i) == viewSuites && narrow && m.tab != viewSuites {
			break // no room below 120 columns: 0 opens it, the overview says so
		}
		label := fmt.Sprintf("%d %s", (i+1)%10, n)
		if narrow {
			label = fmt.Sprintf("%d %s", (i+1)%10, shortNames[i])
		}
		switch {
		case view(i) == m.tab:
			parts = append(parts, st.TabActive.Render("["+label+"]"))
		case narrow:
			parts = append(parts, label)
		default:
			parts = append(parts, st.Tab.Render(label))
		}
	}
	sep := ""
	if narrow {
		sep = " "
	}
	return parts, sep
}

func (m Model) tabBar() string {
	parts, sep := m.tabLabels()
	return ansi.Truncate(strings.Join(parts, sep), m.sh.width, "…")
}

// tabAt is the tab drawn at column x of the tab bar.
func (m Model) tabAt(x int) (view, bool) {
	parts, sep := m.tabLabels()
	at := 0
	for i, p := range parts {
		w := ansi.StringWidth(p)
		if x >= at && x < at+w {
			return view(i), true
		}
		at += w + ansi.StringWidth(sep)
	}
	return 0, false
}

func (m Model) statusLine() string {
	if m.exp.open {
		return m.sh.styles.Status.Render(ansi.Truncate(m.exp.promptLine(), m.sh.width, "…"))
	}
	s := m.helpView().ShortHelpView(m.shortHelp())
	if y, ok := m.scrollOffset(); ok {
		if p := position(m.sh.viewport(m.currentBody(), y)); p != "" {
			s = p + "  " + s
		}
	}
	if p, ok := m.page(m.tab).(interface{ searchLine() string }); ok && !m.help {
		if l := p.searchLine(); l != "" {
			s = l + "  " + s
		}
	}
	if m.sh.loading > 0 {
		s = m.sh.spin.View() + " loading…  " + s
	}
	if m.sh.status != "" {
		s = m.sh.status + "  " + s
	}
	return m.sh.styles.Status.Render(ansi.Truncate(s, m.sh.width, "…"))
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
	if m.err != nil && m.tab != viewSuites {
		return m.sh.styles.Error.Render("error: "+safe(m.err.Error())) + "\n0 opens the suite picker"
	}
	if m.tab == viewSuites {
		return m.picker.View() // the picker needs no loaded suites
	}
	if m.sh.ov == nil {
		return m.sh.spin.View() + " building facts and the report…"
	}
	return m.page(m.tab).View()
}
