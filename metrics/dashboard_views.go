package metrics

import (
	"context"
	"fmt"

	"github.com/faultlens/faultlens/queries"
)

// HistogramBuckets is the number of buckets of a LatencyHistogram.
const HistogramBuckets = 10

// LatencyHistogram is the wall-time distribution of one stage or tool in
// one suite: counts in HistogramBuckets buckets spaced logarithmically from
// LoMs to HiMs, a scale shared by every suite.
type LatencyHistogram struct {
	Suite, Scope, Name string
	Counts             [HistogramBuckets]int64
	LoMs, HiMs         float64
}

// LatencyHistograms returns the wall-time histogram of every stage and tool
// per suite, ordered by suite, scope and name.
func (s *Session) LatencyHistograms(ctx context.Context) ([]LatencyHistogram, error) {
	rows, err := s.conn.QueryContext(ctx, queries.Get("ui.latency_histogram"))
	if err != nil {
		return nil, fmt.Errorf("metrics: ui.latency_histogram: %w", err)
	}
	// A failed read shows in rows.Err; closing after it has nothing to add.
	defer func() { _ = rows.Close() }()
	var out []LatencyHistogram
	for rows.Next() {
		var h LatencyHistogram
		var bucket int
		var n int64
		if err := rows.Scan(&h.Suite, &h.Scope, &h.Name, &bucket, &n, &h.LoMs, &h.HiMs); err != nil {
			return nil, fmt.Errorf("metrics: ui.latency_histogram: %w", err)
		}
		if k := len(out) - 1; k < 0 || out[k].Suite != h.Suite || out[k].Scope != h.Scope || out[k].Name != h.Name {
			out = append(out, h)
		}
		if bucket >= 0 && bucket < HistogramBuckets {
			out[len(out)-1].Counts[bucket] = n
		}
	}
	return out, rows.Err()
}

// TableColumns is one table of the database with its columns.
type TableColumns struct {
	Table   string
	Columns []Column
}

// Column is one column of a table.
type Column struct {
	Name, Type string
}

// Schema lists the ingested tables and their columns in order.
func (s *Session) Schema(ctx context.Context) ([]TableColumns, error) {
	rows, err := s.conn.QueryContext(ctx, queries.Get("ui.schema"))
	if err != nil {
		return nil, fmt.Errorf("metrics: ui.schema: %w", err)
	}
	// A failed read shows in rows.Err; closing after it has nothing to add.
	defer func() { _ = rows.Close() }()
	var out []TableColumns
	for rows.Next() {
		var t string
		var c Column
		if err := rows.Scan(&t, &c.Name, &c.Type); err != nil {
			return nil, fmt.Errorf("metrics: ui.schema: %w", err)
		}
		if len(out) == 0 || out[len(out)-1].Table != t {
			out = append(out, TableColumns{Table: t})
		}
		out[len(out)-1].Columns = append(out[len(out)-1].Columns, c)
	}
	return out, rows.Err()
}
