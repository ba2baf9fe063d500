package bench

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/faultlens/faultlens/compare"
	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/store"
)

// The targets.
var (
	cleanTarget  = Target{MaxRatio: 1.3}
	badTarget    = Target{MaxRatio: 2.5}
	reportTarget = Target{MaxTime: 1500 * time.Millisecond}
	arrowTarget  = Target{MaxRatio: 3}
	arrowVsJSONL = Target{MaxRatio: 1}
	compareInput = Target{MaxTime: 500 * time.Millisecond}
	viewTarget   = Target{MaxTime: 100 * time.Millisecond}
)

// measurer runs the steps in order; later steps read the database the
// first one ingested.
type measurer struct {
	cfg   Config
	in    *input
	logf  func(format string, args ...any)
	rows  []Row
	db    *sql.DB       // the clean JSON Lines ingested by ingestJSONL
	raw   time.Duration // raw read_ndjson of the clean files
	jsonl time.Duration // faultlens's ingest of the clean files
	scan  time.Duration // rawScan over db
	dbs   int           // databases opened so far, for limits
}

// limits are Config.Limits with a spill directory of the database's own.
// DuckDB names its spill files alike in every database, so two databases
// of this process spilling into one directory overwrite each other's
// blocks, and one closing deletes the other's ("Could not read enough
// bytes from file …/duckdb_temp_storage_DEFAULT-0.tmp" in a 1M-event run
// whose first-paint database spilled while the ingested one had spilled).
func (m *measurer) limits() store.Limits {
	lim := m.cfg.Limits
	base := lim.TempDir
	if base == "" {
		base = filepath.Join(m.cfg.Dir, "spill")
	}
	m.dbs++
	lim.TempDir = filepath.Join(base, fmt.Sprintf("db-%d", m.dbs))
	// DuckDB creates the spill directory, but not its parents; a failure
	// here shows as DuckDB's own error when it first spills.
	_ = os.MkdirAll(lim.TempDir, 0o755)
	return lim
}

func (m *measurer) close() {
	if m.db != nil {
		closeQuietly(m.db)
	}
}

// add records a row, stamping the peak RSS so far.
func (m *measurer) add(r Row) {
	r.PeakRSSMiB = peakRSSMiB()
	m.rows = append(m.rows, r)
	m.logf("%s: %s", r.Step, duration(r.Time))
}

// ingestFiles ingests paths into a fresh in-memory database and returns
// it with the time taken and the totals.
func (m *measurer) ingestFiles(ctx context.Context, paths []string) (*sql.DB, time.Duration, ingest.FileResult, error) {
	db, err := store.Open(ctx, "", m.limits())
	if err != nil {
		return nil, 0, ingest.FileResult{}, err
	}
	t0 := time.Now()
	rs, err := ingest.Files(ctx, db, paths, ingest.Options{TempDir: m.cfg.Limits.TempDir})
	d := time.Since(t0)
	if err != nil {
		closeQuietly(db)
		return nil, 0, ingest.FileResult{}, err
	}
	t, _, _ := ingest.Totals(rs)
	return db, d, t, nil
}

func (m *measurer) ingestJSONL(ctx context.Context) error {
	raw, err := rawNDJSON(ctx, m.limits(), m.in.clean, m.in.events)
	if err != nil {
		return err
	}
	db, d, t, err := m.ingestFiles(ctx, m.in.clean)
	if err != nil {
		return err
	}
	m.db, m.raw, m.jsonl = db, raw, d
	if t.Accepted != m.in.events || t.Rejected != 0 {
		return fmt.Errorf("ingest JSONL: %d accepted, %d rejected, want %d and 0", t.Accepted, t.Rejected, m.in.events)
	}
	m.add(Row{Step: "ingest JSONL", Events: t.Accepted, Time: d, Raw: "read_ndjson", RawTime: raw, Target: cleanTarget})
	return nil
}

