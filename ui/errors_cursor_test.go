package ui

import (
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/faultlens/faultlens/metrics"
)

// errorsAt is the model after the errors view's keys.
func errorsAt(t *testing.T, keys ...tea.Msg) (Model, string) {
	t.Helper()
	return settleMsgs(t, sampleDB(t), append([]tea.Msg{press("3")}, keys...)...)
}

func rights(n int) []tea.Msg { return slices.Repeat([]tea.Msg{press("l")}, n) }

// The cursor walks the errors cells (j/k, h/l, G), enter on a matrix cell
// lists the runs of that suite with a chain of that class and outcome, on
// a counter the runs it counts, and a click on a row moves the cursor
// there, a second click drills.
func TestErrorsCursorDrills(t *testing.T) {
	for _, c := range []struct {
		name     string
		keys     []tea.Msg
		row, col int
		want     metrics.RunFilter
		total    int64
	}{
		// TRANSIENT: 6 failed chains of the candidate.
		{"matrix", append(rights(12), press("k"), press("enter")), 0, 11,
			metrics.RunFilter{Suite: "candidate", ErrorClass: "TRANSIENT", ErrorOutcome: "failed"}, 6},
		// The last row: 14 classes, then 6 counters.
		{"counter", append(append([]tea.Msg{press("G")}, rights(6)...), press("enter")), 19, 6,
			metrics.RunFilter{Suite: "candidate", Quick: "unknown_outcome"}, 4},
		// The tab bar, then three lines above the matrix: AUTHZ is row 3.
		{"click", append(rights(6), click(10, 1+3+3), click(10, 1+3+3)), 3, 6,
			metrics.RunFilter{Suite: "candidate", ErrorClass: "AUTHZ"}, 18},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, out := errorsAt(t, c.keys...)
			if m.errs.row != c.row || m.errs.col != c.col {
				t.Fatalf("cursor at %d,%d, want %d,%d", m.errs.row, m.errs.col, c.row, c.col)
			}
			if m.tab != viewRuns || m.runs.filter != c.want || m.runs.total != c.total {
				t.Fatalf("drill: tab %d filter %+v total %d\n%s", m.tab, m.runs.filter, m.runs.total, out)
			}
		})
	}
}
