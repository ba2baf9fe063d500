package ingest

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/faultlens/faultlens/queries"
)

// cpuTime is the CPU time this process has used, all threads: the measure
// of work that a loaded machine disturbs least (wall time moves with the
// other processes by 2x and more; docs/benchmarks.md).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkTypedChecks breaks the typed fast path down by removing one
// check at a time (issue 12.2: which check costs what), each step on a
// fresh in-memory database over the same generated clean file, in CPU
// seconds and as a ratio to DuckDB's raw typed read (raw.read_ndjson):
//
//	raw       CREATE TABLE AS read_ndjson(columns = contract types)
//	read      the typed read as ingest asks for it (integers as text,
//	          booleans as JSON, timestamps as text), every column kept
//	nosuspect the typed relation without the coercion check
//	typed     the typed relation (ingest.ndjson_typed)
//	rules     the contract's rules over it (ingest.checked)
//	probe     the unknown-key probe (ingest.unknown_keys)
//	file      the whole ingest of the file: prescan, probe, typed read,
//	          rules, insert, duplicate check, commit
//
// FAULTLENS_BENCH_EVENTS sets the size (default 100,000).
func BenchmarkTypedChecks(b *testing.B) {
	n := benchEvents(b)
	path := filepath.Join(b.TempDir(), "bench.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := generateTrace(f, n, 1); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	lit := queries.Literal(path)
	without := func(name string) string {
		args := queries.Args{"path": lit}
		for k, v := range typedFragments() {
			args[k] = v
		}
		args[name] = "false"
		return queries.Render("ingest.ndjson_typed", args)
	}
	table := func(q string) string { return queries.Render("ingest.bench_table", queries.Args{"select": q}) }
	steps := []struct{ name, q string }{
		{"raw", queries.Render("raw.read_ndjson", queries.Args{"files": lit})},
		{"read", table(queries.Render("ingest.bench_read", queries.Args{"path": lit, "columns": typedColumns()}))},
		{"nosuspect", table(without("suspect"))},
		{"typed", table(typedRelation(path))},
		{"rules", table(rules(typedRelation(path)))},
		{"probe", queries.Render("ingest.unknown_keys", unknownKeyArgs(path))},
		{"file", ""},
	}
	ctx := context.Background()
	cpu := make([]time.Duration, len(steps))
	for b.Loop() {
		for i, s := range steps {
			b.StopTimer()
			db := benchDB(b)
			if _, err := db.ExecContext(ctx, queries.Get("ingest.typed_macros")); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			c0 := cpuTime()
			if s.q == "" {
				res, err := File(ctx, db, path, Options{})
				if err != nil || !res.typedRead || res.Accepted != int64(n) {
					b.Fatalf("file: %v %+v", err, res)
				}
			} else if _, err := db.ExecContext(ctx, s.q); err != nil {
				b.Fatalf("%s: %v", s.name, err)
			}
			cpu[i] += cpuTime() - c0
			b.StopTimer()
			closeQuietly(db) // in-memory: nothing to lose
			b.StartTimer()
		}
	}
	for i, s := range steps {
		b.ReportMetric(cpu[i].Seconds()/float64(b.N), s.name+"-cpu-s")
		if i > 0 {
			b.ReportMetric(float64(cpu[i])/float64(cpu[0]), s.name+"/raw")
		}
	}
}