func (m *measurer) ingestBadLines(ctx context.Context) error {
	db, d, t, err := m.ingestFiles(ctx, m.in.bad)
	if err != nil {
		return err
	}
	closeQuietly(db)
	if t.Rejected != m.in.badN {
		return fmt.Errorf("ingest JSONL with bad lines: %d rejected, want %d", t.Rejected, m.in.badN)
	}
	m.add(Row{Step: "ingest JSONL, 1% bad lines", Events: t.Lines, Time: d, Raw: "read_ndjson (clean)", RawTime: m.raw, Target: badTarget})
	return nil
}

func (m *measurer) ingestArrow(ctx context.Context) error {
	if err := exportArrow(ctx, m.db, m.in.arrow); err != nil {
		return err
	}
	read, err := rawArrow(m.in.arrow, m.in.events)
	if err != nil {
		return err
	}
	insert, err := rawArrowInsert(ctx, m.limits(), m.in.arrow, m.cfg.Dir, m.in.events)
	if err != nil {
		return err
	}
	db, d, t, err := m.ingestFiles(ctx, []string{m.in.arrow})
	if err != nil {
		return err
	}
	closeQuietly(db)
	if t.Accepted != m.in.events {
		return fmt.Errorf("ingest Arrow: %d accepted, want %d", t.Accepted, m.in.events)
	}
	m.add(Row{Step: "ingest Arrow", Events: t.Accepted, Time: d, Raw: "arrow-go read + insert", RawTime: read + insert, Target: arrowTarget})
	m.add(Row{Step: "ingest Arrow vs JSON Lines", Events: t.Accepted, Time: d, Raw: "ingest JSONL", RawTime: m.jsonl, Target: arrowVsJSONL})
	return nil
}

// ingestUnderLimit ingests the largest clean file and its copy with bad
// lines, each into a fresh database file, under a 256 MB memory limit with
// a spill directory of its own.
func (m *measurer) ingestUnderLimit(ctx context.Context) error {
	clean, bad := m.in.clean[0], m.in.bad[0]
	for i, p := range m.in.clean {
		if size(p) > size(clean) {
			clean, bad = p, m.in.bad[i]
		}
	}
	for _, p := range []string{clean, bad} {
		dir, err := os.MkdirTemp(m.cfg.Dir, "limit-")
		if err != nil {
			return err
		}
		lim := m.cfg.Limits
		lim.MemoryLimit, lim.TempDir = "256MB", filepath.Join(dir, "spill")
		db, err := store.Open(ctx, filepath.Join(dir, "limit.db"), lim)
		if err != nil {
			return err
		}
		t0 := time.Now()
		res, err := ingest.File(ctx, db, p, ingest.Options{})
		d := time.Since(t0)
		closeQuietly(db)
		removeQuietly(dir)
		if err != nil {
			return fmt.Errorf("ingest under 256MB: %w", err)
		}
		step := "ingest JSONL, 256MB limit"
		if p == bad {
			step += ", 1% bad lines"
		}
		m.logf("%s: %s, %d MB", step, filepath.Base(p), size(p)>>20)
		m.add(Row{Step: step, Events: res.Lines, Time: d})
	}
	return nil
}

