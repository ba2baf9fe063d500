package metrics

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/faultlens/faultlens/queries"
)

// BenchmarkFacts times each fact statement (factStatements) in CPU time:
// getrusage of the process, user + system, so every DuckDB thread counts,
// around each statement. It reports "<statement>-cpu-ms/op" besides the
// whole build's wall time. On this shared machine CPU time moves with the
// load much less than wall time does.
//
// With FAULTLENS_FACTS_ALT=<dir>, every iteration builds the facts twice,
// alternately: with the embedded statements, then with those of the *.sql
// files in dir (in queries' "-- name:" format; statements not there are the
// embedded ones), reported as "<statement>-alt-cpu-ms/op". So a rewrite is
// measured against the SQL it replaces in one sitting, e.g.
//
//	mkdir /tmp/old && git show main:queries/facts_calls.sql > /tmp/old/facts_calls.sql
//	FAULTLENS_BENCH_RUNS=35000 FAULTLENS_FACTS_ALT=/tmp/old \
//	    go test ./metrics/ -run '^$' -bench BenchmarkFacts -benchtime 3x -timeout 30m
//
// With FAULTLENS_FACTS_EXPLAIN=<dir>, each embedded statement is first run
// once as EXPLAIN (ANALYZE, FORMAT json) and its plan written to dir/<statement>.json.
func BenchmarkFacts(b *testing.B) {
	ctx := context.Background()
	db, events := benchDB(b)
	variants := []map[string]string{nil}
	if dir := os.Getenv("FAULTLENS_FACTS_ALT"); dir != "" {
		variants = append(variants, altStatements(b, dir))
	}
	if dir := os.Getenv("FAULTLENS_FACTS_EXPLAIN"); dir != "" {
		explainFacts(ctx, b, db, dir)
	}
	cpu := make([]map[string]time.Duration, len(variants))
	for v := range cpu {
		cpu[v] = map[string]time.Duration{}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for v, alt := range variants {
			round := buildFactsTimed(ctx, b, db, alt)
			var total time.Duration
			for name, d := range round {
				cpu[v][name] += d
				total += d
			}
			b.Logf("round %d variant %d: total %v %v", i, v, total.Round(time.Millisecond), roundMS(round))
		}
	}
	for v := range variants {
		suffix := "-cpu-ms/op"
		if v == 1 {
			suffix = "-alt-cpu-ms/op"
		}
		var total time.Duration
		for _, name := range factStatements {
			total += cpu[v][name]
			b.ReportMetric(float64(cpu[v][name].Microseconds())/1000/float64(b.N), name+suffix)
		}
		b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "facts"+suffix)
	}
	b.ReportMetric(float64(events), "events")
}

// buildFactsTimed builds the fact tables of all suites on one connection,
// with alt's statements in place of the embedded ones where it has them,
// and returns each statement's CPU time.
func buildFactsTimed(ctx context.Context, b *testing.B, db *sql.DB, alt map[string]string) map[string]time.Duration {
	b.Helper()
	conn := scopedConn(ctx, b, db)
	defer closeQuietly(&Session{conn: conn})
	out := map[string]time.Duration{}
	for _, name := range factStatements {
		q := queries.Get(name)
		if a, ok := alt[name]; ok {
			q = a
		}
		before := cpuTime(b)
		if _, err := conn.ExecContext(ctx, q); err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		out[name] = cpuTime(b) - before
	}
	return out
}

