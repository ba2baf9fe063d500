package metrics

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/faultlens/faultlens/queries"
)

// ErrNoTwin says a run has no counterpart in the other suite.
var ErrNoTwin = errors.New("no run of the same request in the other suite")

// RunPair is one request answered in both suites: the baseline's run beside
// the candidate's, and where they first part.
type RunPair struct {
	Base, Cand *RunDetail
	// MatchedBy says how the twin was found: "client_message_id" or
	// "scenario, task kind and start order".
	MatchedBy string
	// Gates lists the gates whose verdicts differ ("plan", "evidence",
	// "deliverable", "committed", "success"), in that order.
	Gates []string
	// Diverge is the first timeline step where the two runs did something
	// different (kind, name, status, error category or recovery); -1 when
	// the timelines match step for step. It compares by position; Steps
	// and FirstDiff line the steps up by what they did.
	Diverge int
	// Steps is both timelines aligned step by step (inserted and missing
	// steps as gaps), FirstDiff the first of them that differs (-1: none).
	Steps     []AlignedStep
	FirstDiff int
}

// Pair finds the twin of run id in the other of the two suites base and cand
// and returns both runs' details, the baseline's first. ErrNoTwin when the
// other suite has none.
func (s *Session) Pair(ctx context.Context, id, base, cand string) (*RunPair, error) {
	d, err := s.RunDetail(ctx, id)
	if err != nil {
		return nil, err
	}
	other := cand
	if d.Suite == cand {
		other = base
	}
	var twin, by string
	err = s.conn.QueryRowContext(ctx, queries.Get("ui.run_twin"),
		sql.Named("run_id", id), sql.Named("other", other)).Scan(&twin, &by)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("run %s in %s: %w", id, other, ErrNoTwin)
	}
	if err != nil {
		return nil, fmt.Errorf("metrics: ui.run_twin: %w", err)
	}
	t, err := s.RunDetail(ctx, twin)
	if err != nil {
		return nil, err
	}
	p := &RunPair{Base: d, Cand: t, MatchedBy: by}
	if d.Suite == cand {
		p.Base, p.Cand = t, d
	}
	p.Gates = gateDiff(p.Base, p.Cand)
	p.Diverge = diverge(p.Base.Timeline, p.Cand.Timeline)
	p.Steps = align(p.Base.Timeline, p.Cand.Timeline)
	p.FirstDiff = firstDiff(p.Steps)
	return p, nil
}

// gateDiff names the gates whose verdicts differ between a and b.
func gateDiff(a, b *RunDetail) []string {
	tri := func(p *bool) string {
		if p == nil {
			return "unknown"
		}
		return fmt.Sprint(*p)
	}
	var out []string
	for _, g := range []struct {
		name string
		a, b string
	}{
		{"plan", tri(a.PlanValid), tri(b.PlanValid)},
		{"evidence", tri(a.EvidenceSatisfied), tri(b.EvidenceSatisfied)},
		{"deliverable", fmt.Sprint(a.AnswerDeliverable), fmt.Sprint(b.AnswerDeliverable)},
		{"committed", fmt.Sprint(a.TerminalCommitted), fmt.Sprint(b.TerminalCommitted)},
		{"success", tri(a.Success), tri(b.Success)},
	} {
		if g.a != g.b {
			out = append(out, g.name)
		}
	}
	return out
}

// step is what a timeline entry did, without its timing: two runs of one
// request that only ran at different speeds have not diverged.
func step(s Span) string {
	return s.Kind + "\x00" + s.Name + "\x00" + s.Status + "\x00" + s.Category + "\x00" + s.Recovery
}

// diverge is the index of the first step where a and b differ (one ending
// early counts), or -1.
func diverge(a, b []Span) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || step(a[i]) != step(b[i]) {
			return i
		}
	}
	return -1
}

// Pairs returns up to limit candidate runs that did not succeed, masked
// ones first, each beside its baseline twin; runs without a twin are
// skipped (at most 4×limit runs are looked at).
func (s *Session) Pairs(ctx context.Context, base, cand string, limit int) ([]RunPair, error) {
	rows, _, err := s.RunsPage(ctx, RunFilter{Suite: cand, Quick: "failed"}, RunSort{Column: "masked", Desc: true}, 0, 4*limit)
	if err != nil {
		return nil, err
	}
	var out []RunPair
	for _, r := range rows {
		if len(out) == limit {
			break
		}
		p, err := s.Pair(ctx, r.RunID, base, cand)
		if errors.Is(err, ErrNoTwin) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, *p)
	}
	return out, nil
}
