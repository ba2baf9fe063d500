package ingest

import (
	"context"
	"database/sql"
	"io"
	"time"
)

// Request is the accounting of one OTLP/HTTP request.
type Request struct {
	// FileResult counts the request as a file: net of what it replaced of
	// the traces it completed, so that totals add up to what is stored.
	FileResult
	// RejectedSpans is how many of the request's events were rejected,
	// each from one span, counting those of traces it completed that an
	// earlier request had sent broken: the exporter is told what became of
	// the spans it sent.
	RejectedSpans int64
}

// OTLP ingests OTLP/JSON traces read from r (one document, or collector
// file-exporter lines) as if they were a file named name: the same
// conversion, validation, duplicate detection and accounting, in one
// transaction. The live receiver (package serve) calls it once per request,
// so that a request and a file holding the same spans store the same events.
// Content already stored (same SHA-256) is skipped and FileResult.Duplicate
// names where it came from, as for files.
func OTLP(ctx context.Context, db *sql.DB, r io.Reader, name string, opts Options) (Request, error) {
	start := time.Now()
	res, removed, err := ingestOTLPFrom(ctx, db, r, name, opts.Suite)
	res, err = finish(res, err, name, start)
	return Request{FileResult: res, RejectedSpans: res.RejectedEvents + removed.rejected}, err
}
