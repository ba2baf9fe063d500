package report

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/internal/golden"
	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/store"
)

// samplesReport evaluates the committed sample traces.
func samplesReport(t *testing.T) *metrics.Report {
	t.Helper()
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
	paths := []string{"../sample-traces/baseline.jsonl", "../sample-traces/candidate.jsonl"}
	if _, err := ingest.Files(ctx, db, paths, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	s, err := metrics.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	}()
	rep, err := s.Report(ctx, metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestGoldenSamples(t *testing.T) {
	rep := samplesReport(t)
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, rep, format, Options{}); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "samples."+format+".golden"), b.Bytes())
		})
	}
}

func TestColourOnlyWhenAsked(t *testing.T) {
	rep := samplesReport(t)
	var plain, colour bytes.Buffer
	if err := Text(&plain, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Text(&colour, rep, Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain.Bytes(), []byte("\x1b[")) {
		t.Error("plain text report contains ANSI escapes")
	}
	if !bytes.Contains(colour.Bytes(), []byte("\x1b[1;31m")) {
		t.Error("coloured report does not highlight the candidate's violations")
	}
}
