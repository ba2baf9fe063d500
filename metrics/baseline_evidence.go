package metrics

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/faultlens/faultlens/queries"
)

// RunFact is the frozen evidence of one run: its gates, claimed terminal,
// violations and the counts behind the call-level rates. Pointers are
// NULL-able judgements (unknown, not applicable).
type RunFact struct {
	RunID                  string     `json:"run_id"`
	Suite                  string     `json:"suite"`
	Scenario               string     `json:"scenario"`
	StartedAt              *time.Time `json:"started_at"`
	AgentName              *string    `json:"agent_name"`
	AgentVersion           *string    `json:"agent_version"`
	FaultClass             *string    `json:"fault_class"`
	PlanValid              *bool      `json:"plan_valid"`
	EvidenceSatisfied      *bool      `json:"evidence_satisfied"`
	AnswerDeliverable      *bool      `json:"answer_deliverable"`
	TerminalCommitted      *bool      `json:"terminal_committed"`
	Success                *bool      `json:"success"`
	Claimed                *string    `json:"claimed"`
	MaskedSuccess          *bool      `json:"masked_success"`
	UndisclosedDegradation *bool      `json:"undisclosed_degradation"`
	ZeroCallViolation      *bool      `json:"zero_call_violation"`
	SealViolation          *bool      `json:"seal_violation"`
	ExpectationMet         *bool      `json:"expectation_met"`
	RetryBudgetOverrun     *bool      `json:"retry_budget_overrun"`
	DeadlineOverrun        *bool      `json:"deadline_overrun"`
	ToolCalls              int64      `json:"tool_calls"`
	Resends                int64      `json:"resends"`
	InvalidResends         int64      `json:"invalid_resends"`
	UnknownOutcomeResends  int64      `json:"unknown_outcome_resends"`
	Duplicates             int64      `json:"duplicates"`
	CircuitOpenCalls       int64      `json:"circuit_open_calls"`
	BreakerViolations      int64      `json:"breaker_violations"`
	DegradedEvidence       int64      `json:"degraded_evidence"`
	DegradedEvidenceOK     int64      `json:"degraded_evidence_ok"`
	DirectEvidence         int64      `json:"direct_evidence"`
	DirectEvidenceOK       int64      `json:"direct_evidence_ok"`
	EndToEndMs             *float64   `json:"end_to_end_ms"`
}

// LatencySample is one stage span, tool call or run end to end, in
// milliseconds. Queue and exec are nil for the run scope.
type LatencySample struct {
	RunID   string   `json:"run_id"`
	Scope   string   `json:"scope"`
	Name    string   `json:"name"`
	QueueMs *float64 `json:"queue_ms"`
	ExecMs  *float64 `json:"exec_ms"`
	WallMs  *float64 `json:"wall_ms"`
}

// RecoverySample is one recovery chain: its error class and outcome.
type RecoverySample struct {
	RunID    string `json:"run_id"`
	Category string `json:"category"`
	Outcome  string `json:"outcome"`
}

// Evidence is everything a comparison needs about one run set, whether read
// from the live fact tables or from a saved baseline.
type Evidence struct {
	Runs     []RunFact
	Latency  []LatencySample
	Recovery []RecoverySample
}

// evidenceParts names the three parts of the evidence, in file order.
var evidenceParts = []string{"runs", "latency", "recovery"}

// Evidence reads the frozen evidence of one suite, each part chunk by
// chunk (readPart, scan_sink.go).
func (s *Session) Evidence(ctx context.Context, suite string) (*Evidence, error) {
	var runs, latency, recovery int64
	err := s.conn.QueryRowContext(ctx, queries.Get("baseline.counts"), sql.Named("suite", suite)).Scan(&runs, &latency, &recovery)
	if err != nil {
		return nil, fmt.Errorf("metrics: evidence counts of %q: %w", suite, err)
	}
	ev := &Evidence{Runs: make([]RunFact, 0, runs), Latency: make([]LatencySample, 0, latency),
		Recovery: make([]RecoverySample, 0, recovery)}
	for _, part := range evidenceParts {
		if err := s.readPart(ctx, suite, part, ev); err != nil {
			return nil, err
		}
	}
	return ev, nil
}

// SaveEvidence writes the evidence of suite as Parquet files, one per part
// (runs, latency, recovery), at paths[part].
func (s *Session) SaveEvidence(ctx context.Context, suite string, paths map[string]string) error {
	for _, part := range evidenceParts {
		table := queries.Ident("baseline_" + part)
		// The part is a statement of its own: its ";" would end the CREATE.
		body := strings.TrimSuffix(queries.Get("baseline."+part), ";")
		q := queries.Render("baseline.save", queries.Args{"table": table, "part": body})
		if _, err := s.conn.ExecContext(ctx, q, sql.Named("suite", suite)); err != nil {
			return fmt.Errorf("metrics: save %s of %q: %w", part, suite, err)
		}
		copyStmt := queries.Render("baseline.save_copy", queries.Args{"table": table, "path": queries.Literal(paths[part])})
		_, err := s.conn.ExecContext(ctx, copyStmt)
		// The temp table goes whether or not the copy worked; a failed drop
		// leaves a TEMP table that the next save replaces.
		_, _ = s.conn.ExecContext(ctx, queries.Render("baseline.save_drop", queries.Args{"table": table}))
		if err != nil {
			return fmt.Errorf("metrics: write %s: %w", paths[part], err)
		}
	}
	return nil
}

