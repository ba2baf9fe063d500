package calibrate

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"
)

// WriteTable prints the cells as a Markdown table (markdown) or aligned
// text: one line per case and size with the failure rate and its 95%
// Wilson interval, the mean observed change of the watched metric and,
// for A/A cases, whether the false-alarm rate meets the 5 % target.
func WriteTable(w io.Writer, cells []Cell, markdown bool) error {
	head := []string{"case", "runs/side", "pairs", "gate failed", "rate [95% CI]", "reads as", "mean observed change"}
	var rows [][]string
	for _, c := range cells {
		kind := "detection"
		if c.AA {
			kind = "false alarms"
		}
		rate := fmt.Sprintf("%.1f%% [%.1f, %.1f]", c.Rate*100, c.Lo*100, c.Hi*100)
		fail := fmt.Sprintf("%d", c.Failed)
		if c.Refused > 0 {
			fail += fmt.Sprintf(" (+%d refused)", c.Refused)
		}
		rows = append(rows, []string{c.Case, fmt.Sprint(c.Runs), fmt.Sprint(c.Pairs), fail, rate, kind, changeText(c.Change, c.Counts)})
	}
	var b bytes.Buffer
	if markdown {
		fmt.Fprintf(&b, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat(" --- |", len(head)))
		for _, r := range rows {
			fmt.Fprintf(&b, "| %s |\n", strings.Join(r, " | "))
		}
		_, err := w.Write(b.Bytes())
		return err
	}
	fmt.Fprintln(&b, strings.Join(head, "\t")+"\t")
	for _, r := range rows {
		fmt.Fprintln(&b, strings.Join(r, "\t")+"\t")
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if _, err := tw.Write(b.Bytes()); err != nil {
		return err
	}
	return tw.Flush()
}

// changeText prints a mean change: a count of runs, or rate points and
// relative changes as percent (in the gate's bad direction).
func changeText(v float64, counts bool) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case counts:
		return fmt.Sprintf("%.1f runs", v)
	}
	return fmt.Sprintf("%+.1f%%", v*100)
}

// WriteGates prints, per cell, which gates failed how often (the reason
// behind each rate), and returns the writer's error.
func WriteGates(w io.Writer, cells []Cell) error {
	var b bytes.Buffer
	for _, c := range cells {
		if len(c.Gates) == 0 {
			continue
		}
		keys := make([]string, 0, len(c.Gates))
		for k := range c.Gates {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s %d", k, c.Gates[k])
		}
		fmt.Fprintf(&b, "%s @%d: %s\n", c.Case, c.Runs, strings.Join(parts, ", "))
	}
	_, err := w.Write(b.Bytes())
	return err
}

// SeedText names the seeds of a run: baseline seeds first..last, the
// candidate of seed s using CandSeed(s) (+k for the k-th extra candidate).
func SeedText(first int64, pairs []int, sizes []int) string {
	var parts []string
	for i, n := range sizes {
		parts = append(parts, fmt.Sprintf("%d runs/side: baseline seeds %d–%d", n, first, first+int64(pairs[i])-1))
	}
	return strings.Join(parts, "; ") + fmt.Sprintf("; the candidate of baseline seed s uses seed s+%d (A/A cases also s+%d)", CandSeed(0), CandSeed(0)+1)
}
