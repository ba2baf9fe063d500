package ingest

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/faultlens/faultlens/queries"
	"github.com/faultlens/faultlens/simulate"
	"github.com/faultlens/faultlens/store"
)

// benchEnv is the positive integer in the environment variable name, or
// def when it is not set: the size a benchmark runs at.
func benchEnv(b *testing.B, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.Atoi(s)
	if err != nil || v <= 0 {
		b.Fatalf("%s=%q: want a positive integer", name, s)
	}
	return v
}

// benchEvents is the number of events BenchmarkIngestJSONL loads:
// FAULTLENS_BENCH_EVENTS when set (e.g. 1000000), else 100000.
func benchEvents(b *testing.B) int { return benchEnv(b, "FAULTLENS_BENCH_EVENTS", 100_000) }

// BenchmarkIngestJSONL ingests a generated, clean trace file and, in the
// same iteration, loads the same file with DuckDB's read_ndjson into a typed
// table. It reports both times, their ratio and ingest's events per second,
// and breaks ingest down into its phases (see phases).
func BenchmarkIngestJSONL(b *testing.B) {
	n := benchEvents(b)
	path := benchTraceFile(b, n)
	st, _ := os.Stat(path)
	b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
		ctx := context.Background()
		b.SetBytes(st.Size())
		var ingestT, rawT time.Duration
		var ph phases
		iters := 0
		for b.Loop() {
			iters++
			b.StopTimer()
			db := benchDB(b)
			b.StartTimer()
			t0 := time.Now()
			res, err := File(ctx, db, path, Options{})
			ingestT += time.Since(t0)
			if err != nil || !res.FastPath || res.Accepted != int64(n) {
				b.Fatalf("ingest: %v, %+v", err, res)
			}
			b.StopTimer()
			closeQuietly(db)

			db = benchDB(b)
			b.StartTimer()
			t0 = time.Now()
			if _, err := db.ExecContext(ctx, queries.Render("raw.read_ndjson", queries.Args{"files": queries.Literal(path)})); err != nil {
				b.Fatal(err)
			}
			rawT += time.Since(t0)
			b.StopTimer()
			var rows int64
			if err := db.QueryRowContext(ctx, "SELECT count(*) FROM raw_events").Scan(&rows); err != nil || rows != int64(n) {
				b.Fatalf("raw load: %d rows (%v), want %d", rows, err, n)
			}
			closeQuietly(db)

			db = benchDB(b)
			ph.add(measurePhases(b, db, path, int64(n)))
			closeQuietly(db)
			b.StartTimer()
		}
		k := float64(iters)
		b.ReportMetric(ingestT.Seconds()/k, "ingest-s/op")
		b.ReportMetric(rawT.Seconds()/k, "raw-s/op")
		b.ReportMetric(ingestT.Seconds()/rawT.Seconds(), "ratio")
		b.ReportMetric(float64(n)*k/ingestT.Seconds(), "events/s")
		b.ReportMetric(float64(n)*k/rawT.Seconds(), "raw-events/s")
		b.ReportMetric(ph.prescan.Seconds()/k, "prescan-s/op")
		b.ReportMetric(ph.validate.Seconds()/k, "validate-s/op")
		b.ReportMetric(ph.fast.Seconds()/k, "fast-s/op")
	})
}

// phases is where ingest's time goes on the fast path: the Go prescan
// (hash and line count), the validation SQL alone (its result counted, not
// stored), and the whole fast path (validation, insert, commit).
type phases struct{ prescan, validate, fast time.Duration }

func (p *phases) add(q phases) {
	p.prescan += q.prescan
	p.validate += q.validate
	p.fast += q.fast
}

// measurePhases runs the steps of ingestJSONL's fast path one by one,
// timing each.
func measurePhases(b *testing.B, db *sql.DB, path string, want int64) phases {
	ctx := context.Background()
	var p phases
	t0 := time.Now()
	_, cleanup, sc, err := readAndScan(path, "")
	if err != nil {
		b.Fatal(err)
	}
	defer cleanup()
	p.prescan = time.Since(t0)
	conn, err := db.Conn(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer closeQuietly(conn)

	src := queries.Render("ingest.fast_source", queries.Args{"path": queries.Literal(path)})
	checked := jsonChecked(src)
	var rows, bad int64
	t0 = time.Now()
	if err := conn.QueryRowContext(ctx, "SELECT count(*), count(reason) FROM ("+checked+")").Scan(&rows, &bad); err != nil || rows != want || bad != 0 {
		b.Fatalf("validate: %v, %d rows, %d bad", err, rows, bad)
	}
	p.validate = time.Since(t0)

	t0 = time.Now()
	res := FileResult{Format: "jsonl", SHA256: sc.sha256, Bytes: sc.bytes, Lines: sc.lines, Blank: sc.blank}
	if err := storeScanned(ctx, conn, path, path, "", &res, &sc, Routes{}); err != nil || !res.FastPath || res.Accepted != want {
		b.Fatalf("fast path refused a clean file: %+v", res)
	}
	p.fast = time.Since(t0)
	return p
}

// benchDB opens a fresh in-memory database with the default limits; it
// spills to a temporary directory, not to .tmp in the package.
func benchDB(b *testing.B) *sql.DB {
	db, err := store.Open(context.Background(), "", store.Limits{TempDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	return db
}

// generateTrace writes exactly n events of realistic shape to w: runs of a
// research agent from package simulate, with injected faults and careful and
// naive policies mixed (about 350 bytes a line). The same n and seed give the
// same bytes.
func generateTrace(w io.Writer, n int, seed uint64) error {
	lw := &lineLimit{w: w, left: n}
	// A run has about 16 events: n/8 runs is plenty, and writing stops at n.
	_, err := simulate.Generate(lw, simulate.Options{Runs: n/8 + 10, Seed: int64(seed), Faults: true, Policy: simulate.Mixed})
	if lw.left == 0 {
		return nil
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("the simulator wrote %d events, want %d", n-lw.left, n)
}

// errEnoughLines stops the simulator once lineLimit has passed its lines.
var errEnoughLines = errors.New("enough lines")

// lineLimit passes the first left lines written to it on to w.
type lineLimit struct {
	w    io.Writer
	left int
}

func (l *lineLimit) Write(p []byte) (int, error) {
	if l.left == 0 {
		return 0, errEnoughLines
	}
	for i := 0; ; {
		j := bytes.IndexByte(p[i:], '\n')
		if j < 0 {
			return l.w.Write(p)
		}
		i += j + 1
		if l.left--; l.left == 0 {
			n, err := l.w.Write(p[:i])
			if err == nil {
				err = errEnoughLines
			}
			return n, err
		}
	}
}

// benchTraceFile writes a generated, clean trace of about n events to a
// temp file of the benchmark and returns its path.
func benchTraceFile(b *testing.B, n int) string {
	b.Helper()
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
	return path
}
