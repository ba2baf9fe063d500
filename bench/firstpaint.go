package bench

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/queries"
	"github.com/faultlens/faultlens/simulate"
	"github.com/faultlens/faultlens/store"
	"github.com/faultlens/faultlens/ui"
)

// firstPaintTarget is the goal for first paint on a database of many
// nights within 2× of a database of one night.
const firstPaintTarget = 2

// firstPaint measures the dashboard's first paint (its in-memory copy of
// the two suites it shows, then the overview with both funnels) on a
// database file holding the generated night, and, with Config.Nights > 1,
// on one holding that many nights of the same size, whose last night it
// shows. The same work is shown in both, so the ratio is the price of the
// database's length.
func (m *measurer) firstPaint(ctx context.Context) error {
	one := filepath.Join(m.cfg.Dir, "firstpaint-1.duckdb")
	if err := buildDB(ctx, one, m.in.clean, m.limits()); err != nil {
		return fmt.Errorf("first paint: %w", err)
	}
	if m.cfg.Nights < 2 {
		base, err := medianFirstPaint(ctx, m, one)
		if err != nil {
			return fmt.Errorf("first paint: %w", err)
		}
		m.add(Row{Step: "first paint: 1 night", Events: m.in.events, Time: base})
		return nil
	}
	path := filepath.Join(m.cfg.Dir, fmt.Sprintf("firstpaint-%d.duckdb", m.cfg.Nights))
	reuse, err := holdsNights(ctx, path, m.cfg.Nights, m.in.events, m.limits())
	if err != nil {
		return fmt.Errorf("first paint: %w", err)
	}
	if reuse {
		m.logf("reusing %s: it holds the %d nights this run would write", path, m.cfg.Nights)
	} else {
		m.logf("writing and ingesting %d nights of about %d events (minutes at 1M events a night)", m.cfg.Nights, m.in.events)
		files, err := writeNights(filepath.Join(m.cfg.Dir, "nights"), m.cfg.Nights, m.in.events)
		if err != nil {
			return fmt.Errorf("first paint: %w", err)
		}
		if err := buildDB(ctx, path, files, m.limits()); err != nil {
			return fmt.Errorf("first paint: %w", err)
		}
	}
	// One night and many, taken in turns, three times each: on a shared
	// machine the load moves within minutes, and timing one database after
	// the other put the load's change into the ratio (3.3× in one run whose
	// CPU times were 1.6× apart).
	var ones, manys []time.Duration
	for range 3 {
		for _, c := range []struct {
			path string
			into *[]time.Duration
		}{{one, &ones}, {path, &manys}} {
			t, err := timeFirstPaint(ctx, c.path, m.limits())
			if err != nil {
				return fmt.Errorf("first paint: %w", err)
			}
			*c.into = append(*c.into, t)
		}
	}
	base, t := median(ones), median(manys)
	m.add(Row{Step: "first paint: 1 night", Events: m.in.events, Time: base})
	m.add(Row{Step: fmt.Sprintf("first paint: %d nights", m.cfg.Nights), Events: m.in.events * int64(m.cfg.Nights), Time: t,
		Raw: "first paint: 1 night", RawTime: base, Target: Target{MaxRatio: firstPaintTarget}})
	return nil
}

// medianFirstPaint is the median of three first paints of path.
func medianFirstPaint(ctx context.Context, m *measurer, path string) (time.Duration, error) {
	return median3(func() error {
		_, err := timeFirstPaint(ctx, path, m.limits())
		return err
	})
}

// median is the middle of ds (sorted in place; ds not empty).
func median(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// timeFirstPaint opens the database file as "faultlens ui --db" does and
// loads the first screen.
func timeFirstPaint(ctx context.Context, path string, lim store.Limits) (time.Duration, error) {
	t0 := time.Now()
	db, suites, err := store.OpenScoped(ctx, path, lim, ui.LastTwoSuites)
	if err != nil {
		return 0, err
	}
	defer closeQuietly(db)
	if err := ui.FirstPaint(ctx, db, suites); err != nil {
		return 0, err
	}
	return time.Since(t0), nil
}

// buildDB ingests files into a fresh database file at path.
func buildDB(ctx context.Context, path string, files []string, lim store.Limits) error {
	removeQuietly(path)
	db, err := store.Open(ctx, path, lim)
	if err != nil {
		return err
	}
	defer closeQuietly(db)
	_, err = ingest.Files(ctx, db, files, ingest.Options{})
	return err
}

// holdsNights reports whether the database file at path already holds
// exactly the nights writeNights would write for events a night: the same
// 2n files, all committed, and the same number of runs (the simulator is
// deterministic, so the same runs). Building thirty nights of a million
// events takes most of an hour on two cores; a bench run with --dir reuses
// them, as it reuses nothing else.
func holdsNights(ctx context.Context, path string, n int, events int64, lim store.Limits) (bool, error) {
	if _, err := os.Stat(path); err != nil {
		return false, nil
	}
	db, err := store.OpenReadOnly(ctx, path, lim)
	if err != nil {
		return false, nil // not a database this run can read: rebuilt
	}
	defer func() { _ = db.Close() }() // read-only: nothing to lose
	got, err := nightFiles(ctx, db)
	if err != nil {
		return false, err
	}
	want := nightSuites(n)
	if len(got) != len(want) {
		return false, nil
	}
	for _, suite := range want {
		if !got[suite+".jsonl"] {
			return false, nil
		}
	}
	var runs int64
	if err := db.QueryRowContext(ctx, queries.Get("bench.run_events")).Scan(&runs); err != nil {
		return false, err
	}
	return runs == int64(len(want)*nightRuns(events)), nil
}

// nightFiles lists the base names of the files the database was built from.
func nightFiles(ctx context.Context, db *sql.DB) (map[string]bool, error) {
	rows, err := db.QueryContext(ctx, queries.Get("bench.night_files"))
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }() // read to the end or failed already
	got := map[string]bool{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		got[filepath.Base(p)] = true
	}
	return got, rows.Err()
}

// nightSuites are the suites of n nights, in the order writeNights writes
// them.
func nightSuites(n int) []string {
	var out []string
	for k := 1; k <= n; k++ {
		out = append(out, fmt.Sprintf("baseline-%02d", k), fmt.Sprintf("candidate-%02d", k))
	}
	return out
}

// nightRuns is the runs per suite of a night of about events events.
func nightRuns(events int64) int { return max(1, int(events)/2/eventsPerRun) }

// writeNights writes n nights, each a baseline and a candidate suite of
// about events events together, a day apart, and returns the files.
func writeNights(dir string, n int, events int64) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	runs := nightRuns(events)
	suites := nightSuites(n)
	var files []string
	for k := 1; k <= n; k++ {
		start := simulate.DefaultStart.AddDate(0, 0, k-n)
		for _, o := range []simulate.Options{
			{Runs: runs, Seed: int64(2 * k), Suite: suites[2*k-2], Policy: simulate.Careful, Start: start},
			{Runs: runs, Seed: int64(2*k + 1), Suite: suites[2*k-1], Faults: true, Policy: simulate.Mixed, Start: start},
		} {
			path := filepath.Join(dir, o.Suite+".jsonl")
			if _, err := writeSuite(path, o); err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			files = append(files, path)
		}
	}
	return files, nil
}
