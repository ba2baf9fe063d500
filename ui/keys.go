package ui

import "charm.land/bubbles/v2/key"

// keyMap holds every key binding of the dashboard, defined once.
type keyMap struct {
	Quit, Help, Back, Up, Down, PageUp, PageDown, Enter, Filter, Export key.Binding
	NextTab, PrevTab, Sort, SortDir, Quick                              key.Binding
	Scenario, ErrorClass, GateFalse, Pair                               key.Binding
	Tabs                                                                [nViews]key.Binding
}

func defaultKeyMap() keyMap {
	k := keyMap{
		Quit:       key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Help:       key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Back:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Up:         key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("k/↑", "up")),
		Down:       key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("j/↓", "down")),
		PageUp:     key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup/b", "page up")),
		PageDown:   key.NewBinding(key.WithKeys("pgdown", "f", "space"), key.WithHelp("pgdn/f", "page down")),
		Enter:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open run / edit query")),
		Filter:     key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter runs / type SQL")),
		Export:     key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "export view as Markdown")),
		NextTab:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next view")),
		PrevTab:    key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous view")),
		Sort:       key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "runs: next sort column")),
		SortDir:    key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "runs: reverse sort")),
		Quick:      key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "runs: quick filter (masked, failed, seal, undisclosed)")),
		Scenario:   key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "runs: next scenario")),
		ErrorClass: key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "runs: next error class")),
		GateFalse:  key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "runs: a gate false (plan, evidence, deliverable, committed)")),
		Pair:       key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pair the run with its twin")),
	}
	for i := range k.Tabs {
		n := string(rune('1' + i))
		k.Tabs[i] = key.NewBinding(key.WithKeys(n), key.WithHelp(n, viewNames[i]))
	}
	return k
}

// helpLines lists every binding for the help overlay.
func (k keyMap) helpLines() [][2]string {
	all := []key.Binding{k.NextTab, k.PrevTab, k.Up, k.Down, k.PageUp, k.PageDown, k.Enter, k.Back,
		k.Filter, k.Sort, k.SortDir, k.Quick, k.Scenario, k.ErrorClass, k.GateFalse, k.Export, k.Help, k.Quit}
	var out [][2]string
	out = append(out, [2]string{"1-7", "views"})
	for _, b := range all {
		out = append(out, [2]string{b.Help().Key, b.Help().Desc})
	}
	return out
}
