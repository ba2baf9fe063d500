package ingest

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// ingestArrow loads one Arrow IPC file, file format (.arrow, .feather) or
// stream format (.arrows), told apart by the file format's magic.
//
// The columns are checked against the contract first: a missing required
// column or one whose type cannot hold the contract's is an *InputError and
// nothing is committed. The record batches are then copied, typed as they
// are, into temporary Parquet chunk files that DuckDB reads, each as soon
// as it is written (arrow_copy.go, storeArrowChunks), and the contract's
// rules, the same SQL that judges a JSON line, judge every row, the row
// number standing for the line number (arrow_typed.go). A schema the
// Parquet writer cannot take (a string_view column, say) goes the way of
// JSON lines instead. Measured against the alternatives in docs/arrow.md.
func ingestArrow(ctx context.Context, db *sql.DB, path, name, tmpDir string) (FileResult, error) {
	res := FileResult{Format: "arrow"}
	sum, size, err := hashFile(path)
	if err != nil {
		return res, err
	}
	res.SHA256, res.Bytes = sum, size

	conn, err := openFile(ctx, db, &res)
	if conn == nil {
		return res, err
	}
	defer closeQuietly(conn)
	defer dropTemp(ctx, conn)
	restore, err := boundThreads(ctx, conn)
	if err != nil {
		return res, err
	}
	defer restore()

	cp := startArrowCopy(path, tmpDir)
	defer cp.abandon()
	sc, err := cp.schema()
	if errors.Is(err, errors.ErrUnsupported) {
		return res, ingestArrowAsJSON(ctx, conn, path, name, tmpDir, &res)
	}
	if err != nil {
		return res, arrowCopyError(err, name)
	}
	return res, storeArrowChunks(ctx, conn, cp, sc, name, &res)
}

// ingestArrowAsJSON is the route through JSON lines, for schemas the
// Parquet writer cannot take.
func ingestArrowAsJSON(ctx context.Context, conn *sql.Conn, path, name, tmpDir string, res *FileResult) error {
	tmp, rows, err := arrowToJSONLines(path, tmpDir)
	if err != nil {
		return &InputError{Path: name, Err: err}
	}
	defer removeTemp(tmp)
	res.Lines = rows
	return storeLines(ctx, conn, tmp, name, res)
}

// hashFile returns the SHA-256 and size of the file's bytes.
func hashFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer closeQuietly(f)
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// arrowMagic opens the IPC file format (and ends it); the stream format has none.
var arrowMagic = []byte("ARROW1")

// recordReader is what the file and stream readers have in common here.
type recordReader interface {
	Schema() *arrow.Schema
	Next() (arrow.RecordBatch, error)
}

// fileRecords adapts ipc.FileReader to recordReader.
type fileRecords struct {
	r *ipc.FileReader
	i int
}

func (f *fileRecords) Schema() *arrow.Schema { return f.r.Schema() }

func (f *fileRecords) Next() (arrow.RecordBatch, error) {
	if f.i >= f.r.NumRecords() {
		return nil, io.EOF
	}
	f.i++
	return f.r.RecordBatch(f.i - 1)
}

// streamRecords adapts ipc.Reader to recordReader.
type streamRecords struct{ r *ipc.Reader }

func (s streamRecords) Schema() *arrow.Schema { return s.r.Schema() }

func (s streamRecords) Next() (arrow.RecordBatch, error) {
	if s.r.Next() {
		return s.r.RecordBatch(), nil
	}
	if err := s.r.Err(); err != nil {
		return nil, err
	}
	return nil, io.EOF
}

// openArrow opens f in whichever IPC format it is written in, after
// checking its metadata (see verifyArrowMetadata).
func openArrow(f *os.File) (recordReader, func(), error) {
	size, err := arrowFileSize(f)
	if err != nil {
		return nil, nil, err
	}
	head := make([]byte, len(arrowMagic))
	n, _ := f.ReadAt(head, 0)
	isFile := n == len(head) && bytes.Equal(head, arrowMagic)
	what := "Arrow IPC stream"
	if isFile {
		what = "Arrow IPC file"
	}
	if err := verifyArrowMetadata(f, size, isFile); err != nil {
		return nil, nil, fmt.Errorf("truncated or corrupt %s: %w", what, err)
	}
	opts := []ipc.Option{ipc.WithAllocator(memory.DefaultAllocator),
		ipc.WithMetadataSizeLimit(max(size, 1)), ipc.WithBodySizeLimit(max(size, 1))}
	if isFile {
		r, err := ipc.NewFileReader(f, opts...)
		if err != nil {
			return nil, nil, fmt.Errorf("truncated or corrupt %s: %w", what, err)
		}
		return &fileRecords{r: r}, func() { closeQuietly(r) }, nil
	}
	r, err := ipc.NewReader(bufio.NewReaderSize(f, 1<<20), opts...)
	if err != nil {
		return nil, nil, fmt.Errorf("not an Arrow IPC file or stream: %w", err)
	}
	return streamRecords{r}, r.Release, nil
}

// dataBytes is the size of the buffers behind a, children included.
func dataBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, c := range d.Children() {
		n += dataBytes(c)
	}
	if d.DataType().ID() == arrow.DICTIONARY {
		n += dataBytes(d.Dictionary())
	}
	return n
}

// arrowSink receives the checked record batches of an Arrow file.
type arrowSink interface {
	Write(rec arrow.RecordBatch) error
	Close() error
}

