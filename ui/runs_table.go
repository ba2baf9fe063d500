package ui

import (
	"fmt"
	"strings"

	"github.com/faultlens/faultlens/metrics"
)

// runColumn is one column of the runs table.
type runColumn struct {
	head  string
	sort  string // the RunSort column
	w     int
	grow  int  // the most cells it takes of a wide screen's spare width
	right bool // numbers are right-aligned
	wide  bool // shown only from runsWide columns on
	cell  func(metrics.RunRow) string
}

// runsWide is the width from which the runs table shows every column;
// below it the agent and the claimed terminal are left out (the run's
// detail shows both) so that the verdict, MASKED and the end-to-end time
// stay on an 80-column screen.
const runsWide = 100

var runColumns = []runColumn{
	{head: "run", sort: "run_id", w: 18, grow: 22, cell: func(x metrics.RunRow) string { return safe(x.RunID) }},
	{head: "suite", sort: "suite", w: 9, grow: 11, cell: func(x metrics.RunRow) string { return safe(x.Suite) }},
	{head: "scenario", sort: "scenario", w: 12, grow: 14, cell: func(x metrics.RunRow) string { return safe(x.Scenario) }},
	{head: "agent", sort: "agent", w: 10, grow: 14, wide: true, cell: func(x metrics.RunRow) string { return safe(x.Agent) }},
	{head: "claimed", sort: "claimed", w: 10, grow: 6, wide: true, cell: func(x metrics.RunRow) string { return safe(x.Claimed) }},
	{head: "verdict", sort: "verdict", w: 7, cell: func(x metrics.RunRow) string { return x.Verdict }},
	{head: "masked", sort: "masked", w: 6, cell: func(x metrics.RunRow) string {
		if x.Masked {
			return "MASKED"
		}
		return ""
	}},
	{head: "calls", sort: "calls", w: 5, right: true, cell: func(x metrics.RunRow) string { return fmt.Sprint(x.Calls) }},
	{head: "re", sort: "resends", w: 4, right: true, cell: func(x metrics.RunRow) string { return fmt.Sprint(x.Resends) }},
	{head: "e2e", sort: "e2e", w: 8, right: true, cell: func(x metrics.RunRow) string { return ms(x.EndToEndMs) }},
}

// runColumnsFor is the columns that fit a screen width cells wide.
func runColumnsFor(width int) []runColumn {
	var out []runColumn
	for _, c := range runColumns {
		if !c.wide || width >= runsWide {
			out = append(out, c)
		}
	}
	return out
}

// fitRunColumns widens the text columns of cols into the spare cells of
// a line width cells wide, each up to its grow, so that a wide screen shows
// whole names (and whole OTLP run ids) instead of cut ones.
func fitRunColumns(cols []runColumn, width int) []runColumn {
	out := append([]runColumn(nil), cols...)
	used := len(out) - 1 // the separators
	for _, c := range out {
		used += c.w
	}
	spare := width - used
	for spare > 0 {
		grew := false
		for i := range out {
			if spare > 0 && out[i].grow > 0 {
				out[i].w++
				out[i].grow--
				spare--
				grew = true
			}
		}
		if !grew {
			break
		}
	}
	return out
}

// cutMiddle fits s in w cells by dropping its middle: run ids differ in
// their tails (a counter, the end of a hex id), so the tail stays.
func cutMiddle(s string, w int) string {
	r := []rune(s)
	if len(r) <= w || w < 5 {
		return s
	}
	head := (w - 1) / 2
	return string(r[:head]) + "…" + string(r[len(r)-(w-1-head):])
}

// runLine is one line of the table: text(c) of each column, padded or cut
// to its width.
func runLine(cols []runColumn, text func(runColumn) string) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		t := text(c)
		switch {
		case c.right:
			parts[i] = lpad(t, c.w)
		case c.sort == "run_id":
			parts[i] = pad(cutMiddle(t, c.w), c.w)
		case len([]rune(t)) > c.w && c.w > 1:
			parts[i] = string([]rune(t)[:c.w-1]) + "…" // a cut name shows that it is cut
		default:
			parts[i] = pad(t, c.w)
		}
	}
	return strings.Join(parts, " ")
}