// SourceFile is one ingested file and its content hash.
type SourceFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Sources lists the ingested files.
func (s *Session) Sources(ctx context.Context) ([]SourceFile, error) {
	rows, err := s.query(ctx, "baseline.sources")
	if err != nil {
		return nil, err
	}
	out := make([]SourceFile, 0, len(rows))
	for _, r := range rows {
		out = append(out, SourceFile{Path: fmt.Sprint(r["path"]), SHA256: fmt.Sprint(r["sha256"])})
	}
	return out, nil
}

// Agents lists the distinct "name@version" agents of a suite.
func (s *Session) Agents(ctx context.Context, suite string) ([]string, error) {
	rows, err := s.query(ctx, "baseline.agents", sql.Named("suite", suite))
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		out = append(out, fmt.Sprint(r["agent"]))
	}
	return out, nil
}

// ScanEvidence appends the rows of one evidence part ("runs", "latency" or
// "recovery") to ev. The rows must have the columns of the baseline.<part>
// query, by name; a saved baseline's Parquet files have them.
func ScanEvidence(rows *sql.Rows, part string, ev *Evidence) error {
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	if part == "latency" && slices.Equal(cols, latencyColumns) {
		return scanLatency(rows, ev)
	}
	if part == "runs" && slices.Equal(cols, runColumns) {
		return scanRuns(rows, ev)
	}
	if part == "recovery" && slices.Equal(cols, recoveryColumns) {
		return scanRecovery(rows, ev)
	}
	return scanGeneric(rows, part, cols, ev)
}

// scanGeneric reads any columns by name through a map per row: the path
// for a saved baseline whose files have other columns than the queries.
func scanGeneric(rows *sql.Rows, part string, cols []string, ev *Evidence) error {
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("metrics: scan %s: %w", part, err)
		}
		m := make(map[string]any, len(cols))
		for i, c := range cols {
			m[c] = vals[i]
		}
		switch part {
		case "runs":
			ev.Runs = append(ev.Runs, runFact(m))
		case "latency":
			ev.Latency = append(ev.Latency, LatencySample{RunID: asString(m["run_id"]), Scope: asString(m["scope"]), Name: asString(m["name"]),
				QueueMs: asFloat(m["queue_ms"]), ExecMs: asFloat(m["exec_ms"]), WallMs: asFloat(m["wall_ms"])})
		case "recovery":
			ev.Recovery = append(ev.Recovery, RecoverySample{RunID: asString(m["run_id"]), Category: asString(m["category"]), Outcome: asString(m["outcome"])})
		default:
			return fmt.Errorf("metrics: unknown evidence part %q", part)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("metrics: scan %s: %w", part, err)
	}
	return nil
}

func runFact(m map[string]any) RunFact {
	f := RunFact{
		RunID: asString(m["run_id"]), Suite: asString(m["suite"]), Scenario: asString(m["scenario"]),
		AgentName: optStr(m["agent_name"]), AgentVersion: optStr(m["agent_version"]), FaultClass: optStr(m["fault_class"]),
		PlanValid: optBool(m["plan_valid"]), EvidenceSatisfied: optBool(m["evidence_satisfied"]),
		AnswerDeliverable: optBool(m["answer_deliverable"]), TerminalCommitted: optBool(m["terminal_committed"]),
		Success: optBool(m["success"]), Claimed: optStr(m["claimed"]), MaskedSuccess: optBool(m["masked_success"]),
		UndisclosedDegradation: optBool(m["undisclosed_degradation"]), ZeroCallViolation: optBool(m["zero_call_violation"]),
		SealViolation: optBool(m["seal_violation"]), ExpectationMet: optBool(m["expectation_met"]),
		RetryBudgetOverrun: optBool(m["retry_budget_overrun"]), DeadlineOverrun: optBool(m["deadline_overrun"]),
		ToolCalls: asInt(m["tool_calls"]), Resends: asInt(m["resends"]), InvalidResends: asInt(m["invalid_resends"]),
		UnknownOutcomeResends: asInt(m["unknown_outcome_resends"]), Duplicates: asInt(m["duplicates"]),
		CircuitOpenCalls: asInt(m["circuit_open_calls"]), BreakerViolations: asInt(m["breaker_violations"]),
		DegradedEvidence: asInt(m["degraded_evidence"]), DegradedEvidenceOK: asInt(m["degraded_evidence_ok"]),
		DirectEvidence: asInt(m["direct_evidence"]), DirectEvidenceOK: asInt(m["direct_evidence_ok"]),
		EndToEndMs: asFloat(m["end_to_end_ms"]),
	}
	if t, ok := m["started_at"].(time.Time); ok {
		f.StartedAt = &t
	}
	return f
}

func optStr(v any) *string {
	if v == nil {
		return nil
	}
	s := fmt.Sprint(v)
	return &s
}

func optBool(v any) *bool {
	b, ok := v.(bool)
	if !ok {
		return nil
	}
	return &b
}
