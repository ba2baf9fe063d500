package ui

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// field is a bubbles textinput with a history recalled by ↑ and ↓. While
// it has focus it owns the keyboard: the views hand it every key and let
// none reach a shortcut (only ctrl+c still quits).
type field struct {
	in      textinput.Model
	history []string // oldest first
	hist    int      // index into history while browsing; len(history) when not
	draft   string   // what was typed before browsing began
}

// fieldKeys are the keys a focused field interprets itself, besides text.
var fieldKeys = struct{ Submit, Leave, Prev, Next key.Binding }{
	Submit: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run")),
	Leave:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "leave input")),
	Prev:   key.NewBinding(key.WithKeys("up"), key.WithHelp("↑/↓", "history")),
	Next:   key.NewBinding(key.WithKeys("down")),
}

// fieldHelp is the status line of a focused field.
var fieldHelp = []key.Binding{fieldKeys.Submit, fieldKeys.Leave, fieldKeys.Prev,
	key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u/w", "clear/word"))}

func newField(prompt, placeholder string) field {
	in := textinput.New()
	in.Prompt = prompt
	in.Placeholder = placeholder
	in.SetWidth(60)
	// A steady cursor: a blinking one would redraw twice a second forever
	// and make every screen capture depend on the moment it was taken.
	s := in.Styles()
	s.Cursor.Blink = false
	in.SetStyles(s)
	in.KeyMap.NextSuggestion.SetEnabled(false)
	in.KeyMap.PrevSuggestion.SetEnabled(false)
	in.KeyMap.AcceptSuggestion.SetEnabled(false)
	return field{in: in}
}

func (f *field) focused() bool { return f.in.Focused() }
func (f *field) value() string { return f.in.Value() }

func (f *field) focus() tea.Cmd {
	f.hist = len(f.history)
	return f.in.Focus()
}

func (f *field) blur() { f.in.Blur() }

// remember appends v to the history unless it repeats the last entry.
func (f *field) remember(v string) {
	if v != "" && (len(f.history) == 0 || f.history[len(f.history)-1] != v) {
		f.history = append(f.history, v)
	}
	f.hist = len(f.history)
}

// fieldEvent is what a key did to a focused field.
type fieldEvent int

const (
	fieldNone   fieldEvent = iota
	fieldEdited            // the value changed
	fieldSubmit            // enter
	fieldLeave             // esc: the field lost focus
)

// update applies one key press to the focused field.
func (f *field) update(msg tea.KeyPressMsg) (fieldEvent, tea.Cmd) {
	switch {
	case key.Matches(msg, fieldKeys.Submit):
		return fieldSubmit, nil
	case key.Matches(msg, fieldKeys.Leave):
		f.blur()
		return fieldLeave, nil
	case key.Matches(msg, fieldKeys.Prev, fieldKeys.Next):
		return f.browse(key.Matches(msg, fieldKeys.Prev)), nil
	}
	before := f.in.Value()
	var c tea.Cmd
	f.in, c = f.in.Update(msg)
	if f.in.Value() != before {
		f.hist = len(f.history)
		return fieldEdited, c
	}
	return fieldNone, c
}

// browse moves through the history: ↑ to older entries, ↓ back to newer
// ones and finally to the draft typed before browsing.
func (f *field) browse(older bool) fieldEvent {
	if len(f.history) == 0 {
		return fieldNone
	}
	if f.hist == len(f.history) {
		f.draft = f.in.Value()
	}
	switch {
	case older && f.hist > 0:
		f.hist--
	case !older && f.hist < len(f.history):
		f.hist++
	default:
		return fieldNone
	}
	v := f.draft
	if f.hist < len(f.history) {
		v = f.history[f.hist]
	}
	f.in.SetValue(v)
	f.in.CursorEnd()
	return fieldEdited
}

// setWidth fits the field, prompt included, in width cells.
func (f *field) setWidth(width int) {
	f.in.SetWidth(max(10, width-len([]rune(f.in.Prompt))-1))
}

func (f *field) view() string { return f.in.View() }

// fieldKeyMap is the key map of a view while its input has focus.
var fieldKeyMap = keyGroup{short: fieldHelp, full: [][]key.Binding{fieldHelp}}
