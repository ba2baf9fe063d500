package ingest

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
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
//	read      the typed read as ingest asks for it (timestamps as text),
//	          every column kept
//	typed     the typed relation (ingest.ndjson_typed): the read, the event
//	          struct and the timestamp casts
//	rules     the contract's rules over it (ingest.checked)
//	proven    the same with the timestamp regexes skipped, as the typed
//	          read does when the scan proved every timestamp's form
//	prescan   Go's prescan alone: SHA-256, line count and the key/type scan
//	scan      the key/type scan alone, over the file's lines in memory
//	file      the whole ingest of the file: prescan, typed read, rules,
//	          insert, duplicate check, commit
//	file-regex  the same with the regexes judging the timestamps
//	          (Routes.NoTSProof), as before the scan proved them
//	bad       the whole ingest of a copy with every 100th line cut in half
//	          (as faultlens bench corrupts 1 %), on the split route
//	badlines  the same copy with the split route off: line by line, as
//	          before it
//
// FAULTLENS_BENCH_EVENTS sets the size (default 100,000).
func BenchmarkTypedChecks(b *testing.B) {
	n := benchEvents(b)
	path := benchTraceFile(b, n)
	lit := queries.Literal(path)
	table := func(q string) string { return queries.Render("ingest.bench_table", queries.Args{"select": q}) }
	content, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	badPath := filepath.Join(b.TempDir(), "bad.jsonl")
	bad := bytes.Split(bytes.TrimSuffix(content, []byte("\n")), []byte("\n"))
	for i := 99; i < len(bad); i += 100 {
		bad[i] = bad[i][:len(bad[i])/2]
	}
	if err := os.WriteFile(badPath, append(bytes.Join(bad, []byte("\n")), '\n'), 0o644); err != nil {
		b.Fatal(err)
	}
	ingestBad := func(db *sql.DB, split bool) error {
		res, err := File(context.Background(), db, badPath, Options{Routes: Routes{NoSplit: !split}})
		if err == nil && (res.typedRead != split || res.Rejected != int64(n/100)) {
			err = fmt.Errorf("bad lines: %+v", res)
		}
		return err
	}
	steps := []struct {
		name, q string
		fn      func(db *sql.DB) error
	}{
		{name: "raw", q: queries.Render("raw.read_ndjson", queries.Args{"files": lit})},
		{name: "read", q: table(queries.Render("ingest.bench_read", queries.Args{"path": lit, "columns": typedColumns()}))},
		{name: "typed", q: table(typedRelation(path))},
		{name: "rules", q: table(rules(typedRelation(path)))},
		{name: "proven", q: table(rulesProven(typedRelation(path), true))},
		{name: "prescan", fn: func(*sql.DB) error {
			sc, err := scanFile(path)
			if err == nil && !sc.typedClean() {
				err = fmt.Errorf("prescan: not typed-clean: %+v", sc)
			}
			return err
		}},
		{name: "scan", fn: func(*sql.DB) error { return scanLines(content) }},
		{name: "file", fn: func(db *sql.DB) error {
			res, err := File(context.Background(), db, path, Options{})
			if err == nil && (!res.typedRead || res.Accepted != int64(n)) {
				err = fmt.Errorf("file: not stored by the typed read: %+v", res)
			}
			return err
		}},
		{name: "file-regex", fn: func(db *sql.DB) error {
			res, err := File(context.Background(), db, path, Options{Routes: Routes{NoTSProof: true}})
			if err == nil && (!res.typedRead || res.Accepted != int64(n)) {
				err = fmt.Errorf("file-regex: not stored by the typed read: %+v", res)
			}
			return err
		}},
		{name: "bad", fn: func(db *sql.DB) error { return ingestBad(db, true) }},
		{name: "badlines", fn: func(db *sql.DB) error { return ingestBad(db, false) }},
	}
	ctx := context.Background()
	cpu := make([]time.Duration, len(steps))
	for b.Loop() {
		for i, s := range steps {
			b.StopTimer()
			db := benchDB(b)
			b.StartTimer()
			c0 := cpuTime()
			if s.fn != nil {
				if err := s.fn(db); err != nil {
					b.Fatalf("%s: %v", s.name, err)
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

// scanLines runs the key/type scan over every line of content, failing on
// the first line that is not lineTyped.
func scanLines(content []byte) error {
	var ls lineScanner
	for n := 1; len(content) > 0; n++ {
		line := content
		if i := bytes.IndexByte(content, '\n'); i >= 0 {
			line, content = content[:i], content[i+1:]
		} else {
			content = nil
		}
		if v := ls.line(line); v != lineTyped {
			return fmt.Errorf("line %d: verdict %d", n, v)
		}
	}
	return nil
}
