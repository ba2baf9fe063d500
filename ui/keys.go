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
		Enter:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Filter:     key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Export:     key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "export")),
		NextTab:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next view")),
		PrevTab:    key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous view")),
		Sort:       key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "next sort column")),
		SortDir:    key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "reverse sort")),
		Quick:      key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "masked, failed, seal, undisclosed")),
		Scenario:   key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next scenario")),
		ErrorClass: key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "next error class")),
		GateFalse:  key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "a gate false")),
		Pair:       key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pair with its twin")),
	}
	for i := range k.Tabs {
		n := string(rune('1' + i))
		k.Tabs[i] = key.NewBinding(key.WithKeys(n), key.WithHelp(n, viewNames[i]))
	}
	return k
}
