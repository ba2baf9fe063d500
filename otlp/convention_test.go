package otlp

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
)

// An agent instrumented by hand with the convention: a run with a task, a
// planning stage, a write that times out and is re-sent with its
// idempotency key, an evidence claim on the re-send and a terminal. Every
// field is the one the spans state; what they leave out (stage id, stage
// outcome, tool status and error) is completed from the span as the
// generic mapping would.
func TestConventionAgent(t *testing.T) {
	got, stats := conventionFile(t, "testdata/convention/agent.json", Options{})
	want := []string{
		`{"otel":{"span_id":"eee19b7ec3c1b174","trace_id":"5b8efff798038103d269b633813fc60c"},"run_id":"5b8efff798038103d269b633813fc60c","started_at":"2025-11-28T02:00:00Z","suite":"agent","task":{"evidence_required":1,"kind":"lookup"},"ts":"2025-11-28T02:00:00Z","type":"run"}`,
		`{"otel":{"span_id":"eee19b7ec3c1b174","trace_id":"5b8efff798038103d269b633813fc60c"},"run_id":"5b8efff798038103d269b633813fc60c","terminal":"completed","ts":"2025-11-28T02:00:09Z","type":"terminal","visible_chars":42}`,
		`{"ended_at":"2025-11-28T02:00:00.5Z","otel":{"span_id":"eee19b7ec3c1b175","trace_id":"5b8efff798038103d269b633813fc60c"},"outcome":"ok","run_id":"5b8efff798038103d269b633813fc60c","stage":"planning","stage_id":"eee19b7ec3c1b175","started_at":"2025-11-28T02:00:00.1Z","ts":"2025-11-28T02:00:00.5Z","type":"stage"}`,
		`{"action_id":"save","call_id":"call-1","ended_at":"2025-11-28T02:00:02Z","error":{"category":"TIMEOUT","code":"TimeoutError","retryable":true},"idempotency_key":"k-1","otel":{"span_id":"eee19b7ec3c1b176","trace_id":"5b8efff798038103d269b633813fc60c"},"run_id":"5b8efff798038103d269b633813fc60c","side_effect":"write","started_at":"2025-11-28T02:00:01Z","status":"error","tool":"write","ts":"2025-11-28T02:00:02Z","type":"tool_call"}`,
		`{"action_id":"save","attempt":2,"call_id":"call-2","ended_at":"2025-11-28T02:00:04Z","idempotency_key":"k-1","otel":{"span_id":"eee19b7ec3c1b177","trace_id":"5b8efff798038103d269b633813fc60c"},"recovery":"retry","recovery_of":"call-1","run_id":"5b8efff798038103d269b633813fc60c","side_effect":"write","started_at":"2025-11-28T02:00:03Z","status":"ok","tool":"write","ts":"2025-11-28T02:00:04Z","type":"tool_call"}`,
		`{"call_id":"call-2","claim":"saved","evidence_id":"ev-1","grade":"primary","otel":{"span_id":"eee19b7ec3c1b177","trace_id":"5b8efff798038103d269b633813fc60c"},"run_id":"5b8efff798038103d269b633813fc60c","status":"confirmed","ts":"2025-11-28T02:00:04Z","type":"evidence"}`,
	}
	assertConventionLines(t, got, want)
	if stats.Runs != 1 || stats.Spans != 4 || stats.AgentSpans != 4 || stats.NonAgentSpans != 0 {
		t.Errorf("stats = %+v", stats)
	}
}