func size(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

func (m *measurer) report(ctx context.Context) error {
	scan, err := rawScan(ctx, m.db)
	if err != nil {
		return err
	}
	m.scan = scan
	t0 := time.Now()
	s, err := metrics.OpenSuites(ctx, m.db, nil)
	if err != nil {
		return err
	}
	_, err = s.Report(ctx, metrics.Options{})
	d := time.Since(t0)
	closeQuietly(s)
	if err != nil {
		return err
	}
	m.add(Row{Step: "full report", Events: m.in.events, Time: d, Raw: "GROUP BY scan", RawTime: scan, Target: reportTarget})
	return nil
}

// compare runs the comparison as "faultlens compare --baseline baseline
// --candidate candidate" does, the text report written to nowhere.
func (m *measurer) compare(ctx context.Context) error {
	t0 := time.Now()
	s, err := metrics.OpenSuites(ctx, m.db, []string{"baseline", "candidate"})
	if err != nil {
		return err
	}
	defer closeQuietly(s)
	base, err := s.Evidence(ctx, "baseline")
	if err != nil {
		return err
	}
	cand, err := s.Evidence(ctx, "candidate")
	if err != nil {
		return err
	}
	gates := compare.DefaultGates()
	res := compare.Compare(base, cand, compare.Side{Name: "baseline", Source: "suite", Suite: "baseline"},
		compare.Side{Name: "candidate", Source: "suite", Suite: "candidate"}, compare.Options{Alpha: gates.Alpha})
	compare.Evaluate(res, gates)
	if err := compare.Write(io.Discard, res, "text"); err != nil {
		return err
	}
	m.add(Row{Step: "compare baseline vs candidate", Events: m.in.events, Time: time.Since(t0), Raw: "GROUP BY scan", RawTime: m.scan})
	return nil
}

// compareInputStep is the row of the comparison's input, whose target is
// 500 ms (it loads once per pair of suites) rather than a view's 100 ms.
const compareInputStep = "view compare input: Evidence ×2"

// views times each dashboard view's data call on one session whose fact
// tables are built, as the dashboard holds them.
func (m *measurer) views(ctx context.Context) error {
	s, err := metrics.Open(ctx, m.db)
	if err != nil {
		return err
	}
	defer closeQuietly(s)
	failed, _, err := s.RunsPage(ctx, metrics.RunFilter{Quick: "failed"}, metrics.RunSort{}, 0, 1)
	if err != nil {
		return err
	}
	if len(failed) == 0 {
		return fmt.Errorf("views: no failed run to show")
	}
	for _, v := range []struct {
		step string
		call func() error
	}{
		// The dashboard's load asks for the whole report (ui/backend.go).
		{"view overview: Report", func() error { _, err := s.Report(ctx, metrics.Options{}); return err }},
		{"view latency: LatencyHistograms", func() error { _, err := s.LatencyHistograms(ctx); return err }},
		{"view errors: ErrorMatrix", func() error { _, err := s.ErrorMatrix(ctx); return err }},
		{"view runs: first page", func() error {
			_, _, err := s.RunsPage(ctx, metrics.RunFilter{}, metrics.RunSort{Column: "run_id"}, 0, 40)
			return err
		}},
		{"view runs: filtered", func() error {
			_, _, err := s.RunsPage(ctx, metrics.RunFilter{ErrorClass: "TIMEOUT", GateFalse: "evidence"}, metrics.RunSort{}, 0, 40)
			return err
		}},
		{"view runs: sorted by e2e", func() error {
			_, _, err := s.RunsPage(ctx, metrics.RunFilter{}, metrics.RunSort{Column: "e2e", Desc: true}, 0, 40)
			return err
		}},
		{"view run detail: RunDetail", func() error { _, err := s.RunDetail(ctx, failed[0].RunID); return err }},
		{compareInputStep, func() error {
			for _, suite := range []string{"baseline", "candidate"} {
				if _, err := s.Evidence(ctx, suite); err != nil {
					return err
				}
			}
			return nil
		}},
	} {
		d, err := median3(v.call)
		if err != nil {
			return fmt.Errorf("%s: %w", v.step, err)
		}
		target := viewTarget
		if v.step == compareInputStep {
			target = compareInput
		}
		m.add(Row{Step: v.step, Events: m.in.events, Time: d, Target: target})
	}
	return nil
}

// median3 calls f three times and returns the median wall time.
func median3(f func() error) (time.Duration, error) {
	var ds []time.Duration
	for range 3 {
		t0 := time.Now()
		if err := f(); err != nil {
			return 0, err
		}
		ds = append(ds, time.Since(t0))
	}
	slices.Sort(ds)
	return ds[1], nil
}

// peakRSSMiB is the process's peak resident set size so far (ru_maxrss is
// in KiB on Linux).
func peakRSSMiB() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Maxrss) / 1024
}
