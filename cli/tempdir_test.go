package cli

import (
	"os"
	"path/filepath"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/faultlens/faultlens/serve/servetest"
)

// TestTempDirHonoured: with --temp-dir, the OTLP ingest (a trace split over
// two files, so its runs are assembled) and every export format put nothing
// in the system temp dir. TMPDIR points at a directory that does not exist,
// so a temporary file made there fails the command instead of passing
// unseen (it would be removed before the test could look).
func TestTempDirHonoured(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "own-tmp")
	if err := os.Mkdir(own, 0o755); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "t.duckdb")
	leaves, rest := servetest.Split(0)
	paths := []string{filepath.Join(dir, "leaves.jsonl"), filepath.Join(dir, "rest.jsonl"), filepath.Join(dir, "more.jsonl")}
	for i, td := range []ptrace.Traces{leaves, rest, servetest.Runs(1, 2)} {
		if err := os.WriteFile(paths[i], servetest.JSONLine(td), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("TMPDIR", filepath.Join(dir, "no-such-dir"))
	run(t, "--temp-dir", own, "ingest", "--db", db, paths[0], paths[1], paths[2])
	for _, format := range []string{"arrow", "parquet", "jsonl", "otlp"} {
		run(t, "--temp-dir", own, "export", "--db", db, "--format", format, "--out", filepath.Join(dir, "out."+format))
	}
	if _, err := os.Stat(filepath.Join(dir, "no-such-dir")); !os.IsNotExist(err) {
		t.Errorf("the system temp dir was made: %v", err)
	}
}
