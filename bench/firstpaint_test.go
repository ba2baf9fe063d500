package bench

import (
	"context"
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
