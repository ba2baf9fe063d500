package otlp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"
)

// contractRule lists, for one event type, its required fields and the
// allowed values of its enum fields (trace-schema.md, section 3).
type contractRule struct {
	required   []string
	timestamps []string
	enums      map[string][]string
}

var contractRules = map[string]contractRule{
	"run": {required: []string{"suite", "started_at"}, timestamps: []string{"started_at"}},
	"stage": {
		required:   []string{"stage_id", "stage", "started_at", "ended_at", "outcome"},
		timestamps: []string{"started_at", "ended_at"},
		enums: map[string][]string{
			"stage":   {"planning", "evidence", "generation", "review", "delivery"},
			"outcome": {"ok", "failed", "timeout", "empty", "interrupted", "cancelled"},
		},
	},
	"tool_call": {
		required:   []string{"call_id", "action_id", "tool", "started_at", "ended_at", "status"},
		timestamps: []string{"started_at", "ended_at"},
		enums: map[string][]string{
			"status":   {"ok", "partial", "error", "fast_fail"},
			"recovery": {"retry", "fix_args", "switch_source", "switch_tool", "back_to_search", "query_status"},
		},
	},
	"model_call": {
		required:   []string{"call_id", "role"},
		timestamps: []string{"started_at", "ended_at"},
		enums: map[string][]string{
			"role":    {"planner", "answer", "reviewer"},
			"outcome": {"ok", "failed", "timeout", "empty"},
		},
	},
	"evidence": {required: []string{"evidence_id", "claim", "grade", "status"}},
	"terminal": {
		required: []string{"terminal"},
		enums: map[string][]string{
			"terminal": {"completed", "partial", "failed", "cancelled"},
			"reason": {"ok", "planning_failed", "evidence_missing", "tool_unavailable", "stream_interrupted",
				"empty_completion", "budget_exhausted", "deadline_exceeded", "user_cancelled", "safety_refusal"},
		},
	},
}

// errorCategories is the contract's error.category enum.
var errorCategories = []string{"VALIDATION", "AUTHN", "AUTHZ", "RATE_LIMIT", "TRANSIENT", "TIMEOUT",
	"UNAVAILABLE", "NOT_FOUND", "EMPTY_CONTENT", "SAFETY", "CONFLICT", "PARSE", "UNKNOWN_OUTCOME", "INTERNAL"}

// checkContract fails the test unless every line of out is an event the
// contract accepts.
func checkContract(t *testing.T, out []byte) {
	t.Helper()
	if err := validateEvents(out); err != nil {
		t.Fatal(err)
	}
}

// validateEvents checks the contract's common fields, each type's required
// fields and enums, that seq counts 1, 2, ... within each run, that each run
// has one run event, that call ids and stage ids are unique within a run
// and that every action's attempts count 1, 2, ...
func validateEvents(out []byte) error {
	seqs := map[string]int{}
	runs := map[string]int{}
	ids := map[string]bool{}
	attempts := map[string]float64{}
	for i, line := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
		if len(out) == 0 {
			break
		}
		var ev map[string]any
		if err := json.Unmarshal(line, &ev); err != nil {
			return fmt.Errorf("output line %d is not a JSON object: %v: %s", i+1, err, line)
		}
		if err := validateEvent(ev); err != nil {
			return fmt.Errorf("output line %d: %v: %s", i+1, err, line)
		}
		runID := ev["run_id"].(string)
		seqs[runID]++
		if seq, _ := ev["seq"].(float64); int(seq) != seqs[runID] {
			return fmt.Errorf("output line %d: seq %v, want %d: %s", i+1, ev["seq"], seqs[runID], line)
		}
		typ := ev["type"].(string)
		if typ == "run" {
			runs[runID]++
		}
		idKeys := map[string]string{"call_id": "call"}
		if typ == "stage" {
			idKeys["stage_id"] = "stage"
		}
		for field, kind := range idKeys {
			if id, ok := ev[field].(string); ok {
				k := runID + "/" + kind + "/" + id
				if ids[k] {
					return fmt.Errorf("output line %d: %s %q repeats in run %s", i+1, field, id, runID)
				}
				ids[k] = true
			}
		}
		if typ == "tool_call" {
			action := runID + "/" + ev["action_id"].(string)
			attempt, _ := ev["attempt"].(float64)
			if attempt != attempts[action]+1 {
				return fmt.Errorf("output line %d: attempt %v of action %s follows attempt %v", i+1, attempt, action, attempts[action])
			}
			attempts[action] = attempt
		}
	}
	for id, n := range runs {
		if n != 1 {
			return fmt.Errorf("run %s has %d run events", id, n)
		}
	}
	for id := range seqs {
		if runs[id] != 1 {
			return fmt.Errorf("run %s has no run event", id)
		}
	}
	return nil
}

// validateEvent checks one event.
func validateEvent(ev map[string]any) error {
	typ, _ := ev["type"].(string)
	rule, ok := contractRules[typ]
	if !ok {
		return fmt.Errorf("unknown type %q", typ)
	}
	if id, _ := ev["run_id"].(string); id == "" {
		return fmt.Errorf("no run_id")
	}
	if _, ok := ev["seq"].(float64); !ok {
		return fmt.Errorf("no seq")
	}
	for _, k := range append([]string{"ts"}, rule.timestamps...) {
		s, ok := ev[k].(string)
		if !ok {
			continue
		}
		ts, err := time.Parse(time.RFC3339Nano, s)
		if err != nil || ts.Location() != time.UTC || len(s) != len("2006-01-02T15:04:05.000Z") {
			return fmt.Errorf("%s %q is not RFC 3339 UTC with milliseconds", k, s)
		}
	}
	for _, k := range append([]string{"ts"}, rule.required...) {
		if s, ok := ev[k].(string); !ok || s == "" {
			return fmt.Errorf("missing required field %s", k)
		}
	}
	for k, allowed := range rule.enums {
		if v, ok := ev[k]; ok && !slices.Contains(allowed, fmt.Sprint(v)) {
			return fmt.Errorf("%s %v is not one of %v", k, v, allowed)
		}
	}
	if started, ok := ev["started_at"].(string); ok {
		if ended, ok := ev["ended_at"].(string); ok && ended < started {
			return fmt.Errorf("ended_at %s before started_at %s", ended, started)
		}
	}
	for _, k := range []string{"error", "failure"} {
		obj, ok := ev[k].(map[string]any)
		if !ok {
			continue
		}
		if !slices.Contains(errorCategories, fmt.Sprint(obj["category"])) {
			return fmt.Errorf("%s.category %v is not a contract category", k, obj["category"])
		}
		if _, ok := obj["retryable"].(bool); !ok {
			return fmt.Errorf("%s.retryable is not a bool", k)
		}
	}
	return nil
}
