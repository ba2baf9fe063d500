package ingest

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// rootedTrace writes, as one OTLP/JSON line, the spans of a run whose root
// is no agent span but an HTTP server span over GenAI spans (a web service
// that calls a model and a tool), keeping those keep picks.
func rootedTrace(t *testing.T, keep func(name string) bool) string {
	t.Helper()
	td := ptrace.NewTraces()
	ss := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty()
	tid := pcommon.TraceID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	base := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	spans := []struct {
		id, parent byte
		name       string
		from, to   time.Duration
		attrs      []string
	}{
		{2, 1, "chat gpt-4o", 10 * time.Millisecond, 400 * time.Millisecond, []string{"gen_ai.operation.name", "chat"}},
		{3, 1, "execute_tool search", 500 * time.Millisecond, 900 * time.Millisecond,
			[]string{"gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "search", "gen_ai.tool.call.id", "c1"}},
		{1, 0, "POST /chat", 0, time.Second, []string{"http.request.method", "POST"}},
	}
	for _, s := range spans {
		if !keep(s.name) {
			continue
		}
		sp := ss.Spans().AppendEmpty()
		sp.SetTraceID(tid)
		sp.SetSpanID(pcommon.SpanID{0, 0, 0, 0, 0, 0, 0, s.id})
		if s.parent != 0 {
			sp.SetParentSpanID(pcommon.SpanID{0, 0, 0, 0, 0, 0, 0, s.parent})
		}
		sp.SetName(s.name)
		sp.SetStartTimestamp(pcommon.NewTimestampFromTime(base.Add(s.from)))
		sp.SetEndTimestamp(pcommon.NewTimestampFromTime(base.Add(s.to)))
		for i := 0; i+1 < len(s.attrs); i += 2 {
			sp.Attributes().PutStr(s.attrs[i], s.attrs[i+1])
		}
	}
	b, err := new(ptrace.JSONMarshaler).MarshalTraces(td)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// TestOTLPRootAloneAfterLeaves: a run whose root is a plain HTTP span may
// send its GenAI leaves first and its root alone, last. The root's file
// holds no GenAI span, yet it completes a stored trace: it is ingested and
// the run is the one the whole trace gives (it was refused as "no agent
// spans", and the run never appeared).
func TestOTLPRootAloneAfterLeaves(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	whole := openDB(t)
	if _, err := File(ctx, whole, writeFile(t, dir, "whole.jsonl", rootedTrace(t, func(string) bool { return true })), Options{}); err != nil {
		t.Fatal(err)
	}
	split := openDB(t)
	leaves := writeFile(t, dir, "leaves.jsonl", rootedTrace(t, func(n string) bool { return n != "POST /chat" }))
	root := writeFile(t, dir, "root.jsonl", rootedTrace(t, func(n string) bool { return n == "POST /chat" }))
	if res, err := File(ctx, split, leaves, Options{}); err != nil || res.Events != 0 {
		t.Fatalf("leaves: %+v %v, want accepted with no events yet", res, err)
	}
	if _, err := File(ctx, split, root, Options{}); err != nil {
		t.Fatalf("root alone: %v", err)
	}
	q := "SELECT type || ' ' || coalesce(tool, '') FROM events ORDER BY ALL"
	got, want := strings.Join(queryStrings(t, split, q), ","), strings.Join(queryStrings(t, whole, q), ",")
	if got != want || !strings.Contains(want, "tool_call search") {
		t.Errorf("events of leaves then root: %s\nwhole trace: %s", got, want)
	}
	// A file of plain spans of no stored trace is still refused.
	other := writeFile(t, dir, "plain.jsonl", strings.ReplaceAll(rootedTrace(t, func(n string) bool { return n == "POST /chat" }),
		`"traceId":"0102`, `"traceId":"ff02`))
	if _, err := File(ctx, openDB(t), other, Options{}); err == nil || !strings.Contains(err.Error(), "no agent spans") {
		t.Errorf("plain spans alone: %v, want no agent spans", err)
	}
}
