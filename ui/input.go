package ui

import tea "charm.land/bubbletea/v2"

// lineInput is a one-line text entry (the bubbles textinput needs a
// clipboard module this build does not carry).
type lineInput struct{ value string }

// key applies one key press; done reports enter or esc, changed an edit.
func (in *lineInput) key(msg tea.KeyPressMsg) (done, changed bool) {
	switch msg.String() {
	case "enter", "esc":
		return true, false
	case "backspace":
		if r := []rune(in.value); len(r) > 0 {
			in.value = string(r[:len(r)-1])
			return false, true
		}
		return false, false
	case "ctrl+u":
		in.value = ""
		return false, true
	}
	if msg.Text != "" {
		in.value += msg.Text
		return false, true
	}
	return false, false
}
