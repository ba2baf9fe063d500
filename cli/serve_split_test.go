package cli

import (
	"bytes"
	"context"
	"testing"

	"github.com/faultlens/faultlens/serve/servetest"
)

// TestServeSplitRun: a run whose spans arrive in two requests (the child
// spans that ended first, then the root) is one run, exactly as when both
// requests' spans are read from one file or from two files: each request
// goes through the file ingest, which assembles runs by trace id.
func TestServeSplitRun(t *testing.T) {
	first, second := servetest.Split(0)
	oneFile := run(t, "report", "--format", "json", writeLines(t, first, second))
	var twoFiles, errb bytes.Buffer
	code := Run(context.Background(), []string{"report", "--format", "json", writeLines(t, first), writeLines(t, second)},
		Streams{Out: &twoFiles, Err: &errb})
	if code != 0 || twoFiles.String() != oneFile {
		t.Fatalf("two files holding one run's spans do not report as one file (exit %d): %s\n%s", code, errb.String(), twoFiles.String())
	}
	db := serveInProcess(t, servetest.Proto(first), servetest.Proto(second))
	if served := run(t, "report", "--db", db, "--format", "json"); served != oneFile {
		t.Errorf("a run split over two requests differs from the same spans in one file\nserved:\n%s\nfile:\n%s", served, oneFile)
	}
}
