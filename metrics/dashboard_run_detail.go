package metrics

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/faultlens/faultlens/queries"
)

// RunDetail is everything the evaluator knows about one run: its gates with
// what each read, its timeline and its evidence.
type RunDetail struct {
	RunID, Suite, Scenario, Agent, Claimed string
	// Gates; nil means unknown.
	PlanValid, EvidenceSatisfied         *bool
	AnswerDeliverable, TerminalCommitted bool
	Success                              *bool
	EvidenceNeeded                       *int64
	ClaimsConfirmed                      int64
	MinGrade                             string
	Terminals, VisibleChars              int64
	ChunksRejected                       int64
	GenerationOutcome                    string
	SealViolation, Masked, Undisclosed   bool
	Calls, Resends, InvalidResends       int64
	EndToEndMs                           *float64
	DeadlineMs                           *int64
	Timeline                             []Span
	Evidence                             []EvidenceItem
}

// Span is one stage, tool call or model call on the run's timeline.
type Span struct {
	Kind, Name, ID   string // kind: stage, tool_call or model_call
	Attempt          int64
	Status, Category string
	Retryable        *bool
	Recovery         string // how this call recovers, "" for none
	RecoveryOf       string // the call it recovers
	InvalidResend    bool
	BreakerViolation bool
	StartMs          float64 // from the run's earliest instant
	QueueMs, ExecMs  float64
}

// EvidenceItem is one evidence event of a run.
type EvidenceItem struct {
	Claim, Status, Grade, Path, CallID string
}

// RunDetail returns the detail of run id; sql.ErrNoRows when there is none.
func (s *Session) RunDetail(ctx context.Context, id string) (*RunDetail, error) {
	d := &RunDetail{}
	var plan, ev, succ sql.NullBool
	var need, deadline sql.NullInt64
	var e2e sql.NullFloat64
	err := s.conn.QueryRowContext(ctx, queries.Get("ui.run_gates"), sql.Named("run_id", id)).Scan(
		&d.RunID, &d.Suite, &d.Scenario, &d.Agent, &d.Claimed,
		&plan, &need, &d.ClaimsConfirmed, &ev, &d.MinGrade,
		&d.AnswerDeliverable, &d.Terminals, &d.VisibleChars, &d.ChunksRejected, &d.GenerationOutcome,
		&d.TerminalCommitted, &d.SealViolation, &succ, &d.Masked, &d.Undisclosed,
		&d.Calls, &d.Resends, &d.InvalidResends, &e2e, &deadline)
	if err != nil {
		return nil, fmt.Errorf("metrics: run %s: %w", id, err)
	}
	d.PlanValid, d.EvidenceSatisfied, d.Success = boolPtr(plan), boolPtr(ev), boolPtr(succ)
	if need.Valid {
		d.EvidenceNeeded = &need.Int64
	}
	if deadline.Valid {
		d.DeadlineMs = &deadline.Int64
	}
	if e2e.Valid {
		d.EndToEndMs = &e2e.Float64
	}
	if d.Timeline, err = s.timeline(ctx, id); err != nil {
		return nil, err
	}
	if d.Evidence, err = s.evidence(ctx, id); err != nil {
		return nil, err
	}
	return d, nil
}

func boolPtr(b sql.NullBool) *bool {
	if !b.Valid {
		return nil
	}
	v := b.Bool
	return &v
}

func (s *Session) timeline(ctx context.Context, id string) ([]Span, error) {
	rows, err := s.conn.QueryContext(ctx, queries.Get("ui.run_timeline"), sql.Named("run_id", id))
	if err != nil {
		return nil, fmt.Errorf("metrics: ui.run_timeline: %w", err)
	}
	// A failed read shows in rows.Err; closing after it has nothing to add.
	defer func() { _ = rows.Close() }()
	var out []Span
	for rows.Next() {
		var sp Span
		var retry sql.NullBool
		if err := rows.Scan(&sp.Kind, &sp.Name, &sp.ID, &sp.Attempt, &sp.Status, &sp.Category, &retry,
			&sp.Recovery, &sp.RecoveryOf, &sp.InvalidResend, &sp.BreakerViolation,
			&sp.StartMs, &sp.QueueMs, &sp.ExecMs); err != nil {
			return nil, fmt.Errorf("metrics: ui.run_timeline: %w", err)
		}
		sp.Retryable = boolPtr(retry)
		out = append(out, sp)
	}
	return out, rows.Err()
}

func (s *Session) evidence(ctx context.Context, id string) ([]EvidenceItem, error) {
	rows, err := s.conn.QueryContext(ctx, queries.Get("ui.run_evidence"), sql.Named("run_id", id))
	if err != nil {
		return nil, fmt.Errorf("metrics: ui.run_evidence: %w", err)
	}
	// A failed read shows in rows.Err; closing after it has nothing to add.
	defer func() { _ = rows.Close() }()
	var out []EvidenceItem
	for rows.Next() {
		var e EvidenceItem
		if err := rows.Scan(&e.Claim, &e.Status, &e.Grade, &e.Path, &e.CallID); err != nil {
			return nil, fmt.Errorf("metrics: ui.run_evidence: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
