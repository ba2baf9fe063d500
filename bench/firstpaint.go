package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/simulate"
	"github.com/faultlens/faultlens/store"
	"github.com/faultlens/faultlens/ui"
)

// firstPaintTarget is issue 12.3's goal: first paint on a database of many
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
	if err := buildDB(ctx, one, m.in.clean, m.cfg.Limits); err != nil {
		return fmt.Errorf("first paint: %w", err)
	}
	base, err := timeFirstPaint(ctx, one, m.cfg.Limits)
	if err != nil {
		return fmt.Errorf("first paint: %w", err)
	}
	m.add(Row{Step: "first paint: 1 night", Events: m.in.events, Time: base})
	if m.cfg.Nights < 2 {
		return nil
	}
	path := filepath.Join(m.cfg.Dir, fmt.Sprintf("firstpaint-%d.duckdb", m.cfg.Nights))
	m.logf("writing and ingesting %d nights of about %d events (minutes at 1M events a night)", m.cfg.Nights, m.in.events)
	files, err := writeNights(filepath.Join(m.cfg.Dir, "nights"), m.cfg.Nights, m.in.events)
	if err != nil {
		return fmt.Errorf("first paint: %w", err)
	}
	if err := buildDB(ctx, path, files, m.cfg.Limits); err != nil {
		return fmt.Errorf("first paint: %w", err)
	}
	t, err := timeFirstPaint(ctx, path, m.cfg.Limits)
	if err != nil {
		return fmt.Errorf("first paint: %w", err)
	}
	m.add(Row{Step: fmt.Sprintf("first paint: %d nights", m.cfg.Nights), Events: m.in.events * int64(m.cfg.Nights), Time: t,
		Raw: "first paint: 1 night", RawTime: base, Target: Target{MaxRatio: firstPaintTarget}})
	return nil
}

// timeFirstPaint opens the database file as "faultlens ui --db" does and
// loads the first screen.
func timeFirstPaint(ctx context.Context, path string, lim store.Limits) (time.Duration, error) {
	t0 := time.Now()
	db, suites, err := store.OpenScoped(ctx, path, lim, ui.LastTwoSuites)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	if err := ui.FirstPaint(ctx, db, suites); err != nil {
		return 0, err
	}
	return time.Since(t0), nil
}

// buildDB ingests files into a fresh database file at path.
func buildDB(ctx context.Context, path string, files []string, lim store.Limits) error {
	os.Remove(path)
	db, err := store.Open(ctx, path, lim)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = ingest.Files(ctx, db, files, ingest.Options{})
	return err
}

// writeNights writes n nights, each a baseline and a candidate suite of
// about events events together, a day apart, and returns the files.
func writeNights(dir string, n int, events int64) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	runs := max(1, int(events)/2/eventsPerRun)
	var files []string
	for k := 1; k <= n; k++ {
		start := simulate.DefaultStart.AddDate(0, 0, k-n)
		for _, o := range []simulate.Options{
			{Runs: runs, Seed: int64(2 * k), Suite: fmt.Sprintf("baseline-%02d", k), Policy: simulate.Careful, Start: start},
			{Runs: runs, Seed: int64(2*k + 1), Suite: fmt.Sprintf("candidate-%02d", k), Faults: true, Policy: simulate.Mixed, Start: start},
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
