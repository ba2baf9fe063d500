package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// proxyRecording is what a server with a read-only search, a
// non-idempotent send_message and a read-only message_status answered: the
// scripted agents below run against it through faultlens proxy --replay.
const proxyRecording = `{"method":"initialize","result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"recorded","version":"1"}}}
{"method":"tools/list","result":{"tools":[{"name":"search","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}},{"name":"send_message","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":false,"destructiveHint":false,"idempotentHint":false}},{"name":"message_status","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}]}}
{"method":"tools/call","result":{"content":[{"type":"text","text":"done"}]}}
`

// rawAgent speaks JSON-RPC lines to the proxy: one request at a time,
// waiting for its answer, as an agent loop does.
type rawAgent struct {
	t   *testing.T
	w   io.Writer
	r   *bufio.Reader
	id  int
	err []bool // isError of each tools/call answer
}

func (a *rawAgent) request(method, params string) string {
	a.t.Helper()
	a.id++
	_, _ = fmt.Fprintf(a.w, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", a.id, method, params)
	for {
		line, err := a.r.ReadString('\n')
		if err != nil {
			a.t.Fatalf("%s: the proxy closed: %v", method, err)
		}
		var m struct {
			ID int `json:"id"`
		}
		if json.Unmarshal([]byte(line), &m) == nil && m.ID == a.id {
			return line
		}
	}
}

func (a *rawAgent) call(tool, args string) {
	a.t.Helper()
	line := a.request("tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, tool, args))
	a.err = append(a.err, strings.Contains(line, `"isError":true`) || strings.Contains(line, `"error":{`))
}

// proxyRun runs one agent run through faultlens proxy --replay and appends
// the agent's own terminal event to the events file, as an agent writing
// its side of the contract does.
func proxyRun(t *testing.T, dir, runID, plan, terminal string, script func(a *rawAgent), flags ...string) {
	t.Helper()
	rec, events := filepath.Join(dir, "rec.jsonl"), filepath.Join(dir, "events.jsonl")
	if err := os.WriteFile(rec, []byte(proxyRecording), 0o644); err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	code := make(chan int, 1)
	go func() {
		args := append([]string{"proxy", "--replay", rec, "--plan", plan, "--run-id", runID, "--out", events}, flags...)
		code <- Run(context.Background(), args, Streams{In: inR, Out: outW, Err: &stderr})
		_ = outW.Close()
	}()
	a := &rawAgent{t: t, w: inW, r: bufio.NewReader(outR)}
	a.request("initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"scripted-agent","version":"1"}}`)
	_, _ = fmt.Fprintln(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	a.request("tools/list", `{}`)
	script(a)
	_ = inW.Close()
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	if c := <-code; c != 0 {
		t.Fatalf("proxy %s exited %d: %s", runID, c, stderr.String())
	}
	if terminal == "" {
		return
	}
	f, err := os.OpenFile(events, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	ts := time.Now().Add(time.Second).UTC().Format(time.RFC3339Nano)
	_, _ = fmt.Fprintf(f, `{"type":"terminal","run_id":%q,"ts":%q,"terminal":%q,"visible_chars":12}`+"\n", runID, ts, terminal)
}

// TestProxyReportFigures: careful and naive scripted agents run through
// the proxy under shipped and hand-written plans; faultlens report on the
// proxy's events (plus each agent's terminal) counts exactly the invalid
// re-sends, breaker violations and met expectations those calls imply.
func TestProxyReportFigures(t *testing.T) {
	dir := t.TempDir()
	advisory := filepath.Join(dir, "down.yaml")
	if err := os.WriteFile(advisory, []byte(`name: network.persistent
samples:
  - tool: search
    fault: {kind: transient}
    expect: {action: stop, terminal: failed}
breaker: {tool: search, failures: 2, cooldown_ms: 3600000, mode: advisory}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	// A VALIDATION error re-sent as it was: 1 invalid re-send (category);
	// fix_args expected, not seen.
	proxyRun(t, dir, "naive-validation", "parameter.missing_field", "completed", func(a *rawAgent) {
		a.call("search", `{"q":"x"}`)
		a.call("search", `{"q":"x"}`)
	})
	// Fixed arguments: a new action with recovery fix_args; expectation met.
	proxyRun(t, dir, "careful-validation", "parameter.missing_field", "completed", func(a *rawAgent) {
		a.call("search", `{"q":"x"}`)
		a.call("search", `{"query":"x"}`)
	})
	// A write of unknown outcome re-sent without a key: 1 invalid re-send
	// for two reasons; query_status expected, not seen.
	proxyRun(t, dir, "naive-unknown", "state.unknown_write_outcome", "completed", func(a *rawAgent) {
		a.call("send_message", `{"to":"ops","text":"hi"}`)
		a.call("send_message", `{"to":"ops","text":"hi"}`)
	})
	// The status queried instead: expectation met, no re-send.
	proxyRun(t, dir, "careful-unknown", "state.unknown_write_outcome", "completed", func(a *rawAgent) {
		a.call("send_message", `{"to":"ops","text":"hi"}`)
		a.call("message_status", `{"to":"ops"}`)
	})
	// Four calls of a search that is down: the advisory breaker opens after
	// two, and the last two go through it: 2 breaker violations of 2 calls
	// made while open; 3 re-sends, all valid (transient, read-only); stop
	// expected, not seen.
	proxyRun(t, dir, "naive-breaker", advisory, "failed", func(a *rawAgent) {
		for range 4 {
			a.call("search", `{"q":"x"}`)
		}
	})
	var out, errb bytes.Buffer
	if c := Run(context.Background(), []string{"report", "--format", "json", filepath.Join(dir, "events.jsonl")}, Streams{Out: &out, Err: &errb}); c != 0 {
		t.Fatalf("report exited %d: %s", c, errb.String())
	}
	var rep struct {
		Rejected struct{ Lines int }
		Suites   []struct {
			Runs    int
			Metrics map[string]struct {
				Num, Den int
				ByReason map[string]int `json:"by_reason"`
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("report json: %v\n%s", err, out.String())
	}
	if rep.Rejected.Lines != 0 || len(rep.Suites) != 1 || rep.Suites[0].Runs != 5 {
		t.Fatalf("rejected %d, suites %+v\n%s", rep.Rejected.Lines, rep.Suites, out.String())
	}
	m := rep.Suites[0].Metrics
	check := func(name string, num, den int) {
		t.Helper()
		if m[name].Num != num || m[name].Den != den {
			t.Errorf("%s = %d/%d, want %d/%d", name, m[name].Num, m[name].Den, num, den)
		}
	}
	check("invalid_retry", 2, 5)
	check("breaker_violation", 2, 2)
	check("expectation_conformance", 2, 5)
	want := map[string]int{"category": 1, "write_without_key": 1, "unknown_outcome_resend": 1}
	for reason, n := range want {
		if m["invalid_retry"].ByReason[reason] != n {
			t.Errorf("invalid_retry.by_reason = %v, want %v", m["invalid_retry"].ByReason, want)
			break
		}
	}
}
