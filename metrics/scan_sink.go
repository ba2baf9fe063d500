package metrics

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/faultlens/faultlens/queries"
)

// Evidence is read chunk by chunk: the statement baseline.sink hands every
// row of a part to a scalar function of this package (sinkUDF), which
// DuckDB calls once per data chunk, possibly from several threads at once.
// The chunk's vectors are read column-wise (scan_chunks.go) instead of one
// driver.Value per column and row through database/sql, and its strings
// are borrowed from DuckDB and copied only when they are new.

// chunkSink receives the chunks of one read of one part. DuckDB's threads
// take turns (mu) with its interner and the evidence's slices.
type chunkSink struct {
	mu   sync.Mutex
	part string
	ev   *Evidence
	in   *interner
	rows int64
}

// sinkKey carries a query's *chunkSink in its context to the sink function.
type sinkKey struct{}

// sinkParts are the parts read through a sink: their columns (the
// baseline.<part> statement's, in order), their types and their reader.
var sinkParts = map[string]struct {
	cols  []string
	types []duckdb.Type
	read  func(*chunkSink, *duckdb.DataChunk) error
}{
	"runs":     {runColumns, runTypes(), (*chunkSink).runs},
	"latency":  {latencyColumns, latencyTypes, (*chunkSink).latency},
	"recovery": {recoveryColumns, recoveryTypes, (*chunkSink).recovery},
}

// sinkName is the SQL name of part's sink function.
func sinkName(part string) string { return "faultlens_sink_" + part }

// sinkUDF is the sink function of one part. Its result is not set: the
// statement only counts the rows it was called for (every row: the
// function is volatile and takes NULLs), which checks that none was lost.
type sinkUDF struct{ part string }

// Config declares the part's column types, so that a column of another
// type is cast by DuckDB (or fails to bind) instead of misread.
func (u *sinkUDF) Config() duckdb.ScalarFuncConfig {
	types := sinkParts[u.part].types
	in := make([]duckdb.TypeInfo, len(types))
	for i, t := range types {
		in[i] = mustTypeInfo(t)
	}
	return duckdb.ScalarFuncConfig{InputTypeInfos: in, ResultTypeInfo: mustTypeInfo(duckdb.TYPE_BOOLEAN),
		Volatile: true, SpecialNullHandling: true}
}

// Executor reads each chunk into the sink of the query's context.
func (u *sinkUDF) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{
		// A binder fixes the query's context when the statement is bound,
		// so that the threads executing the function only read it.
		ScalarBinder: func(ctx context.Context, _ []duckdb.ScalarUDFArg) (context.Context, error) { return ctx, nil },
		ChunkContextExecutor: func(ctx context.Context, st *duckdb.ChunkIteratorState) error {
			s, ok := ctx.Value(sinkKey{}).(*chunkSink)
			if !ok || s.part != u.part {
				return fmt.Errorf("metrics: %s called outside a read of %s evidence", sinkName(u.part), u.part)
			}
			return s.add(st.GetInputChunk())
		},
	}
}

// mustTypeInfo is the TypeInfo of a primitive type (which cannot fail).
func mustTypeInfo(t duckdb.Type) duckdb.TypeInfo {
	info, err := duckdb.NewTypeInfo(t)
	if err != nil {
		panic(err)
	}
	return info
}

// add reads one chunk into the sink's evidence.
func (s *chunkSink) add(c *duckdb.DataChunk) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := sinkParts[s.part].read(s, c); err != nil {
		return fmt.Errorf("metrics: read a chunk of %s: %w", s.part, err)
	}
	s.rows += int64(c.GetSize())
	return nil
}

// registerSinks registers the sink functions on the session's connection,
// once.
func (s *Session) registerSinks() error {
	if s.sinks {
		return nil
	}
	for part := range sinkParts {
		if err := duckdb.RegisterScalarUDF(s.conn, sinkName(part), &sinkUDF{part: part}); err != nil {
			return fmt.Errorf("metrics: register %s: %w", sinkName(part), err)
		}
	}
	s.sinks = true
	return nil
}

// readPart appends one part of suite's evidence to ev, read chunk by chunk
// from its baseline.<part> statement. Runs come in no particular order
// that way and are sorted as the statement orders them.
func (s *Session) readPart(ctx context.Context, suite, part string, ev *Evidence) error {
	body := strings.TrimSuffix(queries.Get("baseline."+part), ";")
	if err := s.sinkRead(ctx, part, body, ev, sql.Named("suite", suite)); err != nil {
		return fmt.Errorf("metrics: evidence %s of %q: %w", part, suite, err)
	}
	if part == "runs" {
		sortRuns(ev.Runs)
	}
	return nil
}

// sinkRead appends the rows of the statement body (which has part's
// columns) to ev through part's sink function.
func (s *Session) sinkRead(ctx context.Context, part, body string, ev *Evidence, args ...any) error {
	if err := s.registerSinks(); err != nil {
		return err
	}
	cols := sinkParts[part].cols
	idents := make([]string, len(cols))
	for i, c := range cols {
		idents[i] = queries.Ident(c)
	}
	q := queries.Render("baseline.sink", queries.Args{"sink": sinkName(part), "columns": queries.List(idents), "part": body})
	sink := &chunkSink{part: part, ev: ev, in: newInterner()}
	var n int64
	if err := s.conn.QueryRowContext(context.WithValue(ctx, sinkKey{}, sink), q, args...).Scan(&n); err != nil {
		return err
	}
	if n != sink.rows {
		return fmt.Errorf("%d rows, of which %d reached the sink", n, sink.rows)
	}
	return nil
}