// A file may hold traces that use the convention beside traces that do
// not: each is read its own way, and a span of a convention trace without
// an event of its own is counted as a non-agent span.
func TestConventionBesideGenericTraces(t *testing.T) {
	generic := `{"resourceSpans":[{"scopeSpans":[{"spans":[` +
		`{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"b7ad6b7169203331","name":"invoke_agent a","startTimeUnixNano":"1764295200000000000","endTimeUnixNano":"1764295210000000000","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"invoke_agent"}}]},` +
		`{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"00f067aa0ba902b7","parentSpanId":"b7ad6b7169203331","name":"execute_tool search","startTimeUnixNano":"1764295201000000000","endTimeUnixNano":"1764295202000000000","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}}]}]}]}]}`
	conv := `{"resourceSpans":[{"scopeSpans":[{"spans":[` +
		`{"traceId":"11111111111111111111111111111111","spanId":"1111111111111111","name":"faultlens.run","startTimeUnixNano":"1764295200000000000","endTimeUnixNano":"1764295210000000000","attributes":[{"key":"faultlens.run.id","value":{"stringValue":"r-7"}}],"events":[{"timeUnixNano":"1764295205000000000","name":"faultlens.terminal","attributes":[{"key":"faultlens.terminal","value":{"stringValue":"failed"}},{"key":"faultlens.event.extra","value":{"stringValue":"{}"}}]},{"timeUnixNano":"1764295205000000000","name":"faultlens.unknown_thing"}]},` +
		`{"traceId":"11111111111111111111111111111111","spanId":"2222222222222222","parentSpanId":"1111111111111111","name":"GET /x","startTimeUnixNano":"1764295201000000000","endTimeUnixNano":"1764295202000000000"}]}]}]}`
	got, stats := conventionConvert(t, generic+"\n"+conv+"\n", Options{Suite: "s"})
	if len(got) != 3 || !strings.Contains(got[0], `"type":"run"`) || !strings.Contains(got[1], `"tool":"search"`) {
		t.Fatalf("generic trace: %q", got)
	}
	assertConventionLines(t, got[2:], []string{`{"run_id":"r-7","terminal":"failed","ts":"2025-11-28T02:00:05Z","type":"terminal"}`})
	if stats.Runs != 2 || stats.Spans != 4 || stats.AgentSpans != 3 || stats.NonAgentSpans != 1 {
		t.Errorf("stats = %+v", stats)
	}
}

// Values are passed on as the agent wrote them, so that ingest rejects a
// wrong one naming the field; times may be Unix nanoseconds; ts may be
// stated; extra text that is not a JSON object is kept, not dropped; run
// ids are inherited from the nearest span above that states one.
func TestConventionValues(t *testing.T) {
	in := `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"svc"}}]},"scopeSpans":[{"spans":[` +
		`{"traceId":"22222222222222222222222222222222","spanId":"1111111111111111","name":"invoke_agent x","startTimeUnixNano":"1764295200000000000","endTimeUnixNano":"1764295210000000000","attributes":[` +
		`{"key":"faultlens.event.type","value":{"stringValue":"run"}},{"key":"faultlens.run.id","value":{"stringValue":"outer"}},` +
		`{"key":"faultlens.run.deadline_ms","value":{"stringValue":"soon"}},{"key":"faultlens.event.extra","value":{"stringValue":"not json"}}]},` +
		`{"traceId":"22222222222222222222222222222222","spanId":"2222222222222222","parentSpanId":"1111111111111111","name":"sub","startTimeUnixNano":"1764295201000000000","endTimeUnixNano":"1764295209000000000","attributes":[{"key":"faultlens.run.id","value":{"stringValue":"inner"}}]},` +
		`{"traceId":"22222222222222222222222222222222","spanId":"3333333333333333","parentSpanId":"2222222222222222","name":"chat","startTimeUnixNano":"1764295202000000000","endTimeUnixNano":"1764295203000000000","status":{"code":2},"attributes":[` +
		`{"key":"faultlens.event.type","value":{"stringValue":"model_call"}},{"key":"faultlens.event.ts","value":{"intValue":"1764295204000000000"}},` +
		`{"key":"faultlens.event.seq","value":{"doubleValue":3}},{"key":"faultlens.event.extra","value":{"stringValue":"{\"vendor\":{\"a\":1.50}}"}}],` +
		`"events":[{"timeUnixNano":"1764295203500000000","name":"faultlens.tool_call","attributes":[{"key":"gen_ai.tool.call.id","value":{"stringValue":"c"}},{"key":"faultlens.started_at","value":{"intValue":"1764295203100000000"}},{"key":"faultlens.ended_at","value":{"stringValue":"2025-11-28T02:00:03.2Z"}},{"key":"faultlens.tool.evidence_ids","value":{"stringValue":"e1, e2"}},{"key":"faultlens.source.fallback","value":{"stringValue":"true"}}]}]}]}]}]}`
	got, _ := conventionConvert(t, in, Options{})
	assertConventionLines(t, got, []string{
		`{"deadline_ms":"soon","faultlens.event.extra":"not json","run_id":"outer","started_at":"2025-11-28T02:00:00Z","suite":"svc","ts":"2025-11-28T02:00:00Z","type":"run"}`,
		`{"call_id":"3333333333333333","ended_at":"2025-11-28T02:00:03Z","outcome":"failed","role":"answer","run_id":"inner","seq":3,"started_at":"2025-11-28T02:00:02Z","ts":"2025-11-28T02:00:04Z","type":"model_call","vendor":{"a":1.50}}`,
		`{"call_id":"c","ended_at":"2025-11-28T02:00:03.2Z","evidence_ids":["e1","e2"],"otel":{"span_id":"3333333333333333","trace_id":"22222222222222222222222222222222"},"run_id":"inner","source":{"fallback":true},"started_at":"2025-11-28T02:00:03.1Z","ts":"2025-11-28T02:00:03.5Z","type":"tool_call"}`,
	})
}

