package ui

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func click(x, y int) tea.MouseClickMsg { return tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft} }

// A click on a tab shows it; a click on a row puts the cursor there and a
// second click on it opens it.
func TestMouseClicks(t *testing.T) {
	db := sampleDB(t)
	m, out := settleMsgs(t, db)
	bar := strings.Split(out, "\n")[0]
	x := strings.Index(bar, "6 Compare")
	if x < 0 {
		t.Fatalf("no Compare tab in %q", bar)
	}
	m, _ = settleMsgs(t, db, click(x+2, 0))
	if m.tab != viewCompare {
		t.Fatalf("click on the Compare tab at x %d: tab %d", x+2, m.tab)
	}
	// Runs: three lines above the rows, under the tab bar.
	m, out = settleMsgs(t, db, press("4"), waitMsg{}, click(10, 1+3+2))
	if m.runs.pos != 2 {
		t.Fatalf("click on the third row: cursor %d\n%s", m.runs.pos, out)
	}
	m, _ = settleMsgs(t, db, press("4"), waitMsg{}, click(10, 1+3+2), click(10, 1+3+2))
	if m.tab != viewDetail || m.detail.d == nil || m.detail.d.RunID != m.runs.rows[2].RunID {
		t.Fatalf("second click on the row: tab %d", m.tab)
	}
	// Compare: the row under a click is the one drawn there.
	m, out = settleMsgs(t, db, press("6"), waitMsg{}, click(10, 8))
	lines := strings.Split(out, "\n")
	r, ok := m.cmp.selected()
	if !ok || !strings.HasPrefix(lines[8], "> ") || !strings.Contains(lines[8], rowName(r, true)) {
		t.Fatalf("click on compare line 8: cursor %d\n%s", m.cmp.cursor, out)
	}
	m, out = settleMsgs(t, db, press("8"), waitMsg{}, click(10, 12))
	if lines := strings.Split(out, "\n"); m.breakers.cursor == 0 || !strings.HasPrefix(lines[12], "> ") {
		t.Fatalf("click on breaker line 12: cursor %d\n%s", m.breakers.cursor, out)
	}
}

// The help overlay of every view names every key of its key map (each
// binding with a help text), so a key added to a map is in the help.
func TestHelpListsEveryKey(t *testing.T) {
	m := loadedModel(t)
	for v := range nViews {
		m.tab = view(v)
		m.help = true
		body := m.helpBody()
		var walk func(reflect.Value)
		walk = func(rv reflect.Value) {
			for i := range rv.NumField() {
				f := rv.Field(i)
				if f.Type() == reflect.TypeFor[key.Binding]() {
					// Unexported embedded maps: read the field through its address.
					b := *(*key.Binding)(unsafe.Pointer(f.UnsafeAddr()))
					if h := b.Help().Key; b.Enabled() && h != "" && !strings.Contains(body, h) {
						t.Errorf("help of %s misses %s (%s)", viewNames[v], rv.Type().Field(i).Name, h)
					}
					continue
				}
				if f.Kind() == reflect.Struct {
					walk(f)
				}
			}
		}
		km := reflect.ValueOf(m.page(view(v)).Keys())
		addr := reflect.New(km.Type()).Elem()
		addr.Set(km)
		walk(addr)
	}
}
