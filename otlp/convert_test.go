package otlp

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/internal/golden"
)

// goldenCase is one fixture, the stats it must give, and the golden file
// holding its exact output.
type goldenCase struct {
	fixture string
	opts    Options
	golden  string
	stats   Stats
	err     string
}

var goldenCases = []goldenCase{
	{
		fixture: "genai_basic.jsonl",
		golden:  "genai_basic.want.jsonl",
		stats:   Stats{Lines: 2, SpanLines: 2, Spans: 6, AgentSpans: 5, NonAgentSpans: 1, UnreadSpans: 1, Runs: 1},
	},
	{
		fixture: "tool_errors.jsonl",
		golden:  "tool_errors.want.jsonl",
		stats:   Stats{Lines: 1, SpanLines: 1, Spans: 26, AgentSpans: 26, Runs: 1},
	},
	{
		fixture: "retries.jsonl",
		golden:  "retries.want.jsonl",
		stats:   Stats{Lines: 1, SpanLines: 1, Spans: 18, AgentSpans: 18, Runs: 1},
	},
	{
		fixture: "plan.jsonl",
		golden:  "plan.want.jsonl",
		stats:   Stats{Lines: 1, SpanLines: 1, Spans: 7, AgentSpans: 6, NonAgentSpans: 1, UnreadSpans: 1, Runs: 1},
	},
	{
		fixture: "openinference.jsonl",
		golden:  "openinference.want.jsonl",
		stats:   Stats{Lines: 2, SpanLines: 2, Spans: 10, AgentSpans: 10, Runs: 2},
	},
	{
		fixture: "old_attrs.jsonl",
		golden:  "old_attrs.want.jsonl",
		stats:   Stats{Lines: 1, SpanLines: 1, Spans: 4, AgentSpans: 4, UnreadSpans: 1, Runs: 1},
	},
	{
		fixture: "pretty_document.json",
		golden:  "small_run.want.jsonl",
		stats:   Stats{Lines: 1, SpanLines: 1, Spans: 3, AgentSpans: 3, Runs: 1},
	},
	{
		fixture: "collector_lines.jsonl",
		golden:  "small_run.want.jsonl",
		stats:   Stats{Lines: 5, SpanLines: 2, MetricLines: 1, LogLines: 1, BlankLines: 1, Spans: 3, AgentSpans: 3, Runs: 1},
	},
	{
		fixture: "mixed_signals.jsonl",
		golden:  "mixed_signals.want.jsonl",
		stats: Stats{Lines: 9, SpanLines: 2, MetricLines: 1, LogLines: 1, BlankLines: 1, Spans: 3, AgentSpans: 3, Runs: 1,
			Rejected: []Rejected{
				{Line: 3, Reason: reasonMalformed},
				{Line: 6, Reason: reasonNotObject},
				{Line: 7, Reason: reasonNotOTLP},
				{Line: 8, Reason: reasonBadTraces},
			}},
	},
	{
		fixture: "multi_roots.jsonl",
		golden:  "multi_roots.want.jsonl",
		stats:   Stats{Lines: 1, SpanLines: 1, Spans: 7, AgentSpans: 6, NonAgentSpans: 1, UnreadSpans: 1, Runs: 2},
	},
	{
		fixture: "genai_basic.jsonl",
		opts:    Options{Suite: "nightly-2026-11-28"},
		golden:  "genai_basic_suite.want.jsonl",
		stats:   Stats{Lines: 2, SpanLines: 2, Spans: 6, AgentSpans: 5, NonAgentSpans: 1, UnreadSpans: 1, Runs: 1},
	},
	{
		fixture: "no_agent.jsonl",
		golden:  "no_agent.want.jsonl",
		stats:   Stats{Lines: 2, SpanLines: 2, Spans: 3, NonAgentSpans: 3, UnreadSpans: 2},
		err:     "no agent spans found (3 spans read)",
	},
}

func TestConvertGolden(t *testing.T) {
	for _, tc := range goldenCases {
		t.Run(strings.TrimSuffix(tc.golden, ".want.jsonl")+"/"+tc.fixture, func(t *testing.T) {
			got, stats, err := convertFile(t, filepath.Join("testdata", tc.fixture), tc.opts)
			checkErr(t, err, tc.err)
			checkStats(t, stats, tc.stats)
			golden.Check(t, filepath.Join("testdata", tc.golden), got)
			checkContract(t, got)
		})
	}
}

// convertFile converts one fixture.
func convertFile(t *testing.T, path string, opts Options) ([]byte, Stats, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }() // read only
	var out bytes.Buffer
	if opts.Source == "" {
		opts.Source = filepath.Base(path)
	}
	stats, err := Convert(f, opts, &out)
	return out.Bytes(), stats, err
}

// checkErr compares an error with the message wanted ("" for none).
func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatalf("Convert: unexpected error %v", err)
	case want != "" && (err == nil || err.Error() != want):
		t.Fatalf("Convert error = %v, want %q", err, want)
	case want != "" && !errors.Is(err, ErrNoAgentSpans):
		t.Fatalf("errors.Is(%v, ErrNoAgentSpans) = false", err)
	}
}

// checkStats compares stats, and of each rejected line its number and reason.
func checkStats(t *testing.T, got, want Stats) {
	t.Helper()
	var gotRej []Rejected
	for _, r := range got.Rejected {
		if r.Text == "" {
			t.Errorf("rejected line %d keeps no text", r.Line)
		}
		gotRej = append(gotRej, Rejected{Line: r.Line, Reason: r.Reason})
	}
	got.Rejected = gotRej
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stats:\n got %+v\nwant %+v", got, want)
	}
}
