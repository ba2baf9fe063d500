package ingest

import (
	"bytes"
	"context"
	"testing"

	"github.com/faultlens/faultlens/otlp"
	"github.com/faultlens/faultlens/serve/servetest"
)

// TestOTLPStoresEveryTrace: the span documents of an input's traces are
// written a few hundred traces per statement; an input of 2*spansPerInsert+50
// traces keeps a row for each, and a later input holding the leaves of all
// of them again re-assembles each trace from its row, so the runs are
// written once each (the events of the whole traces, net 0 for the second).
func TestOTLPStoresEveryTrace(t *testing.T) {
	const traces = 2*spansPerInsert + 50
	db := openDB(t)
	ctx := context.Background()
	dir := t.TempDir()
	whole := servetest.JSONLine(servetest.Runs(0, traces))
	var conv bytes.Buffer
	if _, err := otlp.Convert(bytes.NewReader(whole), otlp.Options{}, &conv); err != nil {
		t.Fatal(err)
	}
	events := int64(bytes.Count(conv.Bytes(), []byte("\n")))

	first, err := File(ctx, db, writeFile(t, dir, "all.jsonl", string(whole)), Options{})
	if err != nil || first.Events != events {
		t.Fatalf("first: %v %+v, want %d events", err, first, events)
	}
	if n := countRows(t, db, "otlp_spans"); n != traces {
		t.Fatalf("otlp_spans has %d rows, want %d", n, traces)
	}
	var again bytes.Buffer
	for i := range traces {
		leaves, _ := servetest.Split(i)
		again.Write(servetest.JSONLine(leaves))
	}
	second, err := File(ctx, db, writeFile(t, dir, "again.jsonl", again.String()), Options{})
	if err != nil || second.Events != 0 || second.Rejected != 0 {
		t.Fatalf("second: %v %+v, want 0 events net", err, second)
	}
	if n := countRows(t, db, "events"); n != events {
		t.Errorf("events %d, want %d", n, events)
	}
	var owned int64
	if err := db.QueryRow("SELECT count(*) FROM otlp_spans WHERE file_id = ?", second.FileID).Scan(&owned); err != nil || owned != traces {
		t.Errorf("otlp_spans rows of the second file: %d (%v), want %d", owned, err, traces)
	}
}
