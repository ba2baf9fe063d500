package bench

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Row is one measured step.
type Row struct {
	// Step names what was measured.
	Step string
	// Events is how many events the step covered.
	Events int64
	// Time is the step's wall time.
	Time time.Duration
	// PeakRSSMiB is the process's peak resident set so far, in MiB.
	PeakRSSMiB float64
	// Raw names the raw DuckDB (or arrow-go) figure beside it; "" for none.
	Raw string
	// RawTime is that figure's wall time on the same input.
	RawTime time.Duration
	// Target is the target for the step; the zero Target is none.
	Target Target
}

// Target is a goal from the issue: a ratio to the raw figure, a wall time,
// or both.
type Target struct {
	// MaxRatio, when positive, bounds Time/RawTime.
	MaxRatio float64
	// MaxTime, when positive, bounds Time.
	MaxTime time.Duration
}

// Ratio is Time/RawTime, or 0 without a raw figure.
func (r Row) Ratio() float64 {
	if r.RawTime <= 0 {
		return 0
	}
	return r.Time.Seconds() / r.RawTime.Seconds()
}

// EventsPerSec is the step's throughput.
func (r Row) EventsPerSec() float64 {
	if r.Time <= 0 {
		return 0
	}
	return float64(r.Events) / r.Time.Seconds()
}

// Verdict is "PASS" or "MISS" against the target, "" without one.
func (r Row) Verdict() string {
	t := r.Target
	if t.MaxRatio <= 0 && t.MaxTime <= 0 {
		return ""
	}
	if (t.MaxRatio > 0 && r.Ratio() > t.MaxRatio) || (t.MaxTime > 0 && r.Time > t.MaxTime) {
		return "MISS"
	}
	return "PASS"
}

// String spells the target as the issue does.
func (t Target) String() string {
	var parts []string
	if t.MaxRatio > 0 {
		parts = append(parts, fmt.Sprintf("≤ %g× raw", t.MaxRatio))
	}
	if t.MaxTime > 0 {
		parts = append(parts, "≤ "+round(t.MaxTime))
	}
	return strings.Join(parts, ", ")
}

var header = []string{"step", "events", "time", "events/s", "peak RSS MiB", "raw", "raw time", "ratio", "target", "result"}

// rightAligned marks the numeric columns.
var rightAligned = map[int]bool{1: true, 2: true, 3: true, 4: true, 6: true, 7: true}

// Write prints res as one Markdown table, padded to fixed width so that it
// reads the same in a terminal, followed by its notes.
func Write(w io.Writer, res *Result) error {
	cells := [][]string{header}
	for _, r := range res.Rows {
		cells = append(cells, cellsOf(r))
	}
	width := make([]int, len(header))
	for _, row := range cells {
		for i, c := range row {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	var b strings.Builder
	for n, row := range cells {
		line(&b, row, width)
		if n == 0 {
			rule := make([]string, len(row))
			for i := range row {
				rule[i] = strings.Repeat("-", width[i]-1)
				if rightAligned[i] {
					rule[i] += ":"
				} else {
					rule[i] += "-"
				}
			}
			line(&b, rule, width)
		}
	}
	b.WriteString("\n")
	for _, n := range res.Notes {
		b.WriteString("- " + n + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func line(b *strings.Builder, row []string, width []int) {
	b.WriteString("|")
	for i, c := range row {
		pad := strings.Repeat(" ", width[i]-len([]rune(c)))
		if rightAligned[i] {
			c = pad + c
		} else {
			c += pad
		}
		b.WriteString(" " + c + " |")
	}
	b.WriteString("\n")
}

func cellsOf(r Row) []string {
	raw, rawTime, ratio := "—", "—", "—"
	if r.Raw != "" {
		raw, rawTime, ratio = r.Raw, duration(r.RawTime), fmt.Sprintf("%.2f×", r.Ratio())
	}
	target, verdict := "—", "—"
	if v := r.Verdict(); v != "" {
		target, verdict = r.Target.String(), v
	}
	return []string{r.Step, thousands(r.Events), duration(r.Time), thousands(int64(r.EventsPerSec())),
		fmt.Sprintf("%.0f", r.PeakRSSMiB), raw, rawTime, ratio, target, verdict}
}

// duration prints seconds from one second up, milliseconds below.
func duration(d time.Duration) string {
	if d >= time.Second {
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}

// round prints a target's time as written: 1.5 s, 100 ms.
func round(d time.Duration) string {
	if d >= time.Second {
		return fmt.Sprintf("%g s", d.Seconds())
	}
	return fmt.Sprintf("%g ms", float64(d)/float64(time.Millisecond))
}

// thousands prints n with comma separators.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
