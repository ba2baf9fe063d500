package ingest

import (
	"context"
	"database/sql/driver"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/duckdb/duckdb-go/v2"
	"github.com/faultlens/faultlens/queries"
)

// benchArrowFile writes FAULTLENS_BENCH_EVENTS generated events (default
// 100,000) as a canonical Arrow IPC file, as export writes it.
func benchArrowFile(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	var jsonl strings.Builder
	if err := generateTrace(&jsonl, benchEvents(b), 1); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, "bench.arrow")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := WriteArrowFile(f, strings.NewReader(jsonl.String())); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// benchArrowCopy writes a benchArrowFile and its Parquet copy (removed
// when the benchmark ends), returning the copy's chunk files, its schema and
// the Arrow file.
func benchArrowCopy(b *testing.B) ([]string, *arrow.Schema, string) {
	b.Helper()
	path := benchArrowFile(b)
	pqs, sc, _, err := arrowToParquet(path, "")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { removeTemps(pqs) })
	return pqs, sc, path
}

// BenchmarkArrowRoutes measures the ways of getting Arrow record batches
// into DuckDB without a build tag (docs/arrow.md): arrow-go's read alone,
// the route ingest takes (a Parquet copy read by read_parquet), the
// Appender fed value by value, and the whole typed ingest. The duckdb_arrow
// tag's Arrow scan is in arrow_scan_bench_test.go.
//
//	FAULTLENS_BENCH_EVENTS=1000000 go test ./ingest/ -run '^$' -bench BenchmarkArrowRoutes -benchtime 1x -timeout 30m
func BenchmarkArrowRoutes(b *testing.B) {
	path := benchArrowFile(b)
	ctx := context.Background()
	b.Run("read", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := readArrow(path, func(*arrow.Schema) (arrowSink, error) { return discard{}, nil }); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parquet_write", func(b *testing.B) {
		for b.Loop() {
			pqs, _, _, err := arrowToParquet(path, "")
			if err != nil {
				b.Fatal(err)
			}
			removeTemps(pqs)
		}
	})
	b.Run("parquet_write+read_parquet", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			db := benchDB(b)
			b.StartTimer()
			pqs, _, _, err := arrowToParquet(path, "")
			if err != nil {
				b.Fatal(err)
			}
			if _, err := db.ExecContext(ctx, "CREATE TABLE t AS SELECT * FROM read_parquet(["+queries.Literals(pqs)+"])"); err != nil {
				b.Fatal(err)
			}
			removeTemps(pqs)
			closeQuietly(db)
		}
	})
	b.Run("appender", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			db := benchDB(b)
			conn, err := db.Conn(ctx)
			if err != nil {
				b.Fatal(err)
			}
			var cols []string
			for _, f := range CanonicalArrowSchema.Fields() {
				cols = append(cols, queries.Ident(f.Name)+" "+duckType(f.Type))
			}
			if _, err := conn.ExecContext(ctx, "CREATE TABLE t ("+strings.Join(cols, ", ")+")"); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			err = conn.Raw(func(dc any) error {
				app, err := duckdb.NewAppender(dc.(driver.Conn), "", "main", "t")
				if err != nil {
					return err
				}
				_, _, err = readArrow(path, func(*arrow.Schema) (arrowSink, error) { return appendSink{app}, nil })
				if cerr := app.Close(); err == nil {
					err = cerr
				}
				return err
			})
			if err != nil {
				b.Fatal(err)
			}
			closeQuietly(conn)
			closeQuietly(db)
		}
	})
	b.Run("ingest", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			db := benchDB(b)
			b.StartTimer()
			t0 := time.Now()
			res, err := File(ctx, db, path, Options{})
			if err != nil || res.Rejected != 0 {
				b.Fatalf("ingest: %v, %+v", err, res)
			}
			b.ReportMetric(float64(res.Accepted)/time.Since(t0).Seconds(), "events/s")
			closeQuietly(db)
		}
	})
}

type discard struct{}

func (discard) Write(arrow.RecordBatch) error { return nil }
func (discard) Close() error                  { return nil }

// appendSink appends every row to a DuckDB Appender, value by value.
type appendSink struct{ app *duckdb.Appender }

func (s appendSink) Write(rec arrow.RecordBatch) error {
	row := make([]driver.Value, rec.NumCols())
	for i := 0; i < int(rec.NumRows()); i++ {
		for c, col := range rec.Columns() {
			row[c] = arrowValue(col, i)
		}
		if err := s.app.AppendRow(row...); err != nil {
			return err
		}
	}
	return nil
}

func (appendSink) Close() error { return nil }

// arrowValue is row i of a as a value the Appender takes (canonical schema
// types only).
func arrowValue(a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch a := a.(type) {
	case *array.String:
		return a.Value(i)
	case *array.Int64:
		return a.Value(i)
	case *array.Boolean:
		return a.Value(i)
	case *array.List:
		lo, hi := a.ValueOffsets(i)
		out := make([]any, 0, hi-lo)
		for j := lo; j < hi; j++ {
			out = append(out, arrowValue(a.ListValues(), int(j)))
		}
		return out
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		m := make(map[string]any, a.NumField())
		for f := 0; f < a.NumField(); f++ {
			m[st.Field(f).Name] = arrowValue(a.Field(f), i)
		}
		return m
	}
	panic("arrowValue: unexpected type " + a.DataType().String())
}