// The older terminal attributes on a run span state a terminal at the
// span's end, unless a faultlens.terminal span event states it; on other
// spans they mean nothing.
func TestConventionTerminalAttributes(t *testing.T) {
	span := func(id, parent, typ, events string) string {
		return `{"traceId":"33333333333333333333333333333333","spanId":"` + id + `","parentSpanId":"` + parent + `","name":"s","startTimeUnixNano":"1764295200000000000","endTimeUnixNano":"1764295210000000000","attributes":[` +
			`{"key":"faultlens.event.type","value":{"stringValue":"` + typ + `"}},{"key":"faultlens.terminal","value":{"stringValue":"partial"}},{"key":"faultlens.terminal.degradations","value":{"stringValue":"tool"}}],"events":[` + events + `]}`
	}
	doc := func(spans ...string) string {
		return `{"resourceSpans":[{"scopeSpans":[{"spans":[` + strings.Join(spans, ",") + `]}]}]}`
	}
	event := `{"timeUnixNano":"1764295205000000000","name":"faultlens.terminal","attributes":[{"key":"faultlens.terminal","value":{"stringValue":"failed"}}]}`
	got, _ := conventionConvert(t, doc(span("1111111111111111", "", "run", ""), span("2222222222222222", "1111111111111111", "stage", "")), Options{Suite: "s"})
	var terminals []string
	for _, line := range got {
		if strings.Contains(line, `"type":"terminal"`) {
			terminals = append(terminals, line)
		}
	}
	assertConventionLines(t, terminals, []string{`{"degradations":["tool"],"run_id":"33333333333333333333333333333333","terminal":"partial","ts":"2025-11-28T02:00:10Z","type":"terminal"}`})
	got, _ = conventionConvert(t, doc(span("1111111111111111", "", "run", event)), Options{Suite: "s"})
	if len(got) != 2 || !strings.Contains(got[1], `"terminal":"failed"`) {
		t.Errorf("a terminal span event wins over the attributes: %q", got)
	}
}