// readArrow opens the Arrow file at path, checks its schema and passes every
// record batch to the sink that open makes for the schema, returning the
// number of rows. Any error is the file's but those of open and of the
// sink's Close, which are returned as they are.
func readArrow(path string, open func(*arrow.Schema) (arrowSink, error)) (sc *arrow.Schema, rows int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer closeQuietly(f)
	var sink arrowSink
	defer func() {
		// arrow-go panics on some malformed input; it is still a corrupt file.
		if p := recover(); p != nil {
			err = fmt.Errorf("corrupt Arrow IPC data: %v", p)
		}
		if sink != nil {
			if cerr := sink.Close(); err == nil && cerr != nil {
				err = &sinkError{cerr}
			}
		}
	}()
	rr, release, err := openArrow(f)
	if err != nil {
		return nil, 0, err
	}
	defer release()
	sc = rr.Schema()
	if err := checkArrowSchema(sc); err != nil {
		return sc, 0, err
	}
	if err := checkFieldNames(sc.Fields()); err != nil {
		return sc, 0, err
	}
	if sink, err = open(sc); err != nil {
		return sc, 0, &sinkError{err}
	}
	for {
		rec, err := rr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return sc, rows, fmt.Errorf("truncated or corrupt Arrow IPC data after %d rows: %w", rows, err)
		}
		var held int64
		for _, c := range rec.Columns() {
			held += dataBytes(c.Data())
		}
		if err := checkRowCount(rec, held); err != nil {
			return sc, rows, fmt.Errorf("corrupt Arrow IPC data: %w", err)
		}
		if err := checkUTF8(rec, rows); err != nil {
			return sc, rows, fmt.Errorf("corrupt Arrow IPC data: %w", err)
		}
		rows += rec.NumRows()
		if err := sink.Write(rec); err != nil {
			return sc, rows, fmt.Errorf("row after %d: %w", rows-rec.NumRows(), err)
		}
	}
	if f, ok := sink.(flusher); ok {
		return sc, rows, f.Flush()
	}
	return sc, rows, nil
}

// flusher is a sink that writes in the background: Flush waits for the
// writing and returns its first error, the file's (or a *sinkError).
type flusher interface{ Flush() error }

// sinkError is an error of the sink (creating or closing its output), not
// of the Arrow file.
type sinkError struct{ err error }

func (e *sinkError) Error() string { return e.err.Error() }
func (e *sinkError) Unwrap() error { return e.err }

// jsonLinesSink writes each row as one JSON object to a file.
type jsonLinesSink struct {
	f *os.File
	w *bufio.Writer
}

func (s *jsonLinesSink) Write(rec arrow.RecordBatch) error { return writeJSONLines(s.w, rec) }

func (s *jsonLinesSink) Close() error {
	err := s.w.Flush()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// arrowToJSONLines checks the schema of the Arrow file at path and writes
// its rows as JSON lines to a temporary file in tmpDir ("": the system temp
// dir), returning its path and the
// number of rows. Any error is the file's. It is the route for the schemas
// the Parquet writer cannot take (see ingestArrow).
func arrowToJSONLines(path, tmpDir string) (tmpPath string, rows int64, err error) {
	_, rows, err = readArrow(path, func(*arrow.Schema) (arrowSink, error) {
		tmp, err := createTemp(tmpDir, "faultlens-arrow-*.jsonl")
		if err != nil {
			return nil, err
		}
		tmpPath = tmp.Name()
		return &jsonLinesSink{f: tmp, w: bufio.NewWriterSize(tmp, 1<<20)}, nil
	})
	if err != nil && tmpPath != "" {
		removeTemp(tmpPath)
		tmpPath = ""
	}
	return tmpPath, rows, err
}

// writeJSONLines writes one JSON object per row of rec. Timestamp columns
// become RFC 3339 UTC strings first, the form the contract reads.
func writeJSONLines(w io.Writer, rec arrow.RecordBatch) error {
	cols := append([]arrow.Array(nil), rec.Columns()...)
	fields := rec.Schema().Fields() // a copy
	var owned []arrow.Array
	defer func() {
		for _, a := range owned {
			a.Release()
		}
	}()
	for i, c := range cols {
		if ts, ok := c.(*array.Timestamp); ok {
			s, err := timestampStrings(ts)
			if err != nil {
				return fmt.Errorf("column %s: %w", fields[i].Name, err)
			}
			owned = append(owned, s)
			fields[i] = arrow.Field{Name: fields[i].Name, Type: arrow.BinaryTypes.String, Nullable: true}
			cols[i] = s
		}
	}
	if len(owned) == 0 {
		return array.RecordToJSON(rec, w)
	}
	r := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, rec.NumRows())
	defer r.Release()
	return array.RecordToJSON(r, w)
}

// timestampStrings renders a timestamp array as RFC 3339 UTC strings.
func timestampStrings(ts *array.Timestamp) (arrow.Array, error) {
	toTime, err := ts.DataType().(*arrow.TimestampType).GetToTimeFunc()
	if err != nil {
		return nil, err
	}
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.Reserve(ts.Len())
	for i := 0; i < ts.Len(); i++ {
		if ts.IsNull(i) {
			b.AppendNull()
			continue
		}
		b.Append(toTime(ts.Value(i)).UTC().Format(time.RFC3339Nano))
	}
	return b.NewArray(), nil
}
