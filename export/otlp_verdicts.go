package export

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/faultlens/faultlens/metrics"
)

// faultlens' verdicts travel back into OpenTelemetry as the GenAI
// conventions' evaluation events (docs/otel-convention.md, section 7), so
// that a trace backend shows them on the agent's own trace: the run's gates,
// success and its unchecked or refuted claim on the root span, each call's
// defects on that call's span. The faultlens decoder reads only
// faultlens.event.* events, so an export read back is the same run.
const (
	evaluationEvent  = "gen_ai.evaluation.result"
	keyEvalName      = "gen_ai.evaluation.name"
	keyEvalLabel     = "gen_ai.evaluation.score.label"
	keyEvalValue     = "gen_ai.evaluation.score.value"
	keyEvalWhy       = "gen_ai.evaluation.explanation"
	keyToolCallID    = "gen_ai.tool.call.id"
	evalNamePrefix   = "faultlens."
	labelTrue        = "true"
	labelFalse       = "false"
	labelUnknown     = "unknown"
	verdictScoreTrue = 1.0
)

// runVerdicts judges the runs of suite ("" for all) on a metrics session
// of their own, by run id.
func runVerdicts(ctx context.Context, db *sql.DB, suite string) (map[string]*metrics.RunVerdict, error) {
	var suites []string
	if suite != "" {
		suites = []string{suite}
	}
	s, err := metrics.OpenSuites(ctx, db, suites)
	if err != nil {
		return nil, fmt.Errorf("verdicts: %w", err)
	}
	vs, err := s.Verdicts(ctx)
	if cerr := s.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("verdicts: %w", cerr)
	}
	if err != nil {
		return nil, err
	}
	out := make(map[string]*metrics.RunVerdict, len(vs))
	for i := range vs {
		out[vs[i].RunID] = &vs[i]
	}
	return out, nil
}

// putVerdicts adds the evaluation events of one run: after its spans, so
// that each call's defects find that call's span. A call without a span of
// its own has them on the root, naming it.
func (e *runEncoder) putVerdicts(v *metrics.RunVerdict) {
	if v == nil {
		return
	}
	for _, g := range v.Gates {
		putEvaluation(e.root, g)
	}
	if v.Claim.Name != "" {
		putEvaluation(e.root, v.Claim)
	}
	for _, d := range v.Defects {
		putEvaluation(e.root, d)
	}
	for _, id := range sortedKeys(v.Calls) {
		host, ok := e.byCall[id]
		if !ok {
			host = e.root
		}
		for _, d := range v.Calls[id] {
			ev := putEvaluation(host, d)
			if !ok {
				ev.Attributes().PutStr(keyToolCallID, id)
			}
		}
	}
}

// putEvaluation appends one gen_ai.evaluation.result event to s, at the
// span's end: its name, the verdict as label (true, false, unknown) and,
// when known, as score 1 or 0, and why.
func putEvaluation(s ptrace.Span, v metrics.Verdict) ptrace.SpanEvent {
	ev := s.Events().AppendEmpty()
	ev.SetName(evaluationEvent)
	ev.SetTimestamp(s.EndTimestamp())
	a := ev.Attributes()
	a.PutStr(keyEvalName, evalNamePrefix+v.Name)
	switch {
	case v.Value == nil:
		a.PutStr(keyEvalLabel, labelUnknown)
	case *v.Value:
		a.PutStr(keyEvalLabel, labelTrue)
		a.PutDouble(keyEvalValue, verdictScoreTrue)
	default:
		a.PutStr(keyEvalLabel, labelFalse)
		a.PutDouble(keyEvalValue, 0)
	}
	if v.Why != "" {
		a.PutStr(keyEvalWhy, v.Why)
	}
	return ev
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
