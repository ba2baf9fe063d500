package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/faultlens/faultlens/metrics"
)

// suitesView is the suite picker: every suite of the database, newest
// first, with its runs; b and c mark the baseline and the candidate and
// enter compares them (the dashboard then reads that pair).
type suitesView struct {
	sh         *shared
	keys       suitesKeys
	find       search
	seq        int
	list       []metrics.SuiteStart
	err        error
	cursor     int
	base, cand string // the pair being picked
}

// suitesKeys are the picker's keys.
type suitesKeys struct {
	moveKeys
	searchKeys
	Base, Cand, Apply, Back key.Binding
}

// ShortHelp is the status line's share.
func (k suitesKeys) ShortHelp() []key.Binding { return []key.Binding{k.Base, k.Cand, k.Apply} }

// FullHelp is every key of the picker.
func (k suitesKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.moveKeys.list(), append(k.searchKeys.list(), k.Base, k.Cand, k.Apply, k.Back)}
}

func newSuitesView(sh *shared) suitesView {
	mk := newMoveKeys()
	// b marks the baseline here, so it does not page up.
	mk.PageUp = key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up"))
	return suitesView{sh: sh, find: newSearch(), keys: suitesKeys{
		moveKeys: mk, searchKeys: newSearchKeys(),
		Base:  key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "baseline")),
		Cand:  key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "candidate")),
		Apply: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "compare them")),
		Back:  backKey(),
	}}
}

// Keys are the search input's while it has focus, else the picker's.
func (v suitesView) Keys() help.KeyMap {
	if v.find.focused() {
		return fieldKeyMap
	}
	return v.keys
}

func (v suitesView) focused() bool      { return v.find.focused() }
func (v suitesView) searchLine() string { return v.find.view() }

func (v suitesView) rowText(i int) string { return v.list[i].Suite }

// ask reads the suites there are.
func (v *suitesView) ask() tea.Cmd {
	v.seq++
	return v.sh.startLoad(catalogCmd(v.sh.ctx, v.sh.be, v.seq))
}

// Update lists the suites when shown and after every load (following adds
// the suites that arrived), and picks.
func (v suitesView) Update(msg tea.Msg) (suitesView, tea.Cmd) {
	switch msg := msg.(type) {
	case catalogMsg:
		if msg.seq == v.seq {
			v.list, v.err = msg.suites, msg.err
			v.cursor = clamp(v.cursor, 0, len(v.list)-1)
		}
	case shownMsg:
		if b, c := v.sh.pair(); v.base == "" && v.cand == "" {
			if b != nil {
				v.base = b.Suite
			}
			if c != nil {
				v.cand = c.Suite
			}
		}
		return v, v.ask()
	case factsMsg:
		if msg.onScreen || v.list != nil {
			return v, v.ask()
		}
	case tea.KeyPressMsg:
		if to, c, ok := v.find.update(msg, v.cursor, len(v.list), v.rowText); ok {
			v.cursor = to
			return v, c
		}
		return v.key(msg), nil
	case tea.MouseWheelMsg:
		if k, ok := wheelKey(msg); ok {
			return v.key(k), nil
		}
	case clickMsg:
		if i := msg.y - 3 + v.start(); msg.y >= 3 && i >= 0 && i < len(v.list) {
			v.cursor = i
		}
	}
	return v, nil
}

func (v suitesView) key(msg tea.KeyPressMsg) suitesView {
	k := v.keys
	if to, ok := k.move(msg, v.cursor, len(v.list), v.rowsShown()); ok {
		v.cursor = to
		return v
	}
	switch {
	case key.Matches(msg, k.Base) && v.cursor < len(v.list):
		v.base = v.list[v.cursor].Suite
	case key.Matches(msg, k.Cand) && v.cursor < len(v.list):
		v.cand = v.list[v.cursor].Suite
	case key.Matches(msg, k.Apply):
		switch {
		case v.base == "" || v.cand == "":
			v.sh.status = "pick a baseline (b) and a candidate (c)"
		case v.base == v.cand:
			v.sh.status = "the baseline and the candidate are the same suite"
		default:
			v.sh.pick = &[2]string{v.base, v.cand}
			v.sh.goTo(navigation{back: true})
		}
	case key.Matches(msg, k.Back):
		v.sh.goTo(navigation{back: true})
	}
	return v
}

func (v suitesView) rowsShown() int { return max(1, v.sh.bodyHeight()-3) }

// start is the first suite on screen: the window keeps the cursor in it.
func (v suitesView) start() int {
	h := v.rowsShown()
	return min(max(0, v.cursor-h/2), max(0, len(v.list)-h))
}

// View is the pair being picked and the suites, newest first.
func (v suitesView) View() string {
	st := v.sh.styles
	switch {
	case v.err != nil:
		return st.Error.Render("error: " + safe(v.err.Error()))
	case v.list == nil:
		return v.sh.spin.View() + " listing the suites…"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "baseline %s  candidate %s  (b, c: mark; enter compares)\n",
		st.Title.Render(orNone(v.base)), st.Title.Render(orNone(v.cand)))
	fmt.Fprintf(&b, "%d suites, newest first\n", len(v.list))
	b.WriteString(st.Header.Render(fmt.Sprintf("  %-4s %-30s %7s  %s", "", "suite", "runs", "first run (UTC)")) + "\n")
	start := v.start()
	for i := start; i < min(len(v.list), start+v.rowsShown()); i++ {
		s := v.list[i]
		role := ""
		switch s.Suite {
		case v.base:
			role = "base"
		case v.cand:
			role = "cand"
		}
		when := "–"
		if s.StartedAt != nil {
			when = s.StartedAt.UTC().Format("2006-01-02 15:04")
		}
		mark := "  "
		if i == v.cursor {
			mark = "> "
		}
		line := fmt.Sprintf("%s%-4s %-30s %7d  %s", mark, role, pad(safe(s.Suite), 30), s.Runs, when)
		if i == v.cursor {
			line = st.Selected.Render(line)
		}
		b.WriteString(line + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return safe(s)
}
