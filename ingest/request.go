package ingest

import (
	"context"
	"database/sql"
	"io"
	"time"
)

// OTLP ingests OTLP/JSON traces read from r (one document, or collector
// file-exporter lines) as if they were a file named name: the same
// conversion, validation, duplicate detection and accounting, in one
// transaction. The live receiver (package serve) calls it once per request,
// so that a request and a file holding the same spans store the same events.
// Content already stored (same SHA-256) is skipped and FileResult.Duplicate
// names where it came from, as for files.
func OTLP(ctx context.Context, db *sql.DB, r io.Reader, name string, opts Options) (FileResult, error) {
	start := time.Now()
	res, err := ingestOTLPFrom(ctx, db, r, name, opts.Suite)
	return finish(res, err, name, start)
}
