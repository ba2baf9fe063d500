package cli

import (
	"bytes"
	"context"
	"testing"

	"github.com/faultlens/faultlens/serve/servetest"
)

// TestServeSplitRun: a run whose spans arrive in two requests (the child
// spans that ended first, then the root) must be one run, exactly as when
// both requests' spans are read from one file.
//
// This needs runs assembled by trace id across inputs (issue 10), which the
// receiver does not do itself: each request goes through the same ingest as
// a file, and that ingest is where the assembly belongs. Until it is there,
// the same spans split over two files are not one run either, and this test
// says so and skips rather than assert the split; once two files assemble,
// it holds the receiver to the same result.
func TestServeSplitRun(t *testing.T) {
	first, second := servetest.Split(0)
	oneFile := run(t, "report", "--format", "json", writeLines(t, first, second))
	var twoFiles, errb bytes.Buffer
	code := Run(context.Background(), []string{"report", "--format", "json", writeLines(t, first), writeLines(t, second)},
		Streams{Out: &twoFiles, Err: &errb})
	if code != 0 || twoFiles.String() != oneFile {
		t.Skip("runs split across inputs are not assembled by trace id yet (issue 10): " +
			"two files holding one run's spans do not report as one file does, so two requests cannot either; " +
			"the files said: " + errb.String())
	}
	db := serveInProcess(t, servetest.Proto(first), servetest.Proto(second))
	if served := run(t, "report", "--db", db, "--format", "json"); served != oneFile {
		t.Errorf("a run split over two requests differs from the same spans in one file\nserved:\n%s\nfile:\n%s", served, oneFile)
	}
}
