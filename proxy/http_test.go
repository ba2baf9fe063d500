package proxy

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpSession connects an SDK client over Streamable HTTP to url.
func httpSession(t *testing.T, url string, notes func(string)) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "0.1"}, clientOptions(notes))
	s, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestHTTPPassThrough: over Streamable HTTP, a client session through the
// proxy without a plan gets the same answers as one to the server directly,
// sampling and elicitation inside a call's event stream included; each
// tools/call is recorded under the session's Mcp-Session-Id.
func TestHTTPPassThrough(t *testing.T) {
	server := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return testServer() }, nil))
	defer server.Close()
	var events bytes.Buffer
	h, err := NewHTTP(Options{Events: &events, SessionID: "fallback"}, server.URL)
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(h)
	defer front.Close()

	run := func(url string) string {
		var mu sync.Mutex
		var notes []string
		s := httpSession(t, url, func(n string) { mu.Lock(); notes = append(notes, n); mu.Unlock() })
		defer func() { _ = s.Close() }()
		return transcript(t, s, func() []string { mu.Lock(); defer mu.Unlock(); return notes })
	}
	want, got := run(server.URL), run(front.URL)
	if got != want {
		t.Errorf("through the proxy:\n%s\n\ndirect:\n%s", got, want)
	}
	for _, w := range []string{"model said re: weather?", "user chose accept", "progress 3/3"} {
		if !strings.Contains(got, w) {
			t.Errorf("the transcript lacks %q:\n%s", w, got)
		}
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	calls, runs := parseEvents(t, events.String())
	if len(calls) != 9 || len(runs) != 1 || runs[0].RunID == "fallback" || calls[0].RunID != runs[0].RunID {
		t.Errorf("%d calls, runs %+v: want 9 calls in one run named by the session", len(calls), runs)
	}
}

// TestHTTPFaults: faults reach an HTTP client as they do over stdio.
func TestHTTPFaults(t *testing.T) {
	server := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return testServer() }, nil))
	defer server.Close()
	plan := mustPlan(t, `samples:
  - tool: echo
    calls: {nth: [1]}
    fault: {kind: rate_limit, retry_after_ms: 900}
  - tool: pages
    calls: {nth: [1]}
    fault: {kind: partial, keep: 1}
  - tool: write_note
    calls: {nth: [1]}
    fault: {kind: unknown_outcome}
`)
	var events bytes.Buffer
	h, err := NewHTTP(Options{Plan: plan, Events: &events, RunID: "r"}, server.URL)
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(h)
	defer front.Close()
	s := httpSession(t, front.URL, func(string) {})
	r, err := callTool(t, s, "echo", "x")
	if err != nil {
		t.Fatal(err)
	}
	if e := seenError(t, r); e.Category != "RATE_LIMIT" || e.RetryAfterMs != 900 || e.RetryAfter != 1 {
		t.Errorf("rate limit seen as %+v", e)
	}
	if r, err := callTool(t, s, "pages", ""); err != nil || resultText(r) != "p1" {
		t.Errorf("partial: %v %q", err, resultText(r))
	}
	r, err = callTool(t, s, "write_note", "a")
	if err != nil {
		t.Fatal(err)
	}
	if e := seenError(t, r); e.Category != "UNKNOWN_OUTCOME" {
		t.Errorf("unknown outcome seen as %+v", e)
	}
	if r, _ := callTool(t, s, "note_count", ""); resultText(r) != "1 notes" {
		t.Errorf("the write did not take effect: %q", resultText(r))
	}
	_ = s.Close()
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if got := circuitTrail(t, events.String()); got != " error,  partial,  error,  ok" {
		t.Errorf("statuses %q", got)
	}
}
