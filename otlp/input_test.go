package otlp

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// smallRunLines returns the spans of the small-run fixture as one
// collector line.
func smallRunLine(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/pretty_document.json")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for _, l := range strings.Split(string(b), "\n") {
		out.WriteString(strings.TrimSpace(l))
	}
	return out.String()
}

func TestConvertInputForms(t *testing.T) {
	line := smallRunLine(t)
	pretty, err := os.ReadFile("testdata/pretty_document.json")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/small_run.want.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		input  string
		out    []byte
		stats  Stats
		detail string // a part of the first rejection's detail
	}{
		{
			name:  "empty input",
			input: "",
			stats: Stats{},
		},
		{
			name:  "blank lines only",
			input: "\n  \n\t\n",
			stats: Stats{Lines: 3, BlankLines: 3},
		},
		{
			name:  "byte order mark and CRLF",
			input: "\xEF\xBB\xBF" + line + "\r\n\r\n",
			out:   want,
			stats: Stats{Lines: 2, SpanLines: 1, BlankLines: 1, Spans: 3, AgentSpans: 3, Runs: 1},
		},
		{
			name:  "last line without newline",
			input: "\n" + line,
			out:   want,
			stats: Stats{Lines: 2, SpanLines: 1, BlankLines: 1, Spans: 3, AgentSpans: 3, Runs: 1},
		},
		{
			name:  "pretty document after blank lines",
			input: "\n\n" + string(pretty),
			out:   want,
			stats: Stats{Lines: 3, SpanLines: 1, BlankLines: 2, Spans: 3, AgentSpans: 3, Runs: 1},
		},
		{
			name:   "broken pretty document is one rejection at its first line",
			input:  "\n" + strings.Replace(string(pretty), `"name": "chat small-model",`, `"name": "chat small-model"`, 1),
			stats:  Stats{Lines: 2, BlankLines: 1, Rejected: []Rejected{{Line: 2, Reason: reasonMalformed}}},
			detail: "(line 80)", // the missing comma is at the end of line 79
		},
		{
			name:  "broken first line of collector output is a rejected line",
			input: `{"resourceSpans":[` + "\n" + line + "\n",
			out:   want,
			stats: Stats{Lines: 2, SpanLines: 1, Spans: 3, AgentSpans: 3, Runs: 1, Rejected: []Rejected{{Line: 1, Reason: reasonMalformed}}},
		},
		{
			name:  "null and a string are not objects",
			input: "null\n\"resourceSpans\"\n",
			stats: Stats{Lines: 2, Rejected: []Rejected{{Line: 1, Reason: reasonNotObject}, {Line: 2, Reason: reasonNotObject}}},
		},
		{
			name:  "empty OTLP object is not OTLP",
			input: "{}\n",
			stats: Stats{Lines: 1, Rejected: []Rejected{{Line: 1, Reason: reasonNotOTLP}}},
		},
		{
			name:  "trailing data after an object",
			input: line + " {}\n",
			stats: Stats{Lines: 1, Rejected: []Rejected{{Line: 1, Reason: reasonMalformed}}},
		},
		{
			name:  "snake_case keys",
			input: `{"resource_metrics":[]}` + "\n" + `{"resource_logs":[]}` + "\n" + `{"resource_spans":[]}` + "\n",
			stats: Stats{Lines: 3, SpanLines: 1, MetricLines: 1, LogLines: 1},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			stats, err := Convert(strings.NewReader(tc.input), Options{Source: "inline"}, &out)
			if err != nil {
				t.Fatalf("Convert: %v", err)
			}
			if tc.detail != "" && (len(stats.Rejected) == 0 || !strings.Contains(stats.Rejected[0].Detail, tc.detail)) {
				t.Errorf("rejections %+v, want a detail containing %q", stats.Rejected, tc.detail)
			}
			checkStats(t, stats, tc.stats)
			if !bytes.Equal(out.Bytes(), tc.out) {
				t.Errorf("output:\n%s\nwant:\n%s", out.Bytes(), tc.out)
			}
		})
	}
}

func TestConvertLongLine(t *testing.T) {
	// A collector line can be far longer than bufio.Scanner's default limit.
	line := smallRunLine(t)
	padded := strings.Replace(line, `"name":"fixture"`, `"name":"`+strings.Repeat("x", 1<<20)+`"`, 1)
	stats, err := Convert(strings.NewReader(padded+"\n"), Options{}, io.Discard)
	if err != nil || stats.Spans != 3 || stats.Runs != 1 {
		t.Fatalf("Convert = %+v, %v; want 3 spans in 1 run", stats, err)
	}
}

func TestConvertRejectedTextIsClipped(t *testing.T) {
	long := "{" + strings.Repeat("é", 1200)
	stats, err := Convert(strings.NewReader(long+"\n"+smallRunLine(t)+"\n"), Options{}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(stats.Rejected) != 1 {
		t.Fatalf("rejected %+v, want one line", stats.Rejected)
	}
	if text := stats.Rejected[0].Text; len(text) > maxRejectedText || !strings.HasPrefix(long, text) {
		t.Errorf("rejected text is %d bytes, want a prefix of at most %d", len(text), maxRejectedText)
	}
}

func TestConvertReadError(t *testing.T) {
	broken := io.MultiReader(strings.NewReader(smallRunLine(t)+"\n"), iotest.ErrReader(errors.New("disk on fire")))
	_, err := Convert(broken, Options{Source: "trace.jsonl"}, io.Discard)
	if err == nil || err.Error() != "otlp trace.jsonl: read: disk on fire" {
		t.Fatalf("Convert error = %v, want the read error with the source", err)
	}
}

func TestConvertWriteError(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "retries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }() // read only
	_, err = Convert(f, Options{Source: "retries.jsonl"}, failingWriter{})
	if err == nil || !strings.HasPrefix(err.Error(), "otlp retries.jsonl: write: ") {
		t.Fatalf("Convert error = %v, want a write error", err)
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("pipe closed") }
