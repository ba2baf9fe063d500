package ingest

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/faultlens/faultlens/otlp"
	"github.com/faultlens/faultlens/queries"
)

// formatOf decides how a file is read: by its name for Arrow, by its first
// bytes for OTLP/JSON (whose files end in .json or .jsonl like ours).
func formatOf(path string) string {
	lower := strings.ToLower(strings.TrimSuffix(strings.ToLower(path), ".gz"))
	switch filepath.Ext(lower) {
	case ".arrow", ".arrows", ".feather":
		return "arrow"
	case ".parquet":
		return "parquet"
	}
	rc, err := fileContent(path)
	if err != nil {
		return "jsonl" // the JSONL path reports the error with the file's name
	}
	defer rc.Close()
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(rc, head)
	if otlp.Sniff(head[:n]) {
		return "otlp"
	}
	return "jsonl"
}

// ingestOTLP converts an OpenTelemetry OTLP/JSON file (collector file
// exporter lines, or one document) into contract events and loads them
// through the same validation as JSON Lines. Lines of other signals
// (metrics, logs) are counted as skipped; lines that are not OTLP are
// rejected with their line numbers. A file with spans but no GenAI span is
// an input error that says how many spans were read.
//
// Runs are assembled by trace id across files: the spans of every trace
// are kept in otlp_spans (queries/otlp.sql), a file holding more spans of a
// trace converts the trace from all of them, and its events replace those
// earlier files wrote for it, in the same transaction. A file whose GenAI
// spans form no run yet (the leaves of a trace whose root comes later) is
// accepted with no events and its spans wait for the rest.
func ingestOTLP(ctx context.Context, db *sql.DB, path, name, suite string) (FileResult, error) {
	rc, err := fileContent(path)
	if err != nil {
		return FileResult{Format: "otlp"}, err
	}
	defer rc.Close()
	return ingestOTLPFrom(ctx, db, rc, name, suite)
}

// ingestOTLPFrom is ingestOTLP on content already opened (a file's, or the
// body of an OTLP/HTTP request), recorded under name.
func ingestOTLPFrom(ctx context.Context, db *sql.DB, rc io.Reader, name, suite string) (FileResult, error) {
	res := FileResult{Format: "otlp"}
	h := sha256.New()
	counted := &countingReader{r: io.TeeReader(rc, h)}
	batch, err := otlp.ReadBatch(counted)
	if err != nil {
		return res, fmt.Errorf("read OTLP: %w", err)
	}
	st := batch.Stats()
	res.SHA256, res.Bytes = hex.EncodeToString(h.Sum(nil)), counted.n
	res.Lines, res.Blank = int64(st.Lines), int64(st.BlankLines)
	res.Skipped = int64(st.MetricLines + st.LogLines)
	res.spanLines = int64(st.SpanLines)

	conn, err := openFile(ctx, db, &res)
	if conn == nil {
		return res, err
	}
	defer conn.Close()
	defer conn.ExecContext(context.WithoutCancel(ctx), queries.Get("ingest.drop_temp"))
	traces, err := addStoredSpans(ctx, conn, batch)
	if err != nil {
		return res, err
	}
	// Judged with the spans earlier inputs kept of the same traces: the
	// root of a run without an agent span (an HTTP server span over the
	// GenAI spans) ends last and may come alone, after its leaves.
	if st.Spans > 0 && !batch.HasGenAI() {
		return res, &InputError{Path: name, Err: &otlp.NoAgentSpansError{Spans: st.Spans}}
	}
	events, err := writeRuns(batch, otlp.Options{Suite: suite, Source: name})
	if err != nil {
		return res, err
	}
	defer os.Remove(events)
	if _, err := loadLines(ctx, conn, events); err != nil {
		return res, err
	}
	rejects := make([]rejectedLine, 0, len(st.Rejected))
	for _, r := range st.Rejected {
		text := r.Text
		if r.Detail != "" {
			text = r.Detail + ": " + text
		}
		rejects = append(rejects, rejectedLine{line: int64(r.Line), reason: r.Reason, text: excerpt([]byte(text))})
	}
	return res, commitFileWith(ctx, conn, name, &res, rejects, func(fileID int64) (int64, error) {
		return replaceTraces(ctx, conn, fileID, traces, batch)
	})
}

// addStoredSpans adds to the batch the spans earlier files held of its
// traces, and returns those trace ids as a JSON array for the SQL.
func addStoredSpans(ctx context.Context, conn *sql.Conn, batch *otlp.Batch) (string, error) {
	b, err := json.Marshal(batch.TraceIDs())
	if err != nil {
		return "", err
	}
	traces := string(b)
	if _, err := conn.ExecContext(ctx, queries.Get("otlp.spans_table")); err != nil {
		return "", fmt.Errorf("create otlp_spans: %w", err)
	}
	rows, err := conn.QueryContext(ctx, queries.Get("otlp.stored_spans"), traces)
	if err != nil {
		return "", fmt.Errorf("read stored spans: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var packed []byte
		if err := rows.Scan(&id, &packed); err != nil {
			return "", err
		}
		doc, err := gunzip(packed)
		if err != nil {
			return "", fmt.Errorf("stored spans of trace %s: %w", id, err)
		}
		if err := batch.AddStored(doc); err != nil {
			return "", fmt.Errorf("trace %s: %w", id, err)
		}
	}
	return traces, rows.Err()
}

// writeRuns writes the batch's runs as contract JSON Lines to a temporary
// file for the line-precise path, and returns its name. Spans that form no
// run yet are not an error here (see ingestOTLP).
func writeRuns(batch *otlp.Batch, opts otlp.Options) (string, error) {
	tmp, err := os.CreateTemp("", "faultlens-otlp-*.jsonl")
	if err != nil {
		return "", err
	}
	w := bufio.NewWriter(tmp)
	_, err = batch.WriteRuns(opts, w)
	if errors.Is(err, otlp.ErrNoAgentSpans) {
		err = nil
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("convert OTLP: %w", err)
	}
	return tmp.Name(), nil
}

// replaceTraces runs inside the file's transaction: it removes the events
// earlier files wrote for the batch's traces (their runs are written again,
// whole), finds duplicate events again without them, and stores every span
// of each trace under this file. It returns how many events it removed.
func replaceTraces(ctx context.Context, conn *sql.Conn, fileID int64, traces string, batch *otlp.Batch) (int64, error) {
	r, err := conn.ExecContext(ctx, queries.Get("otlp.delete_superseded"), traces)
	if err != nil {
		return 0, fmt.Errorf("replace runs of earlier files: %w", err)
	}
	removed, err := r.RowsAffected()
	if err != nil {
		return 0, err
	}
	// No duplicate check to redo: commitFileWith validates the lines, and
	// finds their duplicates, after this removal.
	stmt, err := conn.PrepareContext(ctx, queries.Get("otlp.store_spans"))
	if err != nil {
		return 0, err
	}
	defer stmt.Close()
	err = batch.EachTraceDoc(func(id string, doc []byte) error {
		packed, err := gzipBytes(doc)
		if err != nil {
			return err
		}
		if _, err := stmt.ExecContext(ctx, id, fileID, packed); err != nil {
			return fmt.Errorf("store spans of trace %s: %w", id, err)
		}
		return nil
	})
	return removed, err
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// gzipBytes compresses a stored span document.
func gzipBytes(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// gunzip expands a stored span document.
func gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	return io.ReadAll(zr)
}
