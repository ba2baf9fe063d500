package simulate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"slices"
	"testing"
	"time"
)

// A reference reading of the evaluator's definitions (trace-schema.md
// section 4), per run, used to check that the simulated agents show the
// behaviour they are meant to show.

type tEvent map[string]any

func (e tEvent) str(k string) string { s, _ := e[k].(string); return s }
func (e tEvent) obj(k string) tEvent { o, _ := e[k].(map[string]any); return o }
func (e tEvent) has(k string) bool   { _, ok := e[k]; return ok }
func (e tEvent) flag(k string) bool  { b, _ := e[k].(bool); return b }
func (e tEvent) num(k string) int64 {
	n, _ := e[k].(json.Number)
	v, _ := n.Int64()
	return v
}
func (e tEvent) time(k string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, e.str(k))
	return t
}
func (e tEvent) attempt() int64 {
	if a := e.num("attempt"); a > 0 {
		return a
	}
	return 1
}
func (e tEvent) strs(k string) []string {
	var out []string
	arr, _ := e[k].([]any)
	for _, x := range arr {
		out = append(out, x.(string))
	}
	return out
}

// runFacts is what the evaluator derives for one run.
type runFacts struct {
	id, scenario, agent string
	events              []tEvent // in (ts, seq) order
	planValid           int      // 1 true, -1 false, 0 unknown
	evidenceOK          bool
	deliverable         bool
	committed           bool
	success             bool
	terminals           int
	claimed             tEvent
	masked              bool
	undisclosed         bool
	resends             int
	invalid             map[string]int
	invalidResends      int
	duplicates          int
	breakerViolations   int
	zeroCall            bool
	seal                bool
	conform             bool
	retryOverrun        bool
	deadlineOverrun     bool
	zoned               bool // some timestamp written with a non-Z offset
}

// parseRuns checks every line against the contract and groups the events
// by run.
func parseRuns(t *testing.T, data []byte) map[string]*runFacts {
	t.Helper()
	runs := map[string]*runFacts{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		ev, err := checkLine(sc.Bytes())
		if err != nil {
			t.Fatalf("line %d: %v\n%s", n, err, sc.Bytes())
		}
		id := ev["run_id"].(string)
		r := runs[id]
		if r == nil {
			r = &runFacts{id: id}
			runs[id] = r
		}
		r.events = append(r.events, ev)
		if ts := ev["ts"].(string); ts[len(ts)-1] != 'Z' {
			r.zoned = true
		}
	}
	for _, r := range runs {
		slices.SortStableFunc(r.events, func(a, b tEvent) int {
			if c := a.time("ts").Compare(b.time("ts")); c != 0 {
				return c
			}
			return int(a.num("seq") - b.num("seq"))
		})
		r.derive()
	}
	return runs
}

func (r *runFacts) byType(typ string) []tEvent {
	var out []tEvent
	for _, e := range r.events {
		if e.str("type") == typ {
			out = append(out, e)
		}
	}
	return out
}

