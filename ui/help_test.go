package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
)

// Each view's help is its own key map (? on the view), and while an input
// has focus the status line is the input's keys only: goldens of both at
// 80×24 and 160×45.
func TestGoldenHelpAndFocus(t *testing.T) {
	db := sampleDB(t)
	cases := []struct {
		name string
		keys []string
	}{
		{"sql-entered", []string{"7"}},
		{"runs-filter", append([]string{"4", "wait", "/"}, typed("cand")...)},
	}
	for v := range nViews {
		n := strings.ToLower(strings.ReplaceAll(viewNames[v], " ", "-"))
		keys := []string{string(rune('1' + v)), "wait", "?"}
		if view(v) == viewSQL {
			keys = []string{"7", "esc", "?"} // the input has focus on entry: esc leaves it
		}
		cases = append(cases, struct {
			name string
			keys []string
		}{"help-" + n, keys})
	}
	for _, size := range [][2]int{{80, 24}, {160, 45}} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s-%dx%d", c.name, size[0], size[1]), func(t *testing.T) {
				msgs := make([]tea.Msg, len(c.keys))
				for i, k := range c.keys {
					msgs[i] = press(k)
				}
				_, out := settleAt(t, db, size[0], size[1], msgs...)
				golden.RequireEqual(t, []byte(out))
			})
		}
	}
}
