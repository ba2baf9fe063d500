package metrics

import (
	"context"
	"fmt"

	"github.com/faultlens/faultlens/queries"
)

// BreakerSlice is the calls of one tool in one slice of its time span.
type BreakerSlice struct {
	Calls, Open, HalfOpen, Violations int64
}

// BreakerLane is the breaker of one tool in one suite over time: the tool's
// calls cut into equal slices from its first call to its last.
type BreakerLane struct {
	Suite, Tool     string
	FirstMs, LastMs float64 // ms since the epoch
	Calls           int64
	Slices          []BreakerSlice
}

// BreakerEvent is a change of a breaker's state (the first call that saw
// the new state) or a call through an open breaker.
type BreakerEvent struct {
	Suite, Tool      string
	AtMs             float64 // ms since the epoch
	From, To         string  // closed, open or half_open
	RunID, CallID    string
	Status           string
	BreakerViolation bool // the call went through an open breaker
}

// BreakerTimeline is every breaker of the scoped suites: a lane per tool with
// a circuit and up to the limit asked for of its events, with their total.
type BreakerTimeline struct {
	Lanes       []BreakerLane
	Events      []BreakerEvent
	TotalEvents int64
}

// Breakers rebuilds the breaker of every tool that reports a circuit state,
// per suite, in slices time slices, with at most limit events.
func (s *Session) Breakers(ctx context.Context, slices, limit int) (*BreakerTimeline, error) {
	slices = max(1, slices)
	rows, err := s.conn.QueryContext(ctx, queries.Get("ui.breaker_strip"), slices)
	if err != nil {
		return nil, fmt.Errorf("metrics: ui.breaker_strip: %w", err)
	}
	defer rows.Close()
	t := &BreakerTimeline{}
	for rows.Next() {
		var l BreakerLane
		var i int
		var sl BreakerSlice
		if err := rows.Scan(&l.Suite, &l.Tool, &i, &sl.Calls, &sl.Open, &sl.HalfOpen, &sl.Violations,
			&l.FirstMs, &l.LastMs, &l.Calls); err != nil {
			return nil, fmt.Errorf("metrics: ui.breaker_strip: %w", err)
		}
		if k := len(t.Lanes) - 1; k < 0 || t.Lanes[k].Suite != l.Suite || t.Lanes[k].Tool != l.Tool {
			l.Slices = make([]BreakerSlice, slices)
			t.Lanes = append(t.Lanes, l)
		}
		if i >= 0 && i < slices {
			t.Lanes[len(t.Lanes)-1].Slices[i] = sl
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("metrics: ui.breaker_strip: %w", err)
	}
	ev, err := s.conn.QueryContext(ctx, queries.Get("ui.breaker_events"), limit)
	if err != nil {
		return nil, fmt.Errorf("metrics: ui.breaker_events: %w", err)
	}
	defer ev.Close()
	for ev.Next() {
		var e BreakerEvent
		if err := ev.Scan(&e.Suite, &e.Tool, &e.AtMs, &e.From, &e.To, &e.RunID, &e.CallID, &e.Status,
			&e.BreakerViolation, &t.TotalEvents); err != nil {
			return nil, fmt.Errorf("metrics: ui.breaker_events: %w", err)
		}
		t.Events = append(t.Events, e)
	}
	if err := ev.Err(); err != nil {
		return nil, fmt.Errorf("metrics: ui.breaker_events: %w", err)
	}
	return t, nil
}