// The convention table carries every field of the contract
// (trace-schema.md, section 3): those below plus the structural ones
// (type, run_id, ts) and the times a span gives (started_at, ended_at).
func TestFieldsCoverContract(t *testing.T) {
	contract := map[string][]string{
		"run": {"suite", "scenario", "fault.class", "fault.kind", "fault.target_tool", "fault.expect.action", "fault.expect.terminal",
			"agent.name", "agent.version", "client_message_id", "caused_by.run_id", "caused_by.cause", "task.kind",
			"task.requires_current_evidence", "task.evidence_required", "task.min_grade", "deadline_ms", "retry_budget"},
		"stage": {"stage_id", "stage", "attempt", "enqueued_at", "outcome", "plan_valid", "failure.category", "failure.retryable",
			"failure.reason", "visible_chars", "budget_ms"},
		"tool_call": {"call_id", "action_id", "attempt", "recovery", "recovery_of", "tool", "tool_version", "tool_schema",
			"args_digest", "side_effect", "idempotency_key", "enqueued_at", "status", "error.code", "error.category",
			"error.retryable", "error.retry_after_ms", "error.side_effect_state", "error.message", "circuit", "source.name",
			"source.grade", "source.fallback", "evidence_ids", "completed_scope", "missing_scope"},
		"model_call": {"call_id", "role", "stage_id", "enqueued_at", "outcome"},
		"evidence":   {"evidence_id", "claim", "call_id", "grade", "path", "status"},
		"terminal":   {"terminal", "reason", "visible_chars", "chunks_committed", "chunks_rejected", "disclosed_gaps", "degradations"},
	}
	for typ, want := range contract {
		want = append([]string{"seq", "schema_version"}, want...)
		var got []string
		keys := map[string]bool{}
		for _, f := range Fields(typ) {
			got = append(got, f.Path)
			if keys[f.Key] {
				t.Errorf("%s: attribute %s carries two fields", typ, f.Key)
			}
			keys[f.Key] = true
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: fields %v, want %v", typ, got, want)
		}
	}
	if Fields("nope") != nil {
		t.Error("Fields of an unknown type")
	}
}

func conventionFile(t *testing.T, path string, opts Options) ([]string, Stats) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return conventionConvert(t, string(b), opts)
}

func conventionConvert(t *testing.T, in string, opts Options) ([]string, Stats) {
	t.Helper()
	var out bytes.Buffer
	stats, err := Convert(strings.NewReader(in), opts, &out)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"), stats
}

func assertConventionLines(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d:\n got %s\nwant %s", i+1, got[i], want[i])
		}
	}
}

