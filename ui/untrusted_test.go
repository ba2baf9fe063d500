package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/store"
)

// Trace strings carrying terminal escapes (an OSC 52 clipboard write, a
// window-title change, CSI colour), C1 controls and bidi overrides must be
// inert on every view: none of them may reach the screen.
func TestUntrustedStringsInert(t *testing.T) {
	evil := `x\u001b]52;c;SGVsbG8=\u0007\u001b]0;pwned\u001b\\\u001b[31m\u009b1m\u202eevil`
	// Two suites (so the compare, pair and breaker views have something to
	// show), the same request in each, a tool with a circuit.
	var lines []string
	for _, r := range []string{"r", "q"} {
		lines = append(lines,
			`{"type":"run","run_id":"`+r+evil+`","ts":"2026-11-28T02:00:00Z","suite":"`+r+`s`+evil+`","scenario":"sc`+evil+`","agent":{"name":"a`+evil+`","version":"1"},"client_message_id":"m`+evil+`","started_at":"2026-11-28T02:00:00Z"}`,
			`{"type":"stage","run_id":"`+r+evil+`","ts":"2026-11-28T02:00:01Z","stage_id":"p","stage":"planning","started_at":"2026-11-28T02:00:00Z","ended_at":"2026-11-28T02:00:01Z","outcome":"ok"}`,
			`{"type":"tool_call","run_id":"`+r+evil+`","ts":"2026-11-28T02:00:02Z","call_id":"c`+evil+`","action_id":"a1","tool":"t`+evil+`","started_at":"2026-11-28T02:00:01Z","ended_at":"2026-11-28T02:00:02Z","status":"error","circuit":"open","error":{"category":"TIMEOUT","retryable":true,"message":"m`+evil+`"}}`,
			`{"type":"evidence","run_id":"`+r+evil+`","ts":"2026-11-28T02:00:03Z","evidence_id":"e1","claim":"cl`+evil+`","grade":"primary","status":"confirmed","path":"direct","call_id":"c`+evil+`"}`,
			`{"type":"terminal","run_id":"`+r+evil+`","ts":"2026-11-28T02:00:05Z","terminal":"completed","visible_chars":3}`,
		)
	}
	trace := strings.Join(lines, "\n") + "\n"
	p := filepath.Join(t.TempDir(), "evil.jsonl")
	if err := os.WriteFile(p, []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, "", store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	}()
	if rs, err := ingest.Files(ctx, db, []string{p}, ingest.Options{}); err != nil || rs[0].Rejected != 0 {
		t.Fatalf("ingest: %v %+v", err, rs)
	}
	for _, keys := range [][]string{nil, {"2"}, {"3"}, {"4"}, {"4", "enter"}, {"6"}, {"8"}, {"4", "p"}, {"6", "p"},
		append(append([]string{"7"}, typed("select * from events")...), "enter")} {
		m, _ := settle(t, db, keys...)
		raw := m.View().Content
		for _, bad := range []string{"]52;", "]0;pwned", "\u009b", "\u202e", "\a"} {
			if strings.Contains(raw, bad) {
				t.Errorf("view after %v shows %q from a trace", keys, bad)
			}
		}
		if !strings.Contains(raw, "evil") && len(keys) > 0 && (keys[0] == "4" || keys[0] == "8") {
			t.Errorf("view after %v lost the visible text of the trace strings", keys)
		}
	}
}
