package metrics

import (
	"slices"
	"strings"

	"github.com/duckdb/duckdb-go/v2"
)

// The readers of one data chunk per evidence part (scan_sink.go). Each
// value has the meaning the row scanners give it (scanLatency, scanRuns):
// NULL strings are "" (required) or nil (optional), NULL counts 0.

// latencyTypes and recoveryTypes are the types of latencyColumns and
// recoveryColumns.
var (
	latencyTypes = []duckdb.Type{duckdb.TYPE_VARCHAR, duckdb.TYPE_VARCHAR, duckdb.TYPE_VARCHAR,
		duckdb.TYPE_DOUBLE, duckdb.TYPE_DOUBLE, duckdb.TYPE_DOUBLE}
	recoveryTypes = []duckdb.Type{duckdb.TYPE_VARCHAR, duckdb.TYPE_VARCHAR, duckdb.TYPE_VARCHAR}
)

// runTypes are the types of runColumns: strings, started_at, three
// optional strings, the judgements (claimed, a string, among them), the
// counts and end_to_end_ms.
func runTypes() []duckdb.Type {
	t := []duckdb.Type{duckdb.TYPE_VARCHAR, duckdb.TYPE_VARCHAR, duckdb.TYPE_VARCHAR, duckdb.TYPE_TIMESTAMP_TZ,
		duckdb.TYPE_VARCHAR, duckdb.TYPE_VARCHAR, duckdb.TYPE_VARCHAR}
	for range 13 {
		t = append(t, duckdb.TYPE_BOOLEAN)
	}
	t[12] = duckdb.TYPE_VARCHAR // claimed
	for range 11 {
		t = append(t, duckdb.TYPE_BIGINT)
	}
	return append(t, duckdb.TYPE_DOUBLE)
}

