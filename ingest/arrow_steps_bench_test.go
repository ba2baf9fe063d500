package ingest

import (
	"context"
	"regexp"
	"testing"

	"github.com/faultlens/faultlens/queries"
)

// BenchmarkArrowSteps breaks the typed Arrow ingest down (issue 12.1: what
// each step costs), in CPU milliseconds (cpu_ms, all threads, the figure a
// loaded machine disturbs least) beside the wall time, each SQL step on a
// fresh in-memory database over the same Parquet copy:
//
//	copy      the Parquet copy (arrowToParquet: read, UTF-8 check, chunk files)
//	raw       CREATE TABLE AS SELECT * FROM read_parquet(copy), the raw insert
//	typed     the typed relation (ingest.arrow_typed) into a table
//	rules     the contract's rules over it (ingest.checked) into a table
//	noregex   rules with the timestamp regexp_full_match made IS NOT NULL
//	insert    the fast path's INSERT INTO events (ingest.valid_or_fail)
//	file      the whole ingest of the file (hash, copy, insert, duplicate check, commit)
//
// FAULTLENS_BENCH_EVENTS sets the size (default 100,000):
//
//	FAULTLENS_BENCH_EVENTS=300000 go test ./ingest/ -run '^$' -bench BenchmarkArrowSteps -benchtime 2x
func BenchmarkArrowSteps(b *testing.B) {
	ctx := context.Background()
	pqs, sc, path := benchArrowCopy(b)
	typed := arrowTyped(sc, pqs)
	checked := rules(typed)
	noRegex := regexp.MustCompile(`regexp_full_match\((e\.\w+),\s*'[^']*'\)`).ReplaceAllString(checked, "($1 IS NOT NULL)")
	if noRegex == checked {
		b.Fatal("no timestamp regexp in ingest.checked")
	}
	b.Run("copy", func(b *testing.B) {
		for b.Loop() {
			c0 := cpuTime()
			out, _, _, err := arrowToParquet(path, "")
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64((cpuTime() - c0).Milliseconds()), "cpu_ms")
			removeTemps(out)
		}
	})
	for _, step := range []struct{ name, sql string }{
		{"raw", "CREATE TABLE t AS SELECT * FROM read_parquet([" + queries.Literals(pqs) + "])"},
		{"typed", "CREATE TABLE t AS SELECT * EXCLUDE (src_row) FROM (" + typed + ")"},
		{"rules", "CREATE TABLE t AS SELECT * EXCLUDE (src_row) FROM (" + checked + ")"},
		{"noregex", "CREATE TABLE t AS SELECT * EXCLUDE (src_row) FROM (" + noRegex + ")"},
		{"insert", insertEvents(queries.Render("ingest.valid_or_fail", queries.Args{"checked": checked}), "NULL::JSON")},
	} {
		b.Run(step.name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				db := benchDB(b)
				var args []any
				if step.name == "insert" {
					args = append(args, 1)
				}
				b.StartTimer()
				c0 := cpuTime()
				if _, err := db.ExecContext(ctx, step.sql, args...); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64((cpuTime() - c0).Milliseconds()), "cpu_ms")
				b.StopTimer()
				closeQuietly(db)
				b.StartTimer()
			}
		})
	}
	b.Run("file", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			db := benchDB(b)
			b.StartTimer()
			c0 := cpuTime()
			res, err := File(ctx, db, path, Options{})
			if err != nil || res.Rejected != 0 || !res.FastPath {
				b.Fatalf("ingest: %v, %+v", err, res)
			}
			b.ReportMetric(float64((cpuTime() - c0).Milliseconds()), "cpu_ms")
			b.StopTimer()
			closeQuietly(db)
			b.StartTimer()
		}
	})
}
