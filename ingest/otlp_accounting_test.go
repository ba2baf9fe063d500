package ingest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mergeOTLP returns one OTLP/JSON document holding the resourceSpans of
// every document given.
func mergeOTLP(t *testing.T, docs ...string) string {
	t.Helper()
	var all []json.RawMessage
	for _, d := range docs {
		var v struct {
			ResourceSpans []json.RawMessage `json:"resourceSpans"`
		}
		if err := json.Unmarshal([]byte(d), &v); err != nil {
			t.Fatal(err)
		}
		all = append(all, v.ResourceSpans...)
	}
	b, err := json.Marshal(map[string]any{"resourceSpans": all})
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "otlp", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestOTLPRejectedEventsBalance: OTLP runs are assembled by trace id, so
// an input that repeats a trace already stored (beside a new one) replaces
// that trace's run instead of rejecting its events, and the file's events
// are net of those it replaced. An event converted from an accepted span
// line that validation refuses (here a faultlens.attempt that is not a
// number) is a rejected event: the span line was still read and accepted,
// so the line accounting balances and the event is counted apart (this was
// an "internal accounting error" before).
func TestOTLPRejectedEventsBalance(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	dir := t.TempDir()
	retries := readTestdata(t, "retries.jsonl")
	first, err := File(ctx, db, writeFile(t, dir, "first.jsonl", retries), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if first.Events != 17 || first.Rejected != 0 || first.RejectedEvents != 0 {
		t.Fatalf("first: %+v", first)
	}
	toolErrors := strings.TrimSpace(readTestdata(t, "tool_errors.jsonl"))
	both := mergeOTLP(t, strings.TrimSpace(retries), toolErrors)
	res, err := File(ctx, db, writeFile(t, dir, "both.jsonl", both), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Lines != 1 || res.Accepted != 1 || res.Rejected != 0 || res.RejectedEvents != 0 || !res.Balanced() {
		t.Fatalf("both: %+v", res)
	}
	var stored int64
	if err := db.QueryRow("SELECT count(*) FROM events").Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored != first.Events+res.Events {
		t.Fatalf("stored %d, files say %d + %d", stored, first.Events, res.Events)
	}

	// A new trace (another trace id), whose http_504 call carries an
	// attempt that is not a number.
	bad := strings.ReplaceAll(toolErrors, "1f0000000000000000000000000000e1", "2f0000000000000000000000000000e1")
	at := strings.Index(bad, `"name":"execute_tool http_504"`)
	at += strings.Index(bad[at:], `"attributes":[`) + len(`"attributes":[`)
	bad = bad[:at] + `{"key":"faultlens.attempt","value":{"stringValue":"two"}},` + bad[at:]
	res, err = File(ctx, db, writeFile(t, dir, "bad.jsonl", bad+"\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Lines != 1 || res.Accepted != 1 || res.Rejected != 1 || res.RejectedEvents != 1 || !res.Balanced() {
		t.Fatalf("bad: %+v", res)
	}
	var rejected int64
	if err := db.QueryRow("SELECT count(*) FROM rejected_lines WHERE file_id = ? AND reason LIKE '%attempt%'",
		res.FileID).Scan(&rejected); err != nil {
		t.Fatal(err)
	}
	if rejected != 1 {
		t.Fatalf("rejected lines naming attempt: %d", rejected)
	}
}
