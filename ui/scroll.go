package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// wheelStep is how many lines one notch of the mouse wheel scrolls a view.
const wheelStep = 3

// scrollKeys are the keys of a view that is one body in a viewport
// (overview, latency, errors, and the detail and pair views' bodies).
type scrollKeys struct{ Down, Up, PageDown, PageUp, Back key.Binding }

func newScrollKeys() scrollKeys {
	return scrollKeys{
		Down:     key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("j/↓", "down")),
		Up:       key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("k/↑", "up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "f", "space"), key.WithHelp("pgdn/f", "page down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup/b", "page up")),
		Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
	}
}

// ShortHelp is the status line's share of a scrolled view.
func (k scrollKeys) ShortHelp() []key.Binding { return []key.Binding{k.Down} }

// FullHelp lists every scrolling key, esc last when it goes back.
func (k scrollKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.list()} }

func (k scrollKeys) list() []key.Binding {
	out := []key.Binding{k.Down, k.Up, k.PageDown, k.PageUp}
	if k.Back.Enabled() {
		out = append(out, k.Back)
	}
	return out
}

// scroller is the offset of a view drawn as one body in a viewport.
type scroller struct{ y int }

// offset is where the viewport starts (the root draws it).
func (s scroller) offset() int { return s.y }

// update scrolls by a key or a wheel notch over body and reports whether
// msg was a scrolling one; esc asks to go back.
func (s *scroller) update(sh *shared, k scrollKeys, msg tea.Msg, body func() string) bool {
	n := 0
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Back):
			sh.goTo(navigation{back: true})
			return true
		case key.Matches(msg, k.Down):
			n = 1
		case key.Matches(msg, k.Up):
			n = -1
		case key.Matches(msg, k.PageDown):
			n = sh.bodyHeight()
		case key.Matches(msg, k.PageUp):
			n = -sh.bodyHeight()
		default:
			return false
		}
	case tea.MouseWheelMsg:
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			n = -wheelStep
		case tea.MouseWheelDown:
			n = wheelStep
		default:
			return false
		}
	default:
		return false
	}
	vp := sh.viewport(body(), s.y)
	if n > 0 {
		vp.ScrollDown(n)
	} else {
		vp.ScrollUp(-n)
	}
	s.y = vp.YOffset()
	return true
}

// wheelKey turns a wheel notch into the up or down key, for the views whose
// cursor moves one row per notch (as j/k move it); ok is false for any
// other button.
func wheelKey(msg tea.MouseWheelMsg) (tea.KeyPressMsg, bool) {
	switch msg.Mouse().Button {
	case tea.MouseWheelUp:
		return tea.KeyPressMsg{Code: tea.KeyUp}, true
	case tea.MouseWheelDown:
		return tea.KeyPressMsg{Code: tea.KeyDown}, true
	}
	return tea.KeyPressMsg{}, false
}

// viewport is body in a bubbles viewport at offset y (clamped by the
// viewport, so scrolling stops at the last line). Lines are cut with an
// ellipsis first so a cut is visible.
func (s *shared) viewport(body string, y int) viewport.Model {
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, s.width, "…")
	}
	vp := viewport.New(viewport.WithWidth(s.width), viewport.WithHeight(s.bodyHeight()))
	vp.SetContentLines(lines)
	vp.SetYOffset(y)
	return vp
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
