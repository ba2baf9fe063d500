package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// moveKeys are the keys that move a cursor or a viewport in every list and
// body of the dashboard, as less, k9s and lazygit move: a row, half a page,
// a page, the top and the bottom.
type moveKeys struct {
	Down, Up, HalfDown, HalfUp, PageDown, PageUp, Top, Bottom key.Binding
}

func newMoveKeys() moveKeys {
	return moveKeys{
		Down:     downKey(),
		Up:       upKey(),
		HalfDown: key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "half page down")),
		HalfUp:   key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "half page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "f", "space"), key.WithHelp("pgdn/f", "page down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup/b", "page up")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g/home", "top")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G/end", "bottom")),
	}
}

// list is every moving key, for the help overlay.
func (k moveKeys) list() []key.Binding {
	return []key.Binding{k.Down, k.Up, k.HalfDown, k.HalfUp, k.PageDown, k.PageUp, k.Top, k.Bottom}
}

// move is where a cursor at cur in a list of n rows, ps of them on screen,
// goes on msg; ok is false when msg is not a moving key. The result is in
// [0, n-1] (0 for an empty list).
func (k moveKeys) move(msg tea.KeyPressMsg, cur, n, ps int) (int, bool) {
	ps = max(1, ps)
	to := cur
	switch {
	case key.Matches(msg, k.Down):
		to++
	case key.Matches(msg, k.Up):
		to--
	case key.Matches(msg, k.HalfDown):
		to += max(1, ps/2)
	case key.Matches(msg, k.HalfUp):
		to -= max(1, ps/2)
	case key.Matches(msg, k.PageDown):
		to += ps
	case key.Matches(msg, k.PageUp):
		to -= ps
	case key.Matches(msg, k.Top):
		to = 0
	case key.Matches(msg, k.Bottom):
		to = n - 1
	default:
		return cur, false
	}
	return clamp(to, 0, n-1), true
}

// clamp is v within [lo, hi], lo when hi < lo.
func clamp(v, lo, hi int) int {
	return max(lo, min(v, hi))
}

// searchKeys are the keys of a list's search: / types the text, n and N
// jump to the next and previous row that contains it.
type searchKeys struct{ Search, Next, Prev key.Binding }

func newSearchKeys() searchKeys {
	return searchKeys{
		Search: key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		Next:   key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next match")),
		Prev:   key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous match")),
	}
}

func (k searchKeys) list() []key.Binding { return []key.Binding{k.Search, k.Next, k.Prev} }

// search is a list's search: the input / focuses and the text last
// submitted. While the input has focus it owns the keyboard.
type search struct {
	keys  searchKeys
	input field
	query string
	ready bool // made by newSearch; a zero search makes itself on first use
}

func newSearch() search {
	return search{keys: newSearchKeys(), input: newField("/", "search: text in a row, enter jumps, n/N next/previous"), ready: true}
}

func (s *search) focused() bool { return s.input.focused() }

// update handles a key of the search over a list of n rows whose row i
// reads text(i), the cursor at cur. It returns the new cursor and whether
// the key was the search's. Enter jumps to the first match from the
// cursor on; every edit jumps as well, as less does with incsearch.
func (s *search) update(msg tea.KeyPressMsg, cur, n int, text func(int) string) (int, tea.Cmd, bool) {
	if !s.ready {
		*s = newSearch()
	}
	if s.input.focused() {
		ev, c := s.input.update(msg)
		switch ev {
		case fieldSubmit:
			s.input.remember(s.input.value())
			s.input.blur()
			s.query = s.input.value()
			return s.find(cur, n, 0, text), c, true
		case fieldEdited:
			s.query = s.input.value()
			return s.find(cur, n, 0, text), c, true
		}
		return cur, c, true
	}
	switch {
	case key.Matches(msg, s.keys.Search):
		s.input.in.SetValue("")
		return cur, s.input.focus(), true
	case key.Matches(msg, s.keys.Next):
		return s.find(cur, n, 1, text), nil, true
	case key.Matches(msg, s.keys.Prev):
		return s.find(cur, n, -1, text), nil, true
	}
	return cur, nil, false
}

// find is the first row from cur+from (from 0: cur itself) in direction
// dir (0 counts as forward) whose text holds the query, wrapping around;
// cur when none does.
func (s *search) find(cur, n, from int, text func(int) string) int {
	q := strings.ToLower(s.query)
	if q == "" || n == 0 {
		return cur
	}
	dir := 1
	if from < 0 {
		dir = -1
	}
	for i := range n {
		j := ((cur+from+dir*i)%n + n) % n
		if strings.Contains(strings.ToLower(text(j)), q) {
			return j
		}
	}
	return cur
}

// view is the search line: the input while typing, else the query.
func (s *search) view() string {
	if s.input.focused() {
		return s.input.view()
	}
	if s.query != "" {
		return "/" + safe(s.query) + "  (n/N)"
	}
	return ""
}
