package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/faultlens/faultlens/serve/servetest"
)

// TestIngestOTLPRejectedEvents: the ingest line of an OTLP file whose spans
// repeat a run already stored counts the rejected events apart from the
// lines, and still balances.
func TestIngestOTLPRejectedEvents(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.duckdb")
	first := filepath.Join(dir, "first.jsonl")
	both := filepath.Join(dir, "both.jsonl")
	os.WriteFile(first, servetest.JSONLine(servetest.Runs(0, 1)), 0o644)
	os.WriteFile(both, servetest.JSONLine(servetest.Runs(0, 2)), 0o644)
	run(t, "ingest", "--db", db, first)
	out := run(t, "ingest", "--db", db, both)
	want := both + ": 1 lines read = 1 span lines accepted (5 events stored, 5 rejected) + 0 rejected + 0 blank\n"
	if out != want {
		t.Errorf("ingest printed %q, want %q", out, want)
	}
}
