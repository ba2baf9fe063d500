package ingest

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// The Parquet copy of an Arrow file is written in chunks of chunkRows rows,
// one Parquet file each, by as many goroutines as there are cores (at most
// maxChunkWriters), while the reader decodes the next batches: the writer
// is single-threaded and was the largest part of the copy, so on two cores
// the copy takes about half its time (docs/arrow.md). read_parquet reads
// the files as one relation; chunk i holds the rows from i*chunkRows on,
// so a row's number is file_index*chunkRows + file_row_number + 1.

// chunkRows is the rows of every chunk file but the last, one row group:
// DuckDB's own row group size, the unit read_parquet reads in parallel. A
// variable only so that tests can cut small files into several chunks.
var chunkRows int64 = parquetRowGroup

// maxChunkWriters bounds the goroutines writing chunks (and so the chunks
// held in memory: one per writer and one being filled).
const maxChunkWriters = 4

// chunkJob is one chunk to write: its index and its rows, as record
// batches (or slices of them) retained for the writer.
type chunkJob struct {
	index int
	recs  []arrow.RecordBatch
}

// parquetChunks is the arrowSink that writes the chunk files.
type parquetChunks struct {
	sc     *arrow.Schema
	tmpDir string
	props  *parquet.WriterProperties
	jobs   chan chunkJob
	wg     sync.WaitGroup

	mu      sync.Mutex
	err     error    // the first error of a writer
	paths   []string // by chunk index; "" until the chunk's file exists
	written []bool   // by chunk index; true once the chunk's file is complete

	// notify holds a token after a chunk is written or a writer failed
	// (readyFrom's waiter, arrow_copy.go); stop set ends the copy early.
	notify chan struct{}
	stop   atomic.Bool

	pending     []arrow.RecordBatch
	pendingRows int64
	dispatched  int
	flushed     bool
}

// parquetProps are the writer's settings: uncompressed, without
// dictionaries or statistics, as the copy lives for one statement and only
// the speed of writing and reading it counts (docs/arrow.md).
func parquetProps() *parquet.WriterProperties {
	return parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Uncompressed),
		parquet.WithDictionaryDefault(false), parquet.WithStats(false),
		parquet.WithMaxRowGroupLength(parquetRowGroup))
}

// newParquetChunks starts the writers of the chunk files of schema sc in
// tmpDir ("": the system temp dir). An error wrapping errors.ErrUnsupported
// means the Parquet writer cannot take sc.
func newParquetChunks(sc *arrow.Schema, tmpDir string) (*parquetChunks, error) {
	props := parquetProps()
	if _, err := pqarrow.ToParquet(sc, props, pqarrow.NewArrowWriterProperties()); err != nil {
		return nil, fmt.Errorf("%w: %v", errors.ErrUnsupported, err)
	}
	s := &parquetChunks{sc: sc, tmpDir: tmpDir, props: props, jobs: make(chan chunkJob), notify: make(chan struct{}, 1)}
	n := min(runtime.GOMAXPROCS(0), maxChunkWriters)
	s.wg.Add(n)
	for range n {
		go s.writer()
	}
	return s, nil
}

// Write adds rec's rows to the chunk being filled, handing every full
// chunk to a writer. It fails with the first error of a writer.
func (s *parquetChunks) Write(rec arrow.RecordBatch) error {
	if err := s.failed(); err != nil {
		return err
	}
	if s.stop.Load() {
		return errCopyStopped
	}
	for off := int64(0); off < rec.NumRows(); {
		n := min(chunkRows-s.pendingRows, rec.NumRows()-off)
		if off == 0 && n == rec.NumRows() {
			rec.Retain()
			s.pending = append(s.pending, rec)
		} else {
			s.pending = append(s.pending, rec.NewSlice(off, off+n))
		}
		off += n
		s.pendingRows += n
		if s.pendingRows == chunkRows {
			s.dispatch()
		}
	}
	return nil
}

// dispatch hands the chunk being filled to a writer.
func (s *parquetChunks) dispatch() {
	s.mu.Lock()
	i := len(s.paths)
	s.paths = append(s.paths, "")
	s.written = append(s.written, false)
	s.mu.Unlock()
	s.jobs <- chunkJob{index: i, recs: s.pending}
	s.pending, s.pendingRows = nil, 0
	s.dispatched++
}

// Flush hands the last chunk to a writer, waits for every chunk to be
// written and returns the first error of a writer. readArrow calls it
// after the last batch, so that its error is the file's.
func (s *parquetChunks) Flush() error {
	if s.flushed {
		return s.failed()
	}
	s.flushed = true
	if s.pendingRows > 0 || s.dispatched == 0 {
		s.dispatch() // no rows at all: one empty file, for its schema
	}
	close(s.jobs)
	s.wg.Wait()
	return s.failed()
}

// Close stops the writers if Flush did not (the read failed); the chunk
// files are the caller's to remove (Paths).
func (s *parquetChunks) Close() error {
	if s.flushed {
		return nil
	}
	for _, r := range s.pending {
		r.Release()
	}
	s.pending = nil
	s.flushed = true
	close(s.jobs)
	s.wg.Wait()
	return nil
}

// Paths are the chunk files written so far, in row order.
func (s *parquetChunks) Paths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, p := range s.paths {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// readyFrom returns the files of the chunks from chunk from on that are
// written, up to the first that is not.
func (s *parquetChunks) readyFrom(from int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for i := from; i < len(s.written) && s.written[i]; i++ {
		out = append(out, s.paths[i])
	}
	return out
}

// poke tells readyFrom's waiter that something changed.
func (s *parquetChunks) poke() {
	select {
	case s.notify <- struct{}{}:
	default: // a token is waiting already
	}
}

func (s *parquetChunks) failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// writer writes the chunks it is handed until there are none; after an
// error (its own or another writer's) or a stop it only releases them.
func (s *parquetChunks) writer() {
	defer s.wg.Done()
	for job := range s.jobs {
		if s.failed() == nil && !s.stop.Load() {
			err := s.writeChunk(job)
			s.mu.Lock()
			if err == nil {
				s.written[job.index] = true
			} else if s.err == nil {
				s.err = err
			}
			s.mu.Unlock()
			s.poke()
		}
		for _, r := range job.recs {
			r.Release()
		}
	}
}

// writeChunk writes one chunk file. An error creating the file is a
// *sinkError; any other is the Arrow file's (arrow-go panics on some
// malformed data, which is still a corrupt file).
func (s *parquetChunks) writeChunk(job chunkJob) (err error) {
	tmp, err := createTemp(s.tmpDir, "faultlens-arrow-*.parquet")
	if err != nil {
		return &sinkError{err}
	}
	s.mu.Lock()
	s.paths[job.index] = tmp.Name()
	s.mu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("corrupt Arrow IPC data: %v", p)
		}
	}()
	w, err := pqarrow.NewFileWriter(s.sc, tmp, s.props, pqarrow.NewArrowWriterProperties())
	if err != nil {
		closeQuietly(tmp) // removed with the other chunks: nothing written counts
		return &sinkError{err}
	}
	for _, r := range job.recs {
		if err := w.WriteBuffered(r); err != nil {
			closeQuietly(w) // the chunk is abandoned; the write's error says why
			return fmt.Errorf("row after %d: %w", int64(job.index)*chunkRows, err)
		}
	}
	// Closing ends the Parquet file and closes tmp; a failure is the disk's.
	if err := w.Close(); err != nil {
		return &sinkError{err}
	}
	return nil
}
