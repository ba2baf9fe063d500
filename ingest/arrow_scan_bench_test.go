//go:build duckdb_arrow

package ingest

import (
	"context"
	"database/sql/driver"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/duckdb/duckdb-go/v2"
)

// BenchmarkArrowScan measures the duckdb_arrow build tag's route: the
// record batches, read by arrow-go, handed to DuckDB's Arrow scan
// (RegisterView) and copied into a table. Only with the tag:
//
//	FAULTLENS_BENCH_EVENTS=1000000 go test -tags duckdb_arrow ./ingest/ -run '^$' -bench BenchmarkArrowScan -benchtime 1x -timeout 30m
func BenchmarkArrowScan(b *testing.B) {
	path := benchArrowFile(b)
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		db := benchDB(b)
		conn, err := db.Conn(ctx)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		var recs []arrow.RecordBatch
		sc, _, err := readArrow(path, func(*arrow.Schema) (arrowSink, error) { return keep{&recs}, nil })
		if err != nil {
			b.Fatal(err)
		}
		rr, err := array.NewRecordReader(sc, recs)
		if err != nil {
			b.Fatal(err)
		}
		err = conn.Raw(func(dc any) error {
			a, err := duckdb.NewArrowFromConn(dc.(driver.Conn))
			if err != nil {
				return err
			}
			release, err := a.RegisterView(rr, "arrow_in")
			if err != nil {
				return err
			}
			defer release()
			_, err = dc.(driver.ExecerContext).ExecContext(ctx, "CREATE TABLE t AS SELECT * FROM arrow_in", nil)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		for _, r := range recs {
			r.Release()
		}
		closeQuietly(conn)
		closeQuietly(db)
		b.StartTimer()
	}
}

// keep holds on to every record batch.
type keep struct{ recs *[]arrow.RecordBatch }

func (k keep) Write(rec arrow.RecordBatch) error {
	rec.Retain()
	*k.recs = append(*k.recs, rec)
	return nil
}

func (keep) Close() error { return nil }
