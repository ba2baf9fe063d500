package otlp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// Batch is the spans of one input (a file, or one request to a receiver)
// and, added to them, the spans that earlier inputs held of the same
// traces. OpenTelemetry exporters send a trace's spans as they end, in as
// many batches as they like, so a trace (and the run in it) is often split
// over several files or requests; runs are therefore assembled by trace id
// from every span of the trace seen so far, not per input.
//
// The ingest layer uses it so (ingest/otlp.go):
//
//	b, _ := otlp.ReadBatch(r)            // the new input
//	for each stored document of b.TraceIDs(): b.AddStored(doc)
//	b.WriteRuns(opts, w)                 // the runs of those traces, whole
//	b.EachTraceDoc(store)                // each trace's spans, to store for the next input
//
// and replaces the events of those traces' runs that earlier inputs wrote.
type Batch struct {
	c      collector
	stored []*span
	seen   map[spanKey]bool
}

// spanKey identifies a span: a re-delivered span (at-least-once exporters)
// has the same trace and span id.
type spanKey struct{ trace, span string }

// ReadBatch reads OTLP/JSON from r as Convert does. The error is a read
// failure; lines that are not OTLP/JSON are in Stats().Rejected.
func ReadBatch(r io.Reader) (*Batch, error) {
	b := &Batch{seen: map[spanKey]bool{}}
	if err := b.c.read(r); err != nil {
		return b, err
	}
	for _, s := range b.c.spans {
		b.seen[spanKey{s.traceID, s.spanID}] = true
	}
	return b, nil
}

// Stats returns the accounting of the input read (stored spans added later
// are not counted in it).
func (b *Batch) Stats() Stats { return b.c.stats }

// TraceIDs returns the ids of the traces the input holds spans of, in the
// order they first appear. The empty trace id (invalid OTLP) is left out:
// such spans are never assembled with another input.
func (b *Batch) TraceIDs() []string {
	var ids []string
	seen := map[string]bool{}
	for _, s := range b.c.spans {
		if s.traceID != "" && !seen[s.traceID] && s.traceID != emptyTraceID {
			seen[s.traceID] = true
			ids = append(ids, s.traceID)
		}
	}
	return ids
}

// emptyTraceID is how pdata prints a missing trace id.
const emptyTraceID = "00000000000000000000000000000000"

// AddStored adds the spans of an OTLP/JSON document that an earlier input
// held (as TraceDocs wrote it). Spans already present (the same trace and
// span id) are skipped, so a re-delivered span counts once.
func (b *Batch) AddStored(doc []byte) error {
	td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(doc)
	if err != nil {
		return fmt.Errorf("stored spans: %w", err)
	}
	var c collector
	c.addTraces(td)
	for _, s := range c.spans {
		k := spanKey{s.traceID, s.spanID}
		if b.seen[k] {
			continue
		}
		b.seen[k] = true
		b.stored = append(b.stored, s)
	}
	return nil
}

// all returns the stored spans, then the input's, numbered in that order.
func (b *Batch) all() []*span {
	spans := make([]*span, 0, len(b.stored)+len(b.c.spans))
	spans = append(spans, b.stored...)
	spans = append(spans, b.c.spans...)
	for i, s := range spans {
		s.order, s.parent = i, nil
	}
	return spans
}

// WriteRuns writes the runs of every span (stored and read) to w as
// contract events, as Convert does. Spans that form no run are not an error
// here: whether an input without agent spans is refused is the caller's
// decision (HasGenAI), since a trace's root may come after its leaves.
func (b *Batch) WriteRuns(opts Options, w io.Writer) error {
	return b.writeRuns(opts, w, nil)
}

// writeRuns is WriteRuns, counting the runs written and the input's spans
// taken into them in stats when it is not nil (Convert's accounting; the
// ingest path, whose batches hold stored spans too, has no use for it).
func (b *Batch) writeRuns(opts Options, w io.Writer, stats *Stats) error {
	// Traces that use the faultlens.* convention are decoded by it; the
	// others by the generic mapping, which the convention then completes.
	conv, rest := splitConvention(b.all())
	runs := findRuns(rest)
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, r := range runs {
		if stats != nil {
			stats.AgentSpans += 1 + len(r.members)
		}
		for _, ev := range completeRun(r, mapRun(r, opts.Suite)) {
			if err := enc.Encode(ev); err != nil {
				return fmt.Errorf("otlp %s: write: %w", opts.Source, err)
			}
		}
	}
	convEvents, convRuns, convSpans := conventionRuns(conv, opts.Suite)
	for _, ev := range convEvents {
		if err := enc.Encode(ev); err != nil {
			return fmt.Errorf("otlp %s: write: %w", opts.Source, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("otlp %s: write: %w", opts.Source, err)
	}
	if stats != nil {
		stats.AgentSpans += convSpans
		stats.Runs = len(runs) + convRuns
		stats.NonAgentSpans = stats.Spans - stats.AgentSpans
	}
	return nil
}

// EachTraceDoc calls fn, for each trace of the input in TraceIDs order,
// with every span known of it, stored and read, as one OTLP/JSON document:
// what to store so that the next input of the trace can be assembled with
// it. One document is built at a time.
func (b *Batch) EachTraceDoc(fn func(traceID string, doc []byte) error) error {
	byTrace := map[string][]*span{}
	for _, s := range b.all() {
		byTrace[s.traceID] = append(byTrace[s.traceID], s)
	}
	for _, id := range b.TraceIDs() {
		doc, err := traceDoc(byTrace[id])
		if err != nil {
			return fmt.Errorf("store spans of trace %s: %w", id, err)
		}
		if err := fn(id, doc); err != nil {
			return err
		}
	}
	return nil
}

// traceDoc writes spans as one OTLP/JSON document. Spans read under one
// resource and scope stay together, so that the document repeats neither.
func traceDoc(spans []*span) ([]byte, error) {
	type group struct {
		res   pcommon.Resource
		scope pcommon.InstrumentationScope
	}
	td := ptrace.NewTraces()
	groups := map[group]ptrace.SpanSlice{}
	for _, s := range spans {
		g := group{s.rawResource, s.rawScope}
		out, ok := groups[g]
		if !ok {
			rs := td.ResourceSpans().AppendEmpty()
			s.rawResource.CopyTo(rs.Resource())
			ss := rs.ScopeSpans().AppendEmpty()
			s.rawScope.CopyTo(ss.Scope())
			out = ss.Spans()
			groups[g] = out
		}
		s.raw.CopyTo(out.AppendEmpty())
	}
	return (&ptrace.JSONMarshaler{}).MarshalTraces(td)
}

// HasGenAI reports whether the input, with the spans stored of its traces
// (AddStored), holds a span that an instrumentation family or a general
// rule reads (family.go): such spans are kept even before they form a run,
// since the rest of their trace may come in a later input; and an input of
// plain spans (the HTTP root of a run whose GenAI leaves came earlier)
// completes them.
func (b *Batch) HasGenAI() bool {
	for _, spans := range [][]*span{b.c.spans, b.stored} {
		for _, s := range spans {
			if s.role != roleNone {
				return true
			}
		}
	}
	return false
}
