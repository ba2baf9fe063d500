package ingest

import (
	"context"
	"testing"
	"time"

	"github.com/faultlens/faultlens/queries"
)

// BenchmarkArrowChunkInserts measures the fast path's INSERT of an Arrow
// file's Parquet chunk files (issue 12.1: what storing chunk by chunk, as
// storeArrowChunks does while the copy runs, costs), in CPU milliseconds
// (cpu_ms, all threads) beside the wall time, each on a fresh in-memory
// database over the same copy:
//
//	one           one INSERT over every chunk file (the route before)
//	per_chunk     one INSERT per chunk file, in one transaction
//	one_t1        one, DuckDB on one thread
//	per_chunk_t1  per_chunk, DuckDB on one thread (as while the copy runs)
//
//	FAULTLENS_BENCH_EVENTS=300000 go test ./ingest/ -run '^$' -bench BenchmarkArrowChunkInserts -benchtime 3x
func BenchmarkArrowChunkInserts(b *testing.B) {
	ctx := context.Background()
	pqs, sc, _ := benchArrowCopy(b)
	insert := func(paths []string, first int) string {
		rows := queries.Render("ingest.valid_or_fail", queries.Args{"checked": rules(arrowTypedFrom(sc, paths, first))})
		return insertEvents(rows, "NULL::JSON")
	}
	for _, v := range []struct {
		name     string
		perChunk bool
		threads  int64
	}{{"one", false, 0}, {"per_chunk", true, 0}, {"one_t1", false, 1}, {"per_chunk_t1", true, 1}} {
		b.Run(v.name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				db := benchDB(b)
				conn, err := db.Conn(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if v.threads > 0 {
					if _, err := conn.ExecContext(ctx, setThreads(v.threads)); err != nil {
						b.Fatal(err)
					}
				}
				stmts := []string{insert(pqs, 0)}
				if v.perChunk {
					stmts = stmts[:0]
					for i := range pqs {
						stmts = append(stmts, insert(pqs[i:i+1], i))
					}
				}
				b.StartTimer()
				c0, t0 := cpuTime(), time.Now()
				err = inTransaction(ctx, conn, func(fileID int64) error {
					for _, s := range stmts {
						if _, err := conn.ExecContext(ctx, s, fileID); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64((cpuTime() - c0).Milliseconds()), "cpu_ms")
				b.ReportMetric(float64(time.Since(t0).Milliseconds()), "wall_ms")
				b.StopTimer()
				closeQuietly(conn)
				closeQuietly(db)
				b.StartTimer()
			}
		})
	}
}
