package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/store"
)

// With Nights, the first-paint step adds a row on a database of that many
// nights, against the one-night row as its raw figure, with the 2× target.
func TestFirstPaintNights(t *testing.T) {
	dir := t.TempDir()
	in, err := generate(dir, 3000)
	if err != nil {
		t.Fatal(err)
	}
	m := &measurer{cfg: Config{Events: 3000, Dir: dir, Limits: store.Limits{TempDir: t.TempDir()}, Nights: 3}, in: in, logf: func(string, ...any) {}}
	if err := m.firstPaint(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(m.rows) != 2 {
		t.Fatalf("%d rows, want 2", len(m.rows))
	}
	one, three := m.rows[0], m.rows[1]
	if one.Step != "first paint: 1 night" || three.Step != "first paint: 3 nights" {
		t.Fatalf("rows %q, %q", one.Step, three.Step)
	}
	if three.Events != 3*one.Events || three.RawTime != one.Time || three.Target.MaxRatio != 2 || !(three.Ratio() > 0) {
		t.Fatalf("3-night row %+v against 1-night row %+v", three, one)
	}
}

// A second run in the same directory reuses the nights database instead of
// writing and ingesting the nights again; a different size rebuilds it.
func TestFirstPaintReusesNights(t *testing.T) {
	dir := t.TempDir()
	in, err := generate(dir, 3000)
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	m := &measurer{cfg: Config{Events: 3000, Dir: dir, Limits: store.Limits{TempDir: t.TempDir()}, Nights: 2}, in: in,
		logf: func(f string, _ ...any) { log.WriteString(f + "\n") }}
	ctx := context.Background()
	if err := m.firstPaint(ctx); err != nil {
		t.Fatal(err)
	}
	nights := filepath.Join(dir, "nights")
	if err := os.RemoveAll(nights); err != nil {
		t.Fatal(err)
	}
	log.Reset()
	if err := m.firstPaint(ctx); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "reusing") {
		t.Fatalf("second run did not reuse the nights database; log:\n%s", log.String())
	}
	if _, err := os.Stat(nights); !os.IsNotExist(err) {
		t.Fatalf("second run wrote the nights again (stat: %v)", err)
	}
	if len(m.rows) != 4 || m.rows[3].Step != "first paint: 2 nights" {
		t.Fatalf("rows %+v", m.rows)
	}
	path := filepath.Join(dir, "firstpaint-2.duckdb")
	if ok, err := holdsNights(ctx, path, 2, 2*m.in.events, m.cfg.Limits); err != nil || ok {
		t.Fatalf("holdsNights for another night size = %v, %v; want false", ok, err)
	}
	if ok, err := holdsNights(ctx, path, 3, m.in.events, m.cfg.Limits); err != nil || ok {
		t.Fatalf("holdsNights for 3 nights = %v, %v; want false", ok, err)
	}
}