// derive computes the per-run gates and defect counts.
func (r *runFacts) derive() {
	run := r.byType("run")[0]
	r.scenario, r.agent = run.str("scenario"), run.obj("agent").str("name")
	tools := r.byType("tool_call")
	for _, st := range r.byType("stage") {
		if st.str("stage") == "planning" {
			valid := st.str("outcome") == "ok"
			if st.has("plan_valid") {
				valid = st.flag("plan_valid")
			}
			if valid {
				r.planValid = 1
			} else if r.planValid == 0 {
				r.planValid = -1
			}
		}
	}
	task := run.obj("task")
	rank := map[string]int{"primary": 3, "secondary": 2, "reprint": 1, "cache": 0}
	claims := map[string]bool{}
	for _, ev := range r.byType("evidence") {
		if ev.str("status") == "confirmed" && rank[ev.str("grade")] >= rank[task.str("min_grade")] {
			claims[ev.str("claim")] = true
		}
	}
	r.evidenceOK = int64(len(claims)) >= task.num("evidence_required")
	terms := r.byType("terminal")
	r.terminals = len(terms)
	if len(terms) > 0 {
		r.claimed = terms[0]
		genOK := true
		var latest time.Time
		for _, st := range r.byType("stage") {
			if st.str("stage") == "generation" && !st.time("ended_at").Before(latest) {
				latest, genOK = st.time("ended_at"), st.str("outcome") == "ok"
			}
		}
		r.deliverable = r.claimed.num("visible_chars") > 0 && r.claimed.num("chunks_rejected") == 0 && genOK
		last := r.events[len(r.events)-1].time("ts")
		r.committed = len(terms) == 1 && !last.After(terms[0].time("ts"))
		r.seal = len(terms) > 1 || last.After(terms[0].time("ts"))
	}
	r.success = r.planValid == 1 && r.evidenceOK && r.deliverable && r.committed
	completed := r.claimed != nil && r.claimed.str("terminal") == "completed"
	r.masked = completed && !r.success
	if completed && len(r.claimed.strs("degradations")) == 0 && !r.claimed.flag("disclosed_gaps") {
		origin := map[string]tEvent{}
		for _, c := range tools {
			origin[c.str("call_id")] = c
		}
		for _, ev := range r.byType("evidence") {
			if ev.str("status") == "confirmed" && (ev.str("path") == "degraded" || origin[ev.str("call_id")].obj("source").flag("fallback")) {
				r.undisclosed = true
			}
		}
	}
	r.resends, r.invalid = 0, map[string]int{}
	for _, c := range tools {
		if c.str("circuit") == "open" && c.str("status") != "fast_fail" {
			r.breakerViolations++
		}
		for _, d := range tools {
			if c.has("args_digest") && d.str("tool") == c.str("tool") && d.str("args_digest") == c.str("args_digest") &&
				d.str("action_id") != c.str("action_id") && d.time("started_at").Before(c.time("started_at")) {
				r.duplicates++
				break
			}
		}
		if c.attempt() > 1 {
			r.resends++
			if reasons := invalidReasons(c, previousAttempt(tools, c)); len(reasons) > 0 {
				r.invalidResends++
				for _, why := range reasons {
					r.invalid[why]++
				}
			}
		}
	}
	if r.planValid == -1 {
		r.zeroCall = len(tools) > 0
		for _, m := range r.byType("model_call") {
			r.zeroCall = r.zeroCall || m.str("role") == "answer" || m.str("role") == "reviewer"
		}
	}
	r.retryOverrun = run.has("retry_budget") && int64(r.resends) > run.num("retry_budget")
	if r.claimed != nil && run.has("deadline_ms") {
		r.deadlineOverrun = r.claimed.time("ts").Sub(run.time("started_at")).Milliseconds() > run.num("deadline_ms")
	}
	if exp := run.obj("fault").obj("expect"); exp != nil {
		r.conform = r.claimed != nil && r.claimed.str("terminal") == exp.str("terminal") && r.observed(exp.str("action"), tools)
	}
}

func previousAttempt(tools []tEvent, c tEvent) tEvent {
	for _, p := range tools {
		if p.str("action_id") == c.str("action_id") && p.attempt() == c.attempt()-1 {
			return p
		}
	}
	return nil
}

// invalidReasons lists why re-send c of previous attempt p is invalid.
func invalidReasons(c, p tEvent) []string {
	var out []string
	perr := p.obj("error")
	if perr != nil && perr.has("retryable") && !perr.flag("retryable") {
		out = append(out, "not_retryable")
	}
	if slices.Contains([]string{"VALIDATION", "AUTHZ", "NOT_FOUND", "SAFETY", "CONFLICT"}, perr.str("category")) {
		out = append(out, "category")
	}
	if c.str("side_effect") == "write" && !c.has("idempotency_key") {
		out = append(out, "write_without_key")
	}
	if perr.str("category") == "UNKNOWN_OUTCOME" && p.str("side_effect") == "write" {
		out = append(out, "unknown_outcome_resend")
	}
	if ra := perr.num("retry_after_ms"); ra > 0 && c.time("started_at").Before(p.time("ended_at").Add(time.Duration(ra)*time.Millisecond)) {
		out = append(out, "before_retry_after")
	}
	return out
}

// observed says whether the expected action shows in the run.
func (r *runFacts) observed(action string, tools []tEvent) bool {
	switch action {
	case "retry":
		return slices.ContainsFunc(tools, func(c tEvent) bool { return c.attempt() > 1 })
	case "backoff":
		return slices.ContainsFunc(tools, func(c tEvent) bool {
			if c.attempt() == 1 {
				return false
			}
			p := previousAttempt(tools, c)
			ra := p.obj("error").num("retry_after_ms")
			return ra > 0 && !c.time("started_at").Before(p.time("ended_at").Add(time.Duration(ra)*time.Millisecond))
		})
	case "degrade":
		return len(r.claimed.strs("degradations")) > 0
	case "stop":
		var first time.Time
		for _, e := range r.events {
			failed := (e.str("type") == "tool_call" && (e.str("status") == "error" || e.str("status") == "fast_fail")) ||
				(e.str("type") == "stage" && e.str("outcome") != "ok")
			if failed && (first.IsZero() || e.time("ended_at").Before(first)) {
				first = e.time("ended_at")
			}
		}
		return first.IsZero() || !slices.ContainsFunc(tools, func(c tEvent) bool { return c.time("started_at").After(first) })
	}
	return slices.ContainsFunc(tools, func(c tEvent) bool { return c.str("recovery") == action })
}
