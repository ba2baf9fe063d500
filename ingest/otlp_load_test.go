package ingest

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/faultlens/faultlens/otlp"
	"github.com/faultlens/faultlens/serve/servetest"
)

// TestLoadRunsStopsCleanly: the converted events stream through a pipe into
// ingest_lines. A load that fails (here its context is cancelled) returns
// its error and does not leave the conversion blocked on the pipe; a load
// that succeeds holds every event line.
func TestLoadRunsStopsCleanly(t *testing.T) {
	db := openDB(t)
	doc := servetest.JSONLine(servetest.Runs(0, 300)) // far more than the pipe holds
	var conv bytes.Buffer
	if _, err := otlp.Convert(bytes.NewReader(doc), otlp.Options{}, &conv); err != nil {
		t.Fatal(err)
	}
	lines := int64(bytes.Count(conv.Bytes(), []byte("\n")))

	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer closeQuietly(conn)
	load := func(ctx context.Context) error {
		batch, err := otlp.ReadBatch(bytes.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- loadRuns(ctx, conn, batch, otlp.Options{}) }()
		select {
		case err := <-done:
			return err
		case <-time.After(time.Minute):
			t.Fatal("loadRuns did not return")
			return nil
		}
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if err := load(cancelled); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled load: %v, want context.Canceled", err)
	}
	if err := load(context.Background()); err != nil {
		t.Fatal(err)
	}
	var n int64
	if err := conn.QueryRowContext(context.Background(), "SELECT count(*) FROM ingest_lines").Scan(&n); err != nil || n != lines {
		t.Errorf("ingest_lines holds %d lines (%v), want %d", n, err, lines)
	}
}
