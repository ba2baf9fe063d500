package report

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/faultlens/faultlens/internal/golden"
	"github.com/faultlens/faultlens/internal/testdb"
	"github.com/faultlens/faultlens/metrics"
)

// samplesReport evaluates the committed sample traces.
func samplesReport(t *testing.T) *metrics.Report {
	t.Helper()
	s := testdb.Session(t, testdb.Samples(t), metrics.Open)
	rep, err := s.Report(context.Background(), metrics.Options{})
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
