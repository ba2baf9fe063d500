package proxy

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func mustPlan(t *testing.T, yaml string) *Plan {
	t.Helper()
	p, err := ParsePlan("test.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// onePlan injects kind (with params) into the first call of tool.
func onePlan(t *testing.T, tool, fault string) *Plan {
	return mustPlan(t, "samples:\n  - tool: "+tool+"\n    calls: {nth: [1]}\n    fault: "+fault+"\n    expect: {action: retry, terminal: completed}\n")
}

func callTool(t *testing.T, s *mcp.ClientSession, name, text string) (*mcp.CallToolResult, error) {
	t.Helper()
	return s.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{"text": text}})
}

func resultText(r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "|")
}

// seenError is the error object a client reads from an injected fault.
func seenError(t *testing.T, r *mcp.CallToolResult) wireError {
	t.Helper()
	if !r.IsError {
		t.Fatalf("not an error result: %s", resultText(r))
	}
	b, _ := json.Marshal(r.StructuredContent)
	var s struct{ Error wireError }
	if err := json.Unmarshal(b, &s); err != nil || s.Error.Category == "" {
		t.Fatalf("structuredContent %s carries no error object", b)
	}
	return s.Error
}

// parseEvents splits the proxy's JSON Lines into tool calls and runs.
func parseEvents(t *testing.T, lines string) (calls []toolCallEvent, runs []runEvent) {
	t.Helper()
	for _, l := range strings.Split(strings.TrimSpace(lines), "\n") {
		if l == "" {
			continue
		}
		var head struct{ Type string }
		if err := json.Unmarshal([]byte(l), &head); err != nil {
			t.Fatalf("event %q: %v", l, err)
		}
		switch head.Type {
		case "tool_call":
			var e toolCallEvent
			_ = json.Unmarshal([]byte(l), &e)
			calls = append(calls, e)
		case "run":
			var e runEvent
			_ = json.Unmarshal([]byte(l), &e)
			runs = append(runs, e)
		}
	}
	return calls, runs
}

// TestFaultKindsReachTheClient: each answer-type fault kind reaches a real
// SDK client as an isError result carrying the error object, and is
// recorded with the same category; the server never sees the call.
func TestFaultKindsReachTheClient(t *testing.T) {
	argv := testServerArgv(t)
	cases := []struct {
		fault, category, code string
		retryable             bool
		retryAfterMs          int64
		message               string
	}{
		{"{kind: validation, field: max_results}", "VALIDATION", "INVALID_FIELD", false, 0, "field 'max_results' is invalid"},
		{"{kind: timeout, delay_ms: 20}", "TIMEOUT", "GATEWAY_TIMEOUT", true, 0, ""},
		{"{kind: transient}", "TRANSIENT", "UPSTREAM_503", true, 0, ""},
		{"{kind: rate_limit, retry_after_ms: 1500}", "RATE_LIMIT", "RATE_LIMITED", true, 1500, ""},
		{"{kind: unavailable}", "UNAVAILABLE", "BACKUP_UNAVAILABLE", false, 0, ""},
		{"{kind: not_found}", "NOT_FOUND", "NOT_FOUND", false, 0, ""},
		{"{kind: empty}", "EMPTY_CONTENT", "EMPTY_CONTENT", false, 0, ""},
		{"{kind: content_changed}", "CONFLICT", "CONTENT_CHANGED", false, 0, ""},
		{"{kind: authn}", "AUTHN", "UNAUTHENTICATED", false, 0, ""},
		{"{kind: authz}", "AUTHZ", "FORBIDDEN", false, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.category+" "+c.code, func(t *testing.T) {
			px := startProxied(t, argv, Options{Plan: onePlan(t, "write_note", c.fault), RunID: "r"}, "")
			r, err := callTool(t, px.session, "write_note", "a")
			if err != nil {
				t.Fatal(err)
			}
			e := seenError(t, r)
			if e.Category != c.category || e.Code != c.code || e.Retryable != c.retryable || e.RetryAfterMs != c.retryAfterMs || e.CallID != "r/c1" || e.SideEffectState != "none" {
				t.Errorf("the client saw %+v", e)
			}
			if c.message != "" && e.Message != c.message {
				t.Errorf("message %q, want %q", e.Message, c.message)
			}
			if c.retryAfterMs > 0 && e.RetryAfter != (c.retryAfterMs+999)/1000 {
				t.Errorf("retry_after %d s for %d ms", e.RetryAfter, c.retryAfterMs)
			}
			// The injected call never reached the server: its first write is still note 1.
			r, err = callTool(t, px.session, "write_note", "b")
			if err != nil || resultText(r) != "saved note 1: b" {
				t.Errorf("second call: %v %q", err, resultText(r))
			}
			calls, runs := parseEvents(t, px.stop(t))
			if len(calls) != 2 || calls[0].Status != "error" || calls[0].Error == nil || calls[0].Error.Category != c.category || calls[1].Status != "ok" {
				t.Fatalf("recorded %+v", calls)
			}
			if calls[0].Injected == nil || calls[0].Injected.Class == "" {
				t.Errorf("the injected fault is not recorded: %+v", calls[0])
			}
			if len(runs) != 1 || runs[0].Fault == nil || runs[0].Fault.TargetTool != "write_note" || runs[0].Fault.Expect.Action != "retry" {
				t.Errorf("run events %+v", runs)
			}
		})
	}
}

