package metrics

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/faultlens/faultlens/queries"
)

// BreakerSlice counts the calls of one tool in one time slice that saw its
// breaker open or half-open, and those that went through it open.
type BreakerSlice struct {
	Open, HalfOpen, Violations int64
}

// BreakerLane is the breaker of one tool in one suite over time: the
// suite's time span cut into equal slices. Runs overlap and each holds its
// own breaker, so a slice counts what any run's calls saw.
type BreakerLane struct {
	Suite, Tool     string
	FirstMs, LastMs float64 // the suite's span, ms since the epoch
	Slices          []BreakerSlice
}

// BreakerEvent is a change of state of one run's breaker of a tool (the
// first call that saw the new state; a run starts closed) or a call
// through an open breaker.
type BreakerEvent struct {
	Suite, Tool      string
	AtMs             float64 // ms since the epoch
	From, To         string  // closed, open or half_open
	RunID, CallID    string
	Status           string
	BreakerViolation bool // the call went through an open breaker
}

// BreakerTimeline is every breaker of the scoped suites: a lane per suite
// and tool with a circuit, and up to the limit asked for of their events
// in time order, with their total.
type BreakerTimeline struct {
	Lanes       []BreakerLane
	Events      []BreakerEvent
	TotalEvents int64
}

// breakerCall is one row of ui.breaker_calls.
type breakerCall struct {
	suite, tool, run, call, state, status string
	at                                    float64
	violation                             bool
}

// Breakers rebuilds the breaker of every tool whose calls saw it open or
// half-open, per suite, in slices time slices, with at most limit events.
// The SQL reads back only the calls of the runs concerned; the changes of
// state are followed here, run by run.
func (s *Session) Breakers(ctx context.Context, slices, limit int) (*BreakerTimeline, error) {
	slices = max(1, slices)
	spans := map[string][2]float64{}
	rows, err := s.conn.QueryContext(ctx, queries.Get("ui.breaker_spans"))
	if err != nil {
		return nil, fmt.Errorf("metrics: ui.breaker_spans: %w", err)
	}
	for rows.Next() {
		var suite string
		var t [2]float64
		if err := rows.Scan(&suite, &t[0], &t[1]); err != nil {
			closeQuietly(rows)
			return nil, fmt.Errorf("metrics: ui.breaker_spans: %w", err)
		}
		spans[suite] = t
	}
	closeQuietly(rows)
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("metrics: ui.breaker_spans: %w", err)
	}
	calls, err := s.breakerCalls(ctx)
	if err != nil {
		return nil, err
	}
	t := &BreakerTimeline{}
	lanes := map[[2]string]*BreakerLane{}
	var events []BreakerEvent
	prev := "closed"
	for i, c := range calls {
		if i == 0 || c.run != calls[i-1].run || c.tool != calls[i-1].tool {
			prev = "closed" // a run's breaker starts closed
		}
		if c.violation || c.state != prev {
			events = append(events, BreakerEvent{Suite: c.suite, Tool: c.tool, AtMs: c.at, From: prev, To: c.state,
				RunID: c.run, CallID: c.call, Status: c.status, BreakerViolation: c.violation})
		}
		prev = c.state
		if c.state == "closed" {
			continue
		}
		k := [2]string{c.suite, c.tool}
		l := lanes[k]
		if l == nil {
			sp := spans[c.suite]
			l = &BreakerLane{Suite: c.suite, Tool: c.tool, FirstMs: sp[0], LastMs: sp[1], Slices: make([]BreakerSlice, slices)}
			lanes[k] = l
		}
		sl := &l.Slices[sliceOf(c.at, l.FirstMs, l.LastMs, slices)]
		if c.state == "open" {
			sl.Open++
		} else {
			sl.HalfOpen++
		}
		if c.violation {
			sl.Violations++
		}
	}
	for _, l := range lanes {
		t.Lanes = append(t.Lanes, *l)
	}
	slicesSortLanes(t.Lanes)
	slicesSortEvents(events)
	t.TotalEvents = int64(len(events))
	t.Events = events[:min(len(events), max(0, limit))]
	return t, nil
}

func (s *Session) breakerCalls(ctx context.Context) ([]breakerCall, error) {
	rows, err := s.conn.QueryContext(ctx, queries.Get("ui.breaker_calls"))
	if err != nil {
		return nil, fmt.Errorf("metrics: ui.breaker_calls: %w", err)
	}
	defer closeQuietly(rows)
	var out []breakerCall
	for rows.Next() {
		var c breakerCall
		if err := rows.Scan(&c.suite, &c.tool, &c.run, &c.call, &c.at, &c.state, &c.status, &c.violation); err != nil {
			return nil, fmt.Errorf("metrics: ui.breaker_calls: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("metrics: ui.breaker_calls: %w", err)
	}
	return out, nil
}

// sliceOf is the slice of n equal slices of [t0, t1] that holds at.
func sliceOf(at, t0, t1 float64, n int) int {
	if t1 <= t0 {
		return 0
	}
	i := int(math.Floor((at - t0) * float64(n) / (t1 - t0)))
	return min(n-1, max(0, i))
}

func slicesSortLanes(ls []BreakerLane) {
	slices.SortFunc(ls, func(a, b BreakerLane) int {
		return cmp.Or(cmp.Compare(a.Suite, b.Suite), cmp.Compare(a.Tool, b.Tool))
	})
}

// slicesSortEvents orders events by suite, then time, run and call.
func slicesSortEvents(es []BreakerEvent) {
	slices.SortStableFunc(es, func(a, b BreakerEvent) int {
		return cmp.Or(cmp.Compare(a.Suite, b.Suite), cmp.Compare(a.AtMs, b.AtMs), cmp.Compare(a.RunID, b.RunID), cmp.Compare(a.CallID, b.CallID))
	})
}
