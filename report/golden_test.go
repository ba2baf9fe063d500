package report

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/store"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// samplesReport evaluates the committed sample traces.
func samplesReport(t *testing.T) *metrics.Report {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, "", store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	paths := []string{"../sample-traces/baseline.jsonl", "../sample-traces/candidate.jsonl"}
	if _, err := ingest.Files(ctx, db, paths, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	s, err := metrics.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rep, err := s.Report(ctx, metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// golden compares got with testdata/name, writing testdata/name.got on a
// mismatch (or the golden file itself with -update).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		os.WriteFile(path+".got", got, 0o644)
		t.Errorf("%s differs from the golden file; see %s.got (go test ./report -update accepts it)", name, path)
	}
}

func TestGoldenSamples(t *testing.T) {
	rep := samplesReport(t)
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, rep, format, Options{}); err != nil {
				t.Fatal(err)
			}
			golden(t, "samples."+format+".golden", b.Bytes())
		})
	}
}

func TestColourOnlyWhenAsked(t *testing.T) {
	rep := samplesReport(t)
	var plain, colour bytes.Buffer
	Text(&plain, rep, Options{})
	Text(&colour, rep, Options{Color: true})
	if bytes.Contains(plain.Bytes(), []byte("\x1b[")) {
		t.Error("plain text report contains ANSI escapes")
	}
	if !bytes.Contains(colour.Bytes(), []byte("\x1b[1;31m")) {
		t.Error("coloured report does not highlight the candidate's violations")
	}
}
