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

// TestOTLPRejectedEventsBalance: an OTLP input whose spans repeat a run
// already stored has its repeated events rejected as duplicates. The span
// line was still read and accepted, so the line accounting balances and
// the rejected events are counted apart (this was an "internal accounting
// error" before).
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
	both := mergeOTLP(t, strings.TrimSpace(retries), strings.TrimSpace(readTestdata(t, "tool_errors.jsonl")))
	res, err := File(ctx, db, writeFile(t, dir, "both.jsonl", both), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Lines != 1 || res.Accepted != 1 || res.Rejected != 17 || res.RejectedEvents != 17 || !res.Balanced() {
		t.Fatalf("both: %+v", res)
	}
	var stored, rejected int64
	db.QueryRow("SELECT count(*) FROM events WHERE file_id = ?", res.FileID).Scan(&stored)
	db.QueryRow("SELECT count(*) FROM rejected_lines WHERE file_id = ? AND reason LIKE 'duplicate event%'", res.FileID).Scan(&rejected)
	if stored != res.Events || rejected != 17 {
		t.Fatalf("stored %d (result says %d), rejected as duplicates %d", stored, res.Events, rejected)
	}
}
