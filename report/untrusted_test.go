package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/metrics"
)

// A suite, scenario, tool or reason name from a trace must be inert in every
// output: no escape sequence reaches a terminal, no table breaks in
// Markdown, no formula runs in a spreadsheet.
func TestUntrustedStringsAreInert(t *testing.T) {
	evil := "x\x1b]52;c;SGVsbG8=\x07\x1b[31m|\u202e=cmd"
	rep := &metrics.Report{
		ReportVersion: 1,
		Rejected:      metrics.Rejected{Lines: 1, ByReason: map[string]int64{evil: 1}},
		Suites: []metrics.Suite{{
			Suite:       evil,
			Runs:        1,
			Recovery:    []metrics.RecoveryRow{{Category: evil, Tool: evil, Chains: 1, Failed: 1}},
			Latency:     []metrics.LatencyRow{{Scope: "tool", Name: evil, N: 1}},
			Scenarios:   []metrics.ScenarioPart{{Scenario: evil, Runs: 1}, {Scenario: "=1+1", Runs: 1}},
			UnknownArgs: map[string]int64{evil: 1},
		}},
	}
	rep.Suites[0].Metrics.InvalidRetry.ByReason = map[string]int64{}
	for _, format := range []string{"text", "markdown", "csv", "html"} {
		var b bytes.Buffer
		if err := Write(&b, rep, format, Options{}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, bad := range []string{"\x1b", "\x07", "\u202e"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s output contains %q", format, bad)
			}
		}
		switch format {
		case "markdown":
			if strings.Contains(out, "m|") {
				t.Errorf("markdown output has an unescaped pipe from a trace string")
			}
		case "csv":
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(line, "=") || strings.Contains(line, ",=") {
					t.Errorf("csv cell starts with a formula: %q", line)
				}
			}
		}
	}
}

// In HTML a trace string must stay text: no element it names is created,
// its angle brackets arrive escaped, in tables and in chart labels alike.
func TestUntrustedStringsStayTextInHTML(t *testing.T) {
	evil := `<script>alert(1)</script><img src=x onerror=alert(2)>"'&`
	rep := &metrics.Report{
		ReportVersion: 1,
		Rejected:      metrics.Rejected{Lines: 1, ByReason: map[string]int64{evil: 1}},
		Suites: []metrics.Suite{{
			Suite:         evil,
			Runs:          1,
			Recovery:      []metrics.RecoveryRow{{Category: evil, Tool: evil, Chains: 1, Failed: 1}},
			EvidenceGrade: []metrics.GradeRow{{Path: evil, Count: 1}},
			Latency:       []metrics.LatencyRow{{Scope: "tool", Name: evil, N: 1}},
			Scenarios:     []metrics.ScenarioPart{{Scenario: evil, Runs: 1}},
			UnknownArgs:   map[string]int64{evil: 1},
		}},
	}
	rep.Suites[0].Metrics.InvalidRetry.ByReason = map[string]int64{evil: 1}
	var b bytes.Buffer
	if err := Write(&b, rep, "html", Options{}); err != nil {
		t.Fatal(err)
	}
	out := strings.ToLower(b.String())
	for _, bad := range []string{"<script", "<img"} {
		if strings.Contains(out, bad) {
			t.Errorf("html output contains raw %q", bad)
		}
	}
	if n := strings.Count(out, "&lt;script&gt;"); n < 8 {
		t.Errorf("want the trace string escaped in every place it appears, found &lt;script&gt; %d times", n)
	}
}