// TestProtocolFaults: a dropped connection and a server restart reach the
// client as JSON-RPC errors; after the restart the server is a new process
// (its note counter starts again) that the proxy initialized itself.
func TestProtocolFaults(t *testing.T) {
	argv := testServerArgv(t)
	t.Run("dropped", func(t *testing.T) {
		px := startProxied(t, argv, Options{Plan: onePlan(t, "echo", "{kind: dropped}"), RunID: "r"}, "")
		_, err := callTool(t, px.session, "echo", "x")
		if err == nil || !strings.Contains(err.Error(), "connection reset by peer") {
			t.Fatalf("want a JSON-RPC error, got %v", err)
		}
		calls, _ := parseEvents(t, px.stop(t))
		if len(calls) != 1 || calls[0].Error.Category != "TRANSIENT" {
			t.Errorf("recorded %+v", calls)
		}
	})
	t.Run("restart", func(t *testing.T) {
		plan := mustPlan(t, "samples:\n  - tool: write_note\n    calls: {nth: [2]}\n    fault: {kind: restart}\n")
		px := startProxied(t, argv, Options{Plan: plan, RunID: "r"}, "")
		if r, err := callTool(t, px.session, "write_note", "a"); err != nil || resultText(r) != "saved note 1: a" {
			t.Fatalf("first write: %v %v", err, r)
		}
		_, err := callTool(t, px.session, "write_note", "b")
		if err == nil || !strings.Contains(err.Error(), "upstream restarted") {
			t.Fatalf("want the restart's JSON-RPC error, got %v", err)
		}
		r, err := callTool(t, px.session, "write_note", "c")
		if err != nil || resultText(r) != "saved note 1: c" {
			t.Fatalf("after the restart: %v %q (a new server counts from 1)", err, resultText(r))
		}
		calls, _ := parseEvents(t, px.stop(t))
		if len(calls) != 3 || calls[1].Status != "error" || calls[1].Error.Code != "UPSTREAM_RESTART" || calls[2].Status != "ok" {
			t.Errorf("recorded %+v", calls)
		}
	})
}

// TestForwardedFaults: faults that let the call through change only what
// comes back.
func TestForwardedFaults(t *testing.T) {
	argv := testServerArgv(t)
	t.Run("unknown_outcome", func(t *testing.T) {
		px := startProxied(t, argv, Options{Plan: onePlan(t, "write_note", "{kind: unknown_outcome, delay_ms: 5}"), RunID: "r"}, "")
		if _, err := px.session.ListTools(context.Background(), nil); err != nil { // where the annotations come from
			t.Fatal(err)
		}
		r, err := callTool(t, px.session, "write_note", "a")
		if err != nil {
			t.Fatal(err)
		}
		if e := seenError(t, r); e.Category != "UNKNOWN_OUTCOME" || e.SideEffectState != "unknown" || e.Retryable {
			t.Errorf("the client saw %+v", e)
		}
		if r, _ := callTool(t, px.session, "note_count", ""); resultText(r) != "1 notes" {
			t.Errorf("the write did not take effect: %q", resultText(r))
		}
		calls, _ := parseEvents(t, px.stop(t))
		if calls[0].SideEffect != "write" || calls[0].Error.Category != "UNKNOWN_OUTCOME" || calls[1].Recovery != "query_status" || calls[1].RecoveryOf != "r/c1" {
			t.Errorf("recorded %+v", calls)
		}
	})
	t.Run("partial", func(t *testing.T) {
		px := startProxied(t, argv, Options{Plan: onePlan(t, "pages", "{kind: partial}"), RunID: "r"}, "")
		r, err := callTool(t, px.session, "pages", "")
		if err != nil || r.IsError || resultText(r) != "p1|p2" {
			t.Fatalf("want the first half of the pages, got %v %q", err, resultText(r))
		}
		calls, _ := parseEvents(t, px.stop(t))
		if calls[0].Status != "partial" || calls[0].Error != nil {
			t.Errorf("recorded %+v", calls[0])
		}
	})
	t.Run("queue", func(t *testing.T) {
		px := startProxied(t, argv, Options{Plan: onePlan(t, "echo", "{kind: queue, delay_ms: 40}"), RunID: "r"}, "")
		if r, err := callTool(t, px.session, "echo", "q"); err != nil || resultText(r) != "echo: q" {
			t.Fatalf("queued call: %v %v", err, r)
		}
		calls, _ := parseEvents(t, px.stop(t))
		enq, _ := time.Parse(time.RFC3339Nano, calls[0].EnqueuedAt)
		start, _ := time.Parse(time.RFC3339Nano, calls[0].StartedAt)
		if calls[0].Status != "ok" || start.Sub(enq) < 40*time.Millisecond {
			t.Errorf("queue time %v, want at least the injected 40ms: %+v", start.Sub(enq), calls[0])
		}
	})
	t.Run("out_of_order", func(t *testing.T) {
		px := startProxied(t, argv, Options{Plan: onePlan(t, "echo", "{kind: out_of_order, hold_ms: 10000}"), RunID: "r"}, "")
		first := make(chan string, 1)
		go func() {
			r, err := callTool(t, px.session, "echo", "first")
			if err != nil {
				first <- err.Error()
				return
			}
			first <- resultText(r)
		}()
		// The held answer is only sent after a later call's answer, so the
		// first call cannot have finished before the second one has.
		var second string
		for range 200 {
			r, err := callTool(t, px.session, "note_count", "")
			if err != nil {
				t.Fatal(err)
			}
			second = resultText(r)
			select {
			case got := <-first:
				if got != "echo: first" {
					t.Fatalf("first call: %q", got)
				}
				px.stop(t)
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
		t.Fatalf("the held answer never came (second: %q)", second)
	})
}
