package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/viewport"
	"github.com/charmbracelet/x/ansi"
)

// selfScrolling reports whether the current view pages its own rows (the
// runs table pages from DuckDB, the console scrolls its result) instead of
// scrolling a rendered body in a viewport.
func (m Model) selfScrolling() bool {
	return !m.help && (m.tab == viewRuns || m.tab == viewSQL || m.tab == viewCompare || m.tab == viewBreakers)
}

// viewport is the body in a bubbles viewport at the view's scroll offset
// (clamped by the viewport, so scrolling stops at the last line). Lines are
// cut with an ellipsis first so a cut is visible.
func (m Model) viewport(body string) viewport.Model {
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, m.width, "…")
	}
	vp := viewport.New(viewport.WithWidth(m.width), viewport.WithHeight(m.bodyHeight()))
	vp.SetContentLines(lines)
	if !m.help {
		vp.SetYOffset(m.scroll[m.tab])
	}
	return vp
}

// scrollBy moves the current view's viewport by n lines (negative is up).
func (m *Model) scrollBy(n int) {
	vp := m.viewport(m.currentBody())
	if n > 0 {
		vp.ScrollDown(n)
	} else {
		vp.ScrollUp(-n)
	}
	m.scroll[m.tab] = vp.YOffset()
}

// position is the viewport's place in its body: the lines shown, how many
// there are and how far down, or "" when everything fits.
func position(vp viewport.Model) string {
	n := vp.TotalLineCount()
	if n <= vp.Height() {
		return ""
	}
	top := vp.YOffset() + 1
	return fmt.Sprintf("lines %d–%d of %d (%d%%)", top, min(n, top+vp.Height()-1), n, int(vp.ScrollPercent()*100))
}

// fit cuts body to h lines of width w, padding with empty lines.
func fit(body string, w, h int) string {
	lines := strings.Split(body, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return strings.Join(lines, "\n")
}