// strViews are borrowed views of a chunk's string columns.
func strViews(c *duckdb.DataChunk, cols ...int) ([]duckdb.VectorView[string], error) {
	out := make([]duckdb.VectorView[string], len(cols))
	for i, col := range cols {
		v, err := c.GetVector(col)
		if err != nil {
			return nil, err
		}
		if out[i], err = duckdb.GetVectorView[string](v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// runIDs copies run ids out of a chunk, once per stretch of equal ones
// (the samples of a run mostly come together); "" for NULL.
type runIDs struct{ last string }

func (r *runIDs) of(v duckdb.VectorView[string], row int) (string, error) {
	b, ok, err := v.GetValueBorrowed(row)
	if err != nil || !ok {
		return "", err
	}
	if b != r.last {
		r.last = strings.Clone(b)
	}
	return r.last, nil
}

// strView is the one copy of a borrowed string, "" for NULL.
func (in *interner) strView(v duckdb.VectorView[string], row int) (string, error) {
	b, ok, err := v.GetValueBorrowed(row)
	if err != nil || !ok {
		return "", err
	}
	if s, ok := in.strs[b]; ok {
		return s, nil
	}
	s := strings.Clone(b)
	in.strs[s] = s
	return s, nil
}

// optView is the shared pointer to a borrowed string, nil for NULL.
func (in *interner) optView(v duckdb.VectorView[string], row int) (*string, error) {
	b, ok, err := v.GetValueBorrowed(row)
	if err != nil || !ok {
		return nil, err
	}
	if p, ok := in.opts[b]; ok {
		return p, nil
	}
	s := strings.Clone(b)
	p := &s
	in.opts[s] = p
	return p, nil
}

// latency appends a chunk of baseline.latency rows.
func (s *chunkSink) latency(c *duckdb.DataChunk) error {
	vs, err := strViews(c, 0, 1, 2)
	if err != nil {
		return err
	}
	var ids runIDs
	for row := range c.GetSize() {
		var l LatencySample
		if l.RunID, err = ids.of(vs[0], row); err != nil {
			return err
		}
		if l.Scope, err = s.in.strView(vs[1], row); err != nil {
			return err
		}
		if l.Name, err = s.in.strView(vs[2], row); err != nil {
			return err
		}
		for i, dst := range [3]**float64{&l.QueueMs, &l.ExecMs, &l.WallMs} {
			v, err := c.GetValue(3+i, row)
			if err != nil {
				return err
			}
			*dst = s.in.float(v)
		}
		s.ev.Latency = append(s.ev.Latency, l)
	}
	return nil
}

// recovery appends a chunk of baseline.recovery rows.
func (s *chunkSink) recovery(c *duckdb.DataChunk) error {
	vs, err := strViews(c, 0, 1, 2)
	if err != nil {
		return err
	}
	var ids runIDs
	for row := range c.GetSize() {
		var r RecoverySample
		if r.RunID, err = ids.of(vs[0], row); err != nil {
			return err
		}
		if r.Category, err = s.in.strView(vs[1], row); err != nil {
			return err
		}
		if r.Outcome, err = s.in.strView(vs[2], row); err != nil {
			return err
		}
		s.ev.Recovery = append(s.ev.Recovery, r)
	}
	return nil
}

// runStrings are the string columns of runColumns: run_id, suite,
// scenario, then the optional agent_name, agent_version, fault_class and
// claimed.
var runStrings = []int{0, 1, 2, 4, 5, 6, 12}

// runs appends a chunk of baseline.runs rows.
func (s *chunkSink) runs(c *duckdb.DataChunk) error {
	vs, err := strViews(c, runStrings...)
	if err != nil {
		return err
	}
	v := make([]any, len(runColumns))
	for row := range c.GetSize() {
		for col := range v {
			if col == 3 || col >= 7 && col != 12 {
				if v[col], err = c.GetValue(col, row); err != nil {
					return err
				}
			}
		}
		f := RunFact{StartedAt: timeOf(v[3]),
			PlanValid: s.in.optBool(v[7]), EvidenceSatisfied: s.in.optBool(v[8]), AnswerDeliverable: s.in.optBool(v[9]),
			TerminalCommitted: s.in.optBool(v[10]), Success: s.in.optBool(v[11]),
			MaskedSuccess: s.in.optBool(v[13]), UndisclosedDegradation: s.in.optBool(v[14]), ZeroCallViolation: s.in.optBool(v[15]),
			SealViolation: s.in.optBool(v[16]), ExpectationMet: s.in.optBool(v[17]), RetryBudgetOverrun: s.in.optBool(v[18]),
			DeadlineOverrun: s.in.optBool(v[19]), ToolCalls: asInt(v[20]), Resends: asInt(v[21]),
			InvalidResends: asInt(v[22]), UnknownOutcomeResends: asInt(v[23]),
			Duplicates: asInt(v[24]), CircuitOpenCalls: asInt(v[25]), BreakerViolations: asInt(v[26]),
			DegradedEvidence: asInt(v[27]), DegradedEvidenceOK: asInt(v[28]), DirectEvidence: asInt(v[29]),
			DirectEvidenceOK: asInt(v[30]), EndToEndMs: s.in.float(v[31])}
		var ids runIDs // run ids are unique: no stretches to share
		if f.RunID, err = ids.of(vs[0], row); err != nil {
			return err
		}
		if f.Suite, err = s.in.strView(vs[1], row); err != nil {
			return err
		}
		if f.Scenario, err = s.in.strView(vs[2], row); err != nil {
			return err
		}
		for i, dst := range [4]**string{&f.AgentName, &f.AgentVersion, &f.FaultClass, &f.Claimed} {
			if *dst, err = s.in.optView(vs[3+i], row); err != nil {
				return err
			}
		}
		s.ev.Runs = append(s.ev.Runs, f)
	}
	return nil
}

// sortRuns puts runs in the order baseline.read_runs gives a saved file's
// runs: started_at NULLS LAST, then run_id (DuckDB compares VARCHAR
// byte-wise, as Go does). It sorts positions and then moves each run once:
// swapping the ~330-byte runs while sorting cost twice as much CPU.
func sortRuns(runs []RunFact) {
	order := make([]int32, len(runs))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(i, j int32) int { return compareRuns(&runs[i], &runs[j]) })
	// Position k takes runs[order[k]]: follow each cycle of the
	// permutation once, marking the positions done with -1.
	for k := range order {
		if order[k] < 0 {
			continue
		}
		first, cur := runs[k], k
		for {
			src := int(order[cur])
			order[cur] = -1
			if src == k {
				runs[cur] = first
				break
			}
			runs[cur] = runs[src]
			cur = src
		}
	}
}

// compareRuns orders two runs by started_at NULLS LAST, then run_id.
func compareRuns(a, b *RunFact) int {
	switch {
	case a.StartedAt == nil && b.StartedAt == nil:
	case a.StartedAt == nil:
		return 1
	case b.StartedAt == nil:
		return -1
	default:
		if c := a.StartedAt.Compare(*b.StartedAt); c != 0 {
			return c
		}
	}
	return strings.Compare(a.RunID, b.RunID)
}
