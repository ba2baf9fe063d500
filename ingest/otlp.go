package ingest

import (
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
	defer closeQuietly(rc)
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
	defer closeQuietly(rc)
	res, _, err := ingestOTLPFrom(ctx, db, rc, name, suite)
	return res, err
}

// ingestOTLPFrom is ingestOTLP on content already opened (a file's, or the
// body of an OTLP/HTTP request), recorded under name. It also returns what
// the input replaced of earlier inputs' traces (res is net of it).
func ingestOTLPFrom(ctx context.Context, db *sql.DB, rc io.Reader, name, suite string) (res FileResult, removed replaced, err error) {
	res = FileResult{Format: "otlp"}
	h := sha256.New()
	counted := &countingReader{r: io.TeeReader(rc, h)}
	batch, err := otlp.ReadBatch(counted)
	if err != nil {
		return res, removed, fmt.Errorf("read OTLP: %w", err)
	}
	st := batch.Stats()
	res.SHA256, res.Bytes = hex.EncodeToString(h.Sum(nil)), counted.n
	res.Lines, res.Blank = int64(st.Lines), int64(st.BlankLines)
	res.Skipped = int64(st.MetricLines + st.LogLines)
	res.spanLines = int64(st.SpanLines)

	conn, err := openFile(ctx, db, &res)
	if conn == nil {
		return res, removed, err
	}
	defer closeQuietly(conn)
	defer dropTemp(ctx, conn)
	stored, err := addStoredSpans(ctx, conn, batch)
	if err != nil {
		return res, removed, err
	}
	// Judged with the spans earlier inputs kept of the same traces: the
	// root of a run without an agent span (an HTTP server span over the
	// GenAI spans) ends last and may come alone, after its leaves.
	if st.Spans > 0 && !batch.HasGenAI() {
		return res, removed, &InputError{Path: name, Err: &otlp.NoAgentSpansError{Spans: st.Spans}}
	}
	if err := loadRuns(ctx, conn, batch, otlp.Options{Suite: suite, Source: name}); err != nil {
		return res, removed, err
	}
	rejects := make([]rejectedLine, 0, len(st.Rejected))
	for _, r := range st.Rejected {
		text := r.Text
		if r.Detail != "" {
			text = r.Detail + ": " + text
		}
		rejects = append(rejects, rejectedLine{line: int64(r.Line), reason: r.Reason, text: excerpt([]byte(text))})
	}
	err = commitFileWith(ctx, conn, name, &res, rejects, func(fileID int64) (int64, error) {
		var rerr error
		removed, rerr = replaceTraces(ctx, conn, fileID, stored, batch)
		return removed.events, rerr
	})
	if err == nil {
		// Net of the rejected events it replaced, as Events is net of the
		// events: the totals over files add up to the rows of rejected_lines.
		res.Rejected -= removed.rejected
		res.RejectedEvents -= removed.rejected
	}
	return res, removed, err
}

// storedTraces is what earlier inputs held of an input's traces.
type storedTraces struct {
	ids      string // the input's trace ids, as a JSON array for the SQL
	found    int    // traces that earlier inputs held spans of
	rejected bool   // whether an event of one of them was rejected
}

// addStoredSpans adds to the batch the spans earlier files held of its
// traces.
func addStoredSpans(ctx context.Context, conn *sql.Conn, batch *otlp.Batch) (storedTraces, error) {
	var st storedTraces
	b, err := json.Marshal(batch.TraceIDs())
	if err != nil {
		return st, err
	}
	st.ids = string(b)
	if _, err := conn.ExecContext(ctx, queries.Get("otlp.tables")); err != nil {
		return st, fmt.Errorf("create otlp_spans, otlp_rejected: %w", err)
	}
	rows, err := conn.QueryContext(ctx, queries.Get("otlp.stored_spans"), sql.Named("trace_ids", st.ids))
	if err != nil {
		return st, fmt.Errorf("read stored spans: %w", err)
	}
	defer closeQuietly(rows) // rows.Err is checked after the loop
	for rows.Next() {
		var id string
		var packed []byte
		var rejected bool
		if err := rows.Scan(&id, &packed, &rejected); err != nil {
			return st, err
		}
		doc, err := gunzip(packed)
		if err != nil {
			return st, fmt.Errorf("stored spans of trace %s: %w", id, err)
		}
		if err := batch.AddStored(doc); err != nil {
			return st, fmt.Errorf("trace %s: %w", id, err)
		}
		st.found++
		st.rejected = st.rejected || rejected
	}
	return st, rows.Err()
}

