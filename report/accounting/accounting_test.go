package accounting

import (
	"bytes"
	"testing"

	"github.com/faultlens/faultlens/ingest"
)

func TestWrite(t *testing.T) {
	rs := []ingest.FileResult{
		{Path: "a.jsonl", Format: "jsonl", Lines: 10, Accepted: 7, Events: 7, Rejected: 2, Blank: 1},
		{Path: "b.otlp.jsonl", Format: "otlp", Lines: 5, Accepted: 4, Events: 30, Rejected: 2, RejectedEvents: 1,
			Skipped: 0},
		{Path: "c.otlp.jsonl", Format: "otlp", Lines: 3, Accepted: 2, Events: 9, Skipped: 1},
		{Path: "d.jsonl", Duplicate: "old/d.jsonl"},
	}
	var b bytes.Buffer
	if err := Write(&b, rs, true); err != nil {
		t.Fatal(err)
	}
	want := `a.jsonl: 10 lines read = 7 events accepted + 2 rejected + 1 blank
b.otlp.jsonl: 5 lines read = 4 span lines accepted (30 events stored, 1 rejected) + 1 rejected + 0 blank
c.otlp.jsonl: 3 lines read = 2 span lines accepted (9 events) + 0 rejected + 0 blank + 1 other signals skipped
skipped d.jsonl: same content already ingested as old/d.jsonl
total: 4 files (1 skipped as already ingested): 18 lines read = 13 lines accepted (46 events) + 3 rejected + 1 blank` +
		" + 1 other signals skipped\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	// Not verbose, more than three files: only those with rejected lines.
	b.Reset()
	if err := Write(&b, rs[:3], false); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); bytes.Count([]byte(got), []byte("\n")) != 4 {
		t.Errorf("three files, not verbose: want every file and the total, got\n%s", got)
	}
	b.Reset()
	quiet := append(rs[:3:3], ingest.FileResult{Path: "e.jsonl", Format: "jsonl", Lines: 1, Accepted: 1, Events: 1})
	if err := Write(&b, quiet, false); err != nil {
		t.Fatal(err)
	}
	want = `a.jsonl: 10 lines read = 7 events accepted + 2 rejected + 1 blank
b.otlp.jsonl: 5 lines read = 4 span lines accepted (30 events stored, 1 rejected) + 1 rejected + 0 blank
total: 4 files (0 skipped as already ingested): 19 lines read = 14 lines accepted (47 events) + 3 rejected + 1 blank` +
		" + 1 other signals skipped\n"
	if got := b.String(); got != want {
		t.Errorf("four files, not verbose: got\n%s\nwant\n%s", got, want)
	}
}

func TestProgressAndRate(t *testing.T) {
	if got, want := Progress(1, 4, 500, 2), "\r\x1b[K██████░░░░░░░░░░░░░░░░░░ 1/4 files  500 events  250 events/s"; got != want {
		t.Errorf("progress %q, want %q", got, want)
	}
	if got, want := Rate(1000, 4), "1000 events in 4.0s (250 events/s)\n"; got != want {
		t.Errorf("rate %q, want %q", got, want)
	}
}
