package ui

import (
	"charm.land/lipgloss/v2"
)

// Styles are every style the dashboard draws with, in one place. Colours are
// the 16 ANSI ones so that the terminal's theme keeps them readable on light
// and dark backgrounds; without colour every style degrades to plain text
// plus the textual markers the views always draw (◀, >, !).
type Styles struct {
	Title, TabActive, Tab, Header, Selected, Faint lipgloss.Style
	Bad, Good, Warn, Queue, Exec, Status, Error    lipgloss.Style
}

// DefaultStyles returns the dashboard's styles; noColor drops the colours.
func DefaultStyles(noColor bool) Styles {
	c := func(s lipgloss.Style, ansi string) lipgloss.Style {
		if noColor {
			return s
		}
		return s.Foreground(lipgloss.Color(ansi))
	}
	base := lipgloss.NewStyle()
	return Styles{
		Title:     base.Bold(true),
		TabActive: base.Bold(true).Reverse(true).Padding(0, 1),
		Tab:       base.Padding(0, 1),
		Header:    base.Bold(true).Underline(true),
		Selected:  base.Reverse(true),
		Faint:     base.Faint(true),
		Bad:       c(base.Bold(true), "1"),
		Good:      c(base, "2"),
		Warn:      c(base, "3"),
		Queue:     c(base, "3"),
		Exec:      c(base, "4"),
		Status:    base.Faint(true),
		Error:     c(base.Bold(true), "1"),
	}
}