// explainFacts runs each embedded fact statement once under EXPLAIN
// ANALYZE (which builds its table too) and writes the plan to dir.
func explainFacts(ctx context.Context, b *testing.B, db *sql.DB, dir string) {
	b.Helper()
	conn := scopedConn(ctx, b, db)
	defer closeQuietly(&Session{conn: conn})
	for _, name := range factStatements {
		var key, plan string
		if err := conn.QueryRowContext(ctx, "EXPLAIN (ANALYZE, FORMAT json) "+queries.Get(name)).Scan(&key, &plan); err != nil {
			b.Fatalf("explain %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".json"), []byte(plan), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// altStatements reads the named statements of every *.sql file in dir.
func altStatements(b *testing.B, dir string) map[string]string {
	b.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	if err != nil || len(paths) == 0 {
		b.Fatalf("FAULTLENS_FACTS_ALT=%s: no *.sql files (%v)", dir, err)
	}
	out := map[string]string{}
	for _, p := range paths {
		text, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		var name string
		var body strings.Builder
		flush := func() {
			if name != "" {
				out[name] = strings.TrimSpace(body.String())
			}
			body.Reset()
		}
		for _, line := range strings.SplitAfter(string(text), "\n") {
			if n, ok := strings.CutPrefix(line, "-- name:"); ok {
				flush()
				name = strings.TrimSpace(n)
				continue
			}
			body.WriteString(line)
		}
		flush()
	}
	return out
}

// cpuTime is the process's user + system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// roundMS formats one build's CPU times in milliseconds, in statement order.
func roundMS(round map[string]time.Duration) string {
	parts := make([]string, 0, len(round))
	for _, name := range factStatements {
		parts = append(parts, fmt.Sprintf("%s=%d", name, round[name].Milliseconds()))
	}
	return strings.Join(parts, " ")
}

// factTables names the table each fact statement builds.
var factTables = map[string]string{
	"facts.calls": "call_facts", "facts.runs": "run_facts", "facts.chains": "chain_facts",
	"facts.spans": "span_facts", "facts.latency": "latency_facts",
}

// BenchmarkFactsAB compares, statement by statement, the embedded fact
// statements with those of FAULTLENS_FACTS_ALT (required): on one
// connection whose facts are built once, each statement that dir has is
// rebuilt alternately in its two versions, b.N times each, and its CPU
// time reported as "<statement>-cpu-ms/op" and "<statement>-alt-cpu-ms/op"
// (medians). The tables the two versions build must hold the same rows
// (compared with EXCEPT ALL both ways), or the benchmark fails. Rebuilding
// one statement on the same inputs gives many alternate samples in the
// time one full build takes, which is what a shared, loaded machine needs.
func BenchmarkFactsAB(b *testing.B) {
	dir := os.Getenv("FAULTLENS_FACTS_ALT")
	if dir == "" {
		b.Skip("FAULTLENS_FACTS_ALT not set")
	}
	ctx := context.Background()
	db, _ := benchDB(b)
	alt := altStatements(b, dir)
	conn := scopedConn(ctx, b, db)
	defer closeQuietly(&Session{conn: conn})
	for _, name := range factStatements {
		exec(ctx, b, conn, queries.Get(name))
	}
	b.ResetTimer()
	for _, name := range factStatements {
		q, ok := alt[name]
		if !ok {
			continue
		}
		table := factTables[name]
		var mine, theirs []time.Duration
		for i := 0; i < b.N; i++ {
			mine = append(mine, timedExec(ctx, b, conn, queries.Get(name)))
			if i == 0 {
				exec(ctx, b, conn, "CREATE OR REPLACE TEMP TABLE facts_ab_copy AS SELECT * FROM "+table)
			}
			theirs = append(theirs, timedExec(ctx, b, conn, q))
			if i == 0 {
				var diff int64
				if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM ((SELECT * FROM facts_ab_copy EXCEPT ALL SELECT * FROM "+
					table+") UNION ALL (SELECT * FROM "+table+" EXCEPT ALL SELECT * FROM facts_ab_copy))").Scan(&diff); err != nil {
					b.Fatal(err)
				}
				if diff != 0 {
					b.Fatalf("%s: the two versions differ in %d rows", name, diff)
				}
				exec(ctx, b, conn, "DROP TABLE facts_ab_copy")
			}
		}
		m, t := median(mine), median(theirs)
		b.Logf("%s: embedded %v, alt %v (medians of %d; ratio %.3f); embedded %v alt %v",
			name, m.Round(time.Millisecond), t.Round(time.Millisecond), b.N, float64(m)/float64(t), msList(mine), msList(theirs))
		b.ReportMetric(float64(m.Microseconds())/1000, name+"-cpu-ms/op")
		b.ReportMetric(float64(t.Microseconds())/1000, name+"-alt-cpu-ms/op")
	}
}

func exec(ctx context.Context, b *testing.B, conn *sql.Conn, q string) {
	b.Helper()
	if _, err := conn.ExecContext(ctx, q); err != nil {
		b.Fatal(err)
	}
}

func timedExec(ctx context.Context, b *testing.B, conn *sql.Conn, q string) time.Duration {
	b.Helper()
	before := cpuTime(b)
	exec(ctx, b, conn, q)
	return cpuTime(b) - before
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	slices.Sort(s)
	return s[len(s)/2]
}

func msList(ds []time.Duration) []int64 {
	out := make([]int64, len(ds))
	for i, d := range ds {
		out[i] = d.Milliseconds()
	}
	return out
}

// scopedConn is a connection of db with every suite in scope, as a
// session's fact statements expect; close it through a Session.
func scopedConn(ctx context.Context, b *testing.B, db *sql.DB) *sql.Conn {
	b.Helper()
	conn, err := db.Conn(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if err := scope(ctx, conn, nil); err != nil {
		_ = conn.Close() // the scope error is the one to report
		b.Fatal(err)
	}
	return conn
}
