package ui

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
)

// Every view at the two sizes the dashboard is made for: 80×24 (the
// smallest usable terminal) and 160×45 (a wide one).
func TestGoldenSizes(t *testing.T) {
	db := sampleDB(t)
	for _, size := range [][2]int{{80, 24}, {160, 45}} {
		for _, c := range []struct {
			name string
			keys []string
		}{
			{"overview", nil},
			{"latency", []string{"2"}},
			{"errors", []string{"3"}},
			{"runs", []string{"4"}},
			{"detail", []string{"4", "enter"}},
			{"compare", []string{"6"}},
			{"sql", append(append([]string{"7"}, typed("select suite, count(*) from events where type = 'run' group by all order by 1")...), "enter")},
			{"breakers", []string{"8"}},
			{"pair", []string{"6", "j", "p"}},
			{"suites", []string{"0"}},
		} {
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