// loadRuns converts the batch's runs to contract JSON lines and appends
// them to ingest_lines for the line-precise path as they are written,
// through a pipe: no temporary file, and no second copy of the events.
func loadRuns(ctx context.Context, conn *sql.Conn, batch *otlp.Batch, opts otlp.Options) error {
	pr, pw := io.Pipe()
	type outcome struct {
		err   error
		panic any
	}
	converted := make(chan outcome, 1)
	go func() {
		var out outcome
		defer func() {
			// A bug in the conversion panics in the caller, as it did
			// before the conversion had a goroutine of its own (a
			// receiver's handler survives it).
			if out.panic = recover(); out.panic != nil {
				pw.CloseWithError(errors.New("conversion failed"))
			}
			converted <- out
		}()
		out.err = batch.WriteRuns(opts, pw)
		pw.CloseWithError(out.err) // nil: the reader sees the end of the lines
	}()
	_, err := loadLinesFrom(ctx, conn, pr)
	_ = pr.Close() // a load that stopped early unblocks the conversion; closing a pipe's reader cannot fail
	out := <-converted
	if out.panic != nil {
		panic(out.panic)
	}
	if out.err != nil && !errors.Is(out.err, io.ErrClosedPipe) {
		return fmt.Errorf("convert OTLP: %w", out.err)
	}
	return err
}

// replaced is what an input took over from earlier inputs of its traces.
type replaced struct {
	events   int64 // events removed, to be written again from the whole trace
	rejected int64 // rejected events removed, to be judged again with them
}

// replaceTraces runs inside the file's transaction: it removes the events
// earlier files wrote for the batch's traces (their runs are written again,
// whole) and the rejections of their events, and stores every span of each
// trace under this file. Duplicates are found again without the removed
// events: commitFileWith validates the lines, and finds their duplicates,
// after this removal.
func replaceTraces(ctx context.Context, conn *sql.Conn, fileID int64, st storedTraces, batch *otlp.Batch) (replaced, error) {
	var out replaced
	if st.found == 0 {
		// New traces (a receiver's usual request): nothing to replace.
		return out, storeSpans(ctx, conn, fileID, batch)
	}
	r, err := conn.ExecContext(ctx, queries.Get("otlp.delete_superseded"), sql.Named("trace_ids", st.ids))
	if err != nil {
		return out, fmt.Errorf("replace runs of earlier files: %w", err)
	}
	if out.events, err = r.RowsAffected(); err != nil {
		return out, err
	}
	if st.rejected {
		if r, err = conn.ExecContext(ctx, queries.Get("otlp.delete_superseded_rejected"), sql.Named("trace_ids", st.ids)); err != nil {
			return out, fmt.Errorf("replace rejected events of earlier files: %w", err)
		}
		if out.rejected, err = r.RowsAffected(); err != nil {
			return out, err
		}
		if _, err := conn.ExecContext(ctx, queries.Get("otlp.forget_rejected"), sql.Named("trace_ids", st.ids)); err != nil {
			return out, fmt.Errorf("replace rejected events of earlier files: %w", err)
		}
	}
	return out, storeSpans(ctx, conn, fileID, batch)
}

// spansPerInsert is how many traces' documents one otlp.store_spans
// statement writes (three parameters each).
const spansPerInsert = 200

// storeSpans writes every span of each of the batch's traces under the
// file, a few hundred traces per statement.
func storeSpans(ctx context.Context, conn *sql.Conn, fileID int64, batch *otlp.Batch) error {
	var args []any
	var zip packer
	flush := func() error {
		if len(args) == 0 {
			return nil
		}
		rows := strings.TrimSuffix(strings.Repeat("(?, ?, ?), ", len(args)/3), ", ")
		if _, err := conn.ExecContext(ctx, queries.Render("otlp.store_spans", queries.Args{"tuples": rows}), args...); err != nil {
			return fmt.Errorf("store spans of %d traces: %w", len(args)/3, err)
		}
		args = args[:0]
		return nil
	}
	err := batch.EachTraceDoc(func(id string, doc []byte) error {
		packed, err := zip.pack(doc)
		if err != nil {
			return fmt.Errorf("store spans of trace %s: %w", id, err)
		}
		if args = append(args, id, fileID, packed); len(args) == 3*spansPerInsert {
			return flush()
		}
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// recordRejectedEvents notes the trace of each of the file's n rejected
// events, so that the next input of the trace replaces the rejections with
// the events (commitChecked calls it in the file's transaction, after the
// rejected lines are written).
func recordRejectedEvents(ctx context.Context, conn *sql.Conn, fileID, n int64) error {
	if n <= 0 {
		return nil
	}
	for _, q := range []string{"otlp.forget_file_rejected", "otlp.record_rejected"} {
		if _, err := conn.ExecContext(ctx, queries.Get(q), sql.Named("file_id", fileID)); err != nil {
			return fmt.Errorf("note the traces of rejected events: %w", err)
		}
	}
	return nil
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

// packer gzips the span documents of one input with one compressor: a
// new gzip.Writer sets up its tables on the first write, which cost about
// as much as compressing a trace's document.
type packer struct{ zw *gzip.Writer }

// pack compresses a stored span document.
func (p *packer) pack(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	if p.zw == nil {
		p.zw = gzip.NewWriter(&buf)
	} else {
		p.zw.Reset(&buf)
	}
	if _, err := p.zw.Write(b); err != nil {
		return nil, err
	}
	if err := p.zw.Close(); err != nil {
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
	defer closeQuietly(zr)
	return io.ReadAll(zr)
}
