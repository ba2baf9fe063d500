package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/faultlens/faultlens/serve/servetest"
)

// TestIngestOTLPRejectedEvents: the ingest line of an OTLP file counts the
// events validation refused apart from the lines, and still balances; a
// file repeating a stored run replaces it, and its events are net of it.
func TestIngestOTLPRejectedEvents(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.duckdb")
	first := filepath.Join(dir, "first.jsonl")
	both := filepath.Join(dir, "both.jsonl")
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(first, servetest.JSONLine(servetest.Runs(0, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(both, servetest.JSONLine(servetest.Runs(0, 2)), 0o644); err != nil {
		t.Fatal(err)
	}
	td := servetest.Runs(2, 1)
	spans := td.ResourceSpans().At(0).ScopeSpans().At(0).Spans()
	for i := 0; i < spans.Len(); i++ {
		if spans.At(i).Name() == "execute_tool fetch_page" {
			spans.At(i).Attributes().PutStr("faultlens.attempt", "two")
		}
	}
	if err := os.WriteFile(bad, servetest.JSONLine(td), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, "ingest", "--db", db, first)
	for _, c := range []struct{ path, want string }{
		{both, ": 1 lines read = 1 span lines accepted (5 events) + 0 rejected + 0 blank\n"},
		{bad, ": 1 lines read = 1 span lines accepted (4 events stored, 1 rejected) + 0 rejected + 0 blank\n"},
	} {
		if out := run(t, "ingest", "--db", db, c.path); out != c.path+c.want {
			t.Errorf("ingest printed %q, want %q", out, c.path+c.want)
		}
	}
}
