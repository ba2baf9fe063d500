package otlp

import (
	"bytes"
	"errors"
	"os"
	"testing"
)

// realCollectorExport is an OpenTelemetry Collector file exporter capture of
// the OpenTelemetry demo shop, shared by the ingest tests (see its README).
const realCollectorExport = "../../shared/real-traces/otel-demo-collector-export.jsonl"

func TestConvertRealCollectorExport(t *testing.T) {
	f, err := os.Open(realCollectorExport)
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("%s is absent", realCollectorExport)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }() // read only
	var out bytes.Buffer
	stats, err := Convert(f, Options{Source: "otel-demo-collector-export.jsonl"}, &out)
	want := Stats{Lines: 97, SpanLines: 41, MetricLines: 40, LogLines: 16, Spans: 547, NonAgentSpans: 547, UnreadSpans: 547}
	checkStats(t, stats, want)
	if !errors.Is(err, ErrNoAgentSpans) {
		t.Fatalf("Convert error = %v, want ErrNoAgentSpans", err)
	}
	if got := err.Error(); got != "no agent spans found (547 spans read)" {
		t.Errorf("error message = %q", got)
	}
	var nae *NoAgentSpansError
	if !errors.As(err, &nae) || nae.Spans != 547 {
		t.Errorf("errors.As(%v) = %+v, want 547 spans", err, nae)
	}
	if out.Len() != 0 {
		t.Errorf("wrote %d bytes for a trace without agents, want none:\n%s", out.Len(), out.Bytes())
	}
	if b, err := os.ReadFile(realCollectorExport); err == nil && !Sniff(b[:4096]) {
		t.Errorf("Sniff says the collector export is not OTLP")
	}
}

func TestConvertRealSpansClassifiedAsPlain(t *testing.T) {
	// The demo's spans carry error statuses and exception events but no GenAI
	// attributes: none of them may be taken for an agent, model or tool span.
	b, err := os.ReadFile(realCollectorExport)
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("%s is absent", realCollectorExport)
	}
	if err != nil {
		t.Fatal(err)
	}
	var c collector
	if err := c.read(bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, s := range c.spans {
		if s.role != roleNone {
			t.Errorf("span %q classified as role %d", s.name, s.role)
		}
		if s.failed {
			failed++
		}
	}
	if failed != 107 {
		t.Errorf("%d failed spans, want the 107 with status ERROR", failed)
	}
}
