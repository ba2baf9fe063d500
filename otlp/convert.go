package otlp

import (
	"fmt"
	"io"
)

// Options configure a conversion.
type Options struct {
	// Suite names the run set of every run (the --suite flag). When empty,
	// each run takes the service.name of its root span's resource, else
	// "otlp".
	Suite string
	// Source names the input (a file name) in error messages.
	Source string
}

// Stats counts what a conversion read and wrote.
type Stats struct {
	// Lines is the number of lines read, and always equals SpanLines +
	// MetricLines + LogLines + BlankLines + len(Rejected). A single
	// (pretty-printed) document counts as one line however many it spans;
	// Rejected.Line still gives physical line numbers.
	Lines int
	// SpanLines, MetricLines and LogLines count the OTLP/JSON objects
	// holding resourceSpans, resourceMetrics and resourceLogs. A single
	// document counts once, however many lines it spans.
	SpanLines   int
	MetricLines int
	LogLines    int
	// BlankLines counts lines holding only white space, which are skipped.
	BlankLines int
	// Spans is the number of spans read.
	Spans int
	// AgentSpans counts the spans taken into runs: each run's root span and
	// the GenAI and OpenInference spans below it.
	AgentSpans int
	// NonAgentSpans counts the other spans (plain HTTP, gRPC, database
	// spans, and GenAI spans outside any run), which are left out.
	NonAgentSpans int
	// UnreadSpans counts the spans that no instrumentation family and no
	// general rule read (family.go): plain HTTP, gRPC and database spans,
	// and the spans of any framework faultlens does not know. Many of them
	// beside few runs say that a family is missing.
	UnreadSpans int
	// Runs is the number of runs written.
	Runs int
	// Rejected lists the lines that are not OTLP/JSON, in input order.
	Rejected []Rejected
}

// Rejected is a line (or a document, by its first line) that could not be
// read. It is reported, never fatal: the other lines are still converted.
type Rejected struct {
	// Line is the 1-based line number.
	Line int
	// Reason is a short fixed phrase, fit for counting, such as
	// "malformed json" or "invalid OTLP traces".
	Reason string
	// Detail is the parser's message, when there is one.
	Detail string
	// Text is the start of the line (at most 1 KiB), as valid UTF-8.
	Text string
}

// Convert reads OTLP/JSON traces from r and writes their agent runs to w as
// contract events, one JSON object per line, run after run, each run's
// events in seq order. Lines that are not OTLP/JSON are returned in
// Stats.Rejected. The error is a read or write failure, or an
// *NoAgentSpansError (errors.Is ErrNoAgentSpans) when spans were read but
// none belongs to an agent run; Stats are filled in either case.
func Convert(r io.Reader, opts Options, w io.Writer) (Stats, error) {
	b, err := ReadBatch(r)
	if err != nil {
		return b.Stats(), fmt.Errorf("otlp %s: read: %w", opts.Source, err)
	}
	// A batch read on its own holds no stored spans, so every span counted
	// is the input's.
	stats := b.Stats()
	if err := b.writeRuns(opts, w, &stats); err != nil {
		return stats, err
	}
	if stats.Spans > 0 && stats.Runs == 0 {
		return stats, &NoAgentSpansError{Spans: stats.Spans}
	}
	return stats, nil
}