// A trace the generic mapping reads (no faultlens.event.type, no run id)
// is completed by the convention's attributes on its spans and by its
// faultlens.* span events: the run gets its task, the tool call its side
// effect and idempotency key (the generic retry inference stays: the
// span records no arguments, so http.request.resend_count links it), the
// evidence the generic call id of the span it is on, and the terminal is
// the span event's.
func TestConventionCompletesGenericSpans(t *testing.T) {
	in := `{"resourceSpans":[{"scopeSpans":[{"spans":[` +
		`{"traceId":"44444444444444444444444444444444","spanId":"1111111111111111","name":"invoke_agent helper","startTimeUnixNano":"1764295200000000000","endTimeUnixNano":"1764295210000000000","attributes":[` +
		`{"key":"gen_ai.operation.name","value":{"stringValue":"invoke_agent"}},{"key":"faultlens.task.kind","value":{"stringValue":"lookup"}},{"key":"faultlens.task.evidence_required","value":{"intValue":"1"}}],` +
		`"events":[{"timeUnixNano":"1764295209000000000","name":"faultlens.terminal","attributes":[{"key":"faultlens.terminal","value":{"stringValue":"completed"}},{"key":"faultlens.terminal.visible_chars","value":{"intValue":"12"}}]}]},` +
		`{"traceId":"44444444444444444444444444444444","spanId":"2222222222222222","parentSpanId":"1111111111111111","name":"execute_tool save","startTimeUnixNano":"1764295201000000000","endTimeUnixNano":"1764295202000000000","status":{"code":2},"attributes":[` +
		`{"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}},{"key":"error.type","value":{"stringValue":"timeout"}},{"key":"faultlens.tool.side_effect","value":{"stringValue":"write"}},{"key":"faultlens.tool.idempotency_key","value":{"stringValue":"k"}}]},` +
		`{"traceId":"44444444444444444444444444444444","spanId":"3333333333333333","parentSpanId":"1111111111111111","name":"execute_tool save","startTimeUnixNano":"1764295203000000000","endTimeUnixNano":"1764295204000000000","attributes":[` +
		`{"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}},{"key":"http.request.resend_count","value":{"intValue":"1"}},{"key":"faultlens.tool.side_effect","value":{"stringValue":"write"}},{"key":"faultlens.tool.idempotency_key","value":{"stringValue":"k"}}],` +
		`"events":[{"timeUnixNano":"1764295204000000000","name":"faultlens.evidence","attributes":[{"key":"faultlens.evidence.id","value":{"stringValue":"e1"}},{"key":"faultlens.evidence.claim","value":{"stringValue":"saved"}},{"key":"faultlens.evidence.grade","value":{"stringValue":"primary"}},{"key":"faultlens.evidence.status","value":{"stringValue":"confirmed"}}]}]}` +
		`]}]}]}`
	got, stats := conventionConvert(t, in, Options{Suite: "s"})
	assertConventionLines(t, got, []string{
		`{"agent":{"name":"helper"},"otel":{"span_id":"1111111111111111","trace_id":"44444444444444444444444444444444"},"run_id":"44444444444444444444444444444444","seq":1,"started_at":"2025-11-28T02:00:00.000Z","suite":"s","task":{"evidence_required":1,"kind":"lookup"},"ts":"2025-11-28T02:00:00.000Z","type":"run"}`,
		`{"action_id":"2222222222222222","attempt":1,"call_id":"2222222222222222","ended_at":"2025-11-28T02:00:02.000Z","error":{"category":"TIMEOUT","code":"timeout","retryable":true},"idempotency_key":"k","otel":{"span_id":"2222222222222222","trace_id":"44444444444444444444444444444444"},"run_id":"44444444444444444444444444444444","seq":2,"side_effect":"write","started_at":"2025-11-28T02:00:01.000Z","status":"error","tool":"save","ts":"2025-11-28T02:00:01.000Z","type":"tool_call"}`,
		`{"action_id":"2222222222222222","attempt":2,"call_id":"3333333333333333","ended_at":"2025-11-28T02:00:04.000Z","idempotency_key":"k","otel":{"span_id":"3333333333333333","trace_id":"44444444444444444444444444444444"},"recovery":"retry","recovery_of":"2222222222222222","run_id":"44444444444444444444444444444444","seq":3,"side_effect":"write","started_at":"2025-11-28T02:00:03.000Z","status":"ok","tool":"save","ts":"2025-11-28T02:00:03.000Z","type":"tool_call"}`,
		`{"otel":{"span_id":"1111111111111111","trace_id":"44444444444444444444444444444444"},"run_id":"44444444444444444444444444444444","terminal":"completed","ts":"2025-11-28T02:00:09Z","type":"terminal","visible_chars":12}`,
		`{"call_id":"3333333333333333","claim":"saved","evidence_id":"e1","grade":"primary","otel":{"span_id":"3333333333333333","trace_id":"44444444444444444444444444444444"},"run_id":"44444444444444444444444444444444","status":"confirmed","ts":"2025-11-28T02:00:04Z","type":"evidence"}`,
	})
	if stats.Runs != 1 || stats.AgentSpans != 3 {
		t.Errorf("stats = %+v", stats)
	}
}

// Completing a framework's spans leaves the GenAI attributes to the
// generic mapping: a tool call id a framework re-uses for a re-send stays
// made unique.
func TestConventionCompletionKeepsGenericCallIDs(t *testing.T) {
	tool := func(id string) string {
		return `{"traceId":"55555555555555555555555555555555","spanId":"` + id + `","parentSpanId":"1111111111111111","name":"execute_tool t","startTimeUnixNano":"1764295201000000000","endTimeUnixNano":"1764295202000000000","attributes":[` +
			`{"key":"gen_ai.tool.call.id","value":{"stringValue":"same"}},{"key":"faultlens.tool.circuit","value":{"stringValue":"open"}}]}`
	}
	in := `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"55555555555555555555555555555555","spanId":"1111111111111111","name":"invoke_agent a","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"invoke_agent"}}]},` +
		tool("2222222222222222") + "," + tool("3333333333333333") + `]}]}]}`
	got, _ := conventionConvert(t, in, Options{Suite: "s"})
	var ids []string
	for _, line := range got[1:] {
		if !strings.Contains(line, `"circuit":"open"`) {
			t.Errorf("not completed: %s", line)
		}
		i := strings.Index(line, `"call_id":"`)
		ids = append(ids, line[i+11:i+11+strings.Index(line[i+11:], `"`)])
	}
	if !slices.Equal(ids, []string{"same", "3333333333333333"}) {
		t.Errorf("call ids %v, want [same 3333333333333333]", ids)
	}
}
