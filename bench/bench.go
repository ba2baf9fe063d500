// Package bench measures faultlens at scale against raw DuckDB on the same
// input, in one process: ingest of JSON Lines (clean and with 1% bad lines)
// and Arrow, the full report, a comparison, and each dashboard view's data
// call. Every step is one Row of the table that Write prints.
package bench

import (
	"context"
	"fmt"
	"io"

	"github.com/faultlens/faultlens/store"
)

// Config says what Run measures and where.
type Config struct {
	// Events is about how many events to generate, half per suite.
	Events int
	// Dir is where the generated input is written; it must exist.
	Dir string
	// Limits are the DuckDB limits of every database opened, faultlens's
	// and the raw figures' alike.
	Limits store.Limits
	// Log, when not nil, is told what is being measured as it goes.
	Log io.Writer
	// Nights, when above 1, adds a first-paint row on a database of that
	// many nights of Events events each (minutes to build at 1M events).
	Nights int
}

// Result is what Run measured.
type Result struct {
	// Events is the number of events generated (both suites).
	Events int64
	// Rows are the measured steps in table order.
	Rows []Row
	// Notes explain the raw figures; Write prints them under the table.
	Notes []string
}

// Run generates the input and measures every step in order.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			// Progress lines only; a failed one changes no figure.
			_, _ = fmt.Fprintf(cfg.Log, "bench: "+format+"\n", args...)
		}
	}
	logf("generating about %d events in %s", cfg.Events, cfg.Dir)
	in, err := generate(cfg.Dir, cfg.Events)
	if err != nil {
		return nil, fmt.Errorf("bench: generate: %w", err)
	}
	m := &measurer{cfg: cfg, in: in, logf: logf}
	defer m.close()
	steps := []func(context.Context) error{m.ingestJSONL, m.ingestBadLines, m.ingestArrow, m.report, m.compare, m.views,
		m.ingestUnderLimit, m.firstPaint, m.viewsUI}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
	}
	return &Result{Events: in.events, Rows: m.rows, Notes: notes}, nil
}
