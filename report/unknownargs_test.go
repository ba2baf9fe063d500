package report

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/internal/testdb"
	"github.com/faultlens/faultlens/metrics"
)

// The plain agent records no arguments: its five search calls are counted
// as calls with unknown arguments in the text report, one exact line.
func TestUnknownArgsLineFromTrace(t *testing.T) {
	s := testdb.Session(t, testdb.Load(t, testdb.Files(t, plainAgentRuns())...), metrics.Open)
	rep, err := s.Report(context.Background(), metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Text(&b, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	want := "  calls with unknown arguments (never counted as re-sends or duplicates): search 5\n"
	if !strings.Contains(b.String(), "\n"+want) {
		t.Errorf("text report lacks the line %q:\n%s", want, b.String())
	}
}

// Every format but CSV lists the tools in name order with their counts,
// leaves out a tool counted 0, and says nothing when no call has unknown
// arguments.
func TestUnknownArgsPerFormat(t *testing.T) {
	rep := &metrics.Report{ReportVersion: 1, Suites: []metrics.Suite{{
		Suite: "s", Runs: 3, UnknownArgs: map[string]int64{"search": 5, "fetch": 2, "write": 0},
	}}}
	want := map[string]string{
		"text":     "\n  calls with unknown arguments (never counted as re-sends or duplicates): fetch 2, search 5\n",
		"markdown": "\nCalls with unknown arguments (never counted as re-sends or duplicates): fetch 2, search 5.\n\n",
		"html":     "\n<p>Calls with unknown arguments (never counted as re-sends or duplicates): fetch 2, search 5.</p>\n",
	}
	for format, line := range want {
		var b bytes.Buffer
		if err := Write(&b, rep, format, Options{}); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(b.String(), line); n != 1 {
			t.Errorf("%s report has %d times %q, want once", format, n, line)
		}
		if strings.Contains(b.String(), "write 0") {
			t.Errorf("%s report lists a tool with no call of unknown arguments", format)
		}
	}
	rep.Suites[0].UnknownArgs = nil
	for format := range want {
		var b bytes.Buffer
		if err := Write(&b, rep, format, Options{}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.ToLower(b.String()), "unknown arguments") {
			t.Errorf("%s report speaks of unknown arguments when there are none", format)
		}
	}
}
