package ui

import (
	"fmt"
	"strings"

	"github.com/faultlens/faultlens/metrics"
)

// runColumn is one column of the runs table.
type runColumn struct {
	head  string
	w     int
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
	{head: "run", w: 18, cell: func(x metrics.RunRow) string { return safe(x.RunID) }},
	{head: "suite", w: 9, cell: func(x metrics.RunRow) string { return safe(x.Suite) }},
	{head: "scenario", w: 12, cell: func(x metrics.RunRow) string { return safe(x.Scenario) }},
	{head: "agent", w: 10, wide: true, cell: func(x metrics.RunRow) string { return safe(x.Agent) }},
	{head: "claimed", w: 10, wide: true, cell: func(x metrics.RunRow) string { return safe(x.Claimed) }},
	{head: "verdict", w: 7, cell: func(x metrics.RunRow) string { return x.Verdict }},
	{head: "masked", w: 6, cell: func(x metrics.RunRow) string {
		if x.Masked {
			return "MASKED"
		}
		return ""
	}},
	{head: "calls", w: 5, right: true, cell: func(x metrics.RunRow) string { return fmt.Sprint(x.Calls) }},
	{head: "re", w: 4, right: true, cell: func(x metrics.RunRow) string { return fmt.Sprint(x.Resends) }},
	{head: "e2e", w: 8, right: true, cell: func(x metrics.RunRow) string { return ms(x.EndToEndMs) }},
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

// runLine is one line of the table: text(c) of each column, padded or cut
// to its width.
func runLine(cols []runColumn, text func(runColumn) string) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		if c.right {
			parts[i] = lpad(text(c), c.w)
		} else {
			parts[i] = pad(text(c), c.w)
		}
	}
	return strings.Join(parts, " ")
}
