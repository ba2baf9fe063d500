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
// (overview, latency, errors, and the detail and pair views' bodies): the
// moving keys of every list, the search and esc.
type scrollKeys struct {
	moveKeys
	searchKeys
	Back key.Binding
}

func newScrollKeys() scrollKeys {
	return scrollKeys{moveKeys: newMoveKeys(), searchKeys: newSearchKeys(), Back: backKey()}
}

// ShortHelp is the status line's share of a scrolled view.
func (k scrollKeys) ShortHelp() []key.Binding { return []key.Binding{k.Down, k.Search} }

// FullHelp lists every scrolling key, then the search, esc last when it
// goes back.
func (k scrollKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.moveKeys.list(), k.rest()} }

func (k scrollKeys) rest() []key.Binding {
	out := k.searchKeys.list()
	if k.Back.Enabled() {
		out = append(out, k.Back)
	}
	return out
}

// scroller is the offset of a view drawn as one body in a viewport, and
// the search over its lines.
type scroller struct {
	y    int
	find search
}

// offset is where the viewport starts (the root draws it).
func (s scroller) offset() int { return s.y }

// focused reports whether the search input has the keyboard.
func (s scroller) focused() bool { return s.find.focused() }

// searchLine is the search for the status line.
func (s scroller) searchLine() string { return s.find.view() }

// update scrolls by a key or a wheel notch over body, or searches its
// lines, and reports whether msg was the scroller's; esc asks to go back.
func (s *scroller) update(sh *shared, k scrollKeys, msg tea.Msg, body func() string) (tea.Cmd, bool) {
	lines := func() []string { return strings.Split(body(), "\n") }
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if s.find.focused() || key.Matches(msg, k.Search, k.Next, k.Prev) {
			ls := lines()
			y, c, _ := s.find.update(msg, s.y, len(ls), func(i int) string { return ansi.Strip(ls[i]) })
			s.y = sh.clampY(body(), y)
			return c, true
		}
		if key.Matches(msg, k.Back) {
			sh.goTo(navigation{back: true})
			return nil, true
		}
		h := sh.bodyHeight()
		n := len(lines())
		// The cursor of a body is its top line; the last top is where the
		// viewport shows the last line at the bottom.
		y, ok := k.move(msg, s.y, max(1, n-h+1), h)
		if !ok {
			return nil, false
		}
		s.y = y
		return nil, true
	case tea.MouseWheelMsg:
		n := 0
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			n = -wheelStep
		case tea.MouseWheelDown:
			n = wheelStep
		default:
			return nil, false
		}
		s.y = sh.clampY(body(), s.y+n)
		return nil, true
	}
	return nil, false
}

// clampY is y kept where the viewport over body can start.
func (s *shared) clampY(body string, y int) int {
	vp := s.viewport(body, max(0, y))
	return vp.YOffset()
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
