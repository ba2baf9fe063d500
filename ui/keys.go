package ui

import "charm.land/bubbles/v2/key"

// keyMap is the keys the root owns: those that work on every view. Each
// view owns the rest in its own key map.
type keyMap struct {
	Quit, Help, Back, Export, NextTab, PrevTab key.Binding
	Tabs                                       [nViews]key.Binding
}

func defaultKeyMap() keyMap {
	k := keyMap{
		Quit:    key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Help:    key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Back:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close help")),
		Export:  key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "export")),
		NextTab: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next view")),
		PrevTab: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous view")),
	}
	for i := range k.Tabs {
		n := string(rune('1' + i))
		if i == 9 {
			n = "0"
		}
		k.Tabs[i] = key.NewBinding(key.WithKeys(n), key.WithHelp(n, viewNames[i]))
	}
	return k
}

// The bindings several views share, each view keeping its own copy in its
// key map (so that one view can disable or relabel a key of its own).
func upKey() key.Binding { return key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("k/↑", "up")) }
func downKey() key.Binding {
	return key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("j/↓", "down"))
}
func backKey() key.Binding { return key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")) }
func pairKey(help string) key.Binding {
	return key.NewBinding(key.WithKeys("p"), key.WithHelp("p", help))
}
