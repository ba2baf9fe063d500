package cli

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/faultlens/faultlens/serve/servetest"
)

// TestTempDirHonoured: with --temp-dir, the OTLP ingest (a trace split over
// two files, so its runs are assembled, and a gzipped file) and every
// export format put nothing in the system temp dir. TMPDIR points at a
// directory that does not exist, so a temporary file made there fails the
// command instead of passing unseen (it would be removed before the test
// could look).
func TestTempDirHonoured(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "own-tmp")
	if err := os.Mkdir(own, 0o755); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "t.duckdb")
	leaves, rest := servetest.Split(0)
	paths := []string{filepath.Join(dir, "leaves.jsonl"), filepath.Join(dir, "rest.jsonl"), filepath.Join(dir, "more.jsonl.gz")}
	for i, td := range []ptrace.Traces{leaves, rest, servetest.Runs(1, 2)} {
		content := servetest.JSONLine(td)
		if filepath.Ext(paths[i]) == ".gz" {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			if _, err := zw.Write(content); err != nil {
				t.Fatal(err)
			}
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
			content = buf.Bytes()
		}
		if err := os.WriteFile(paths[i], content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("TMPDIR", filepath.Join(dir, "no-such-dir"))
	out := run(t, "--temp-dir", own, "ingest", "--db", db, paths[0], paths[1], paths[2])
	if want := "total: 3 files (0 skipped as already ingested): 3 lines read = 3 span lines accepted (15 events) + 0 rejected + 0 blank\n"; !strings.HasSuffix(out, want) {
		t.Errorf("ingest printed %q, want it to end with %q", out, want)
	}
	for _, format := range []string{"arrow", "parquet", "jsonl", "otlp"} {
		run(t, "--temp-dir", own, "export", "--db", db, "--format", format, "--out", filepath.Join(dir, "out."+format))
	}
	if _, err := os.Stat(filepath.Join(dir, "no-such-dir")); !os.IsNotExist(err) {
		t.Errorf("the system temp dir was made: %v", err)
	}
}
