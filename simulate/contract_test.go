package simulate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"time"
)

// A small checker of the trace contract (shared/trace-schema.md sections 2
// and 3): required fields, JSON types and enums per event type.

var tsPattern = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)$`)

var enums = map[string][]string{
	"type":              {"run", "stage", "tool_call", "model_call", "evidence", "terminal"},
	"fault.class":       {"parameter", "network", "service", "resource", "permission", "strategy", "state"},
	"expect.action":     {"retry", "fix_args", "backoff", "switch_source", "switch_tool", "back_to_search", "query_status", "degrade", "stop"},
	"terminal":          {"completed", "partial", "failed", "cancelled"},
	"cause":             {"user_followup", "explicit_retry", "auto_recovery"},
	"grade":             {"primary", "secondary", "reprint", "cache"},
	"stage":             {"planning", "evidence", "generation", "review", "delivery"},
	"stage.outcome":     {"ok", "failed", "timeout", "empty", "interrupted", "cancelled"},
	"recovery":          {"retry", "fix_args", "switch_source", "switch_tool", "back_to_search", "query_status"},
	"side_effect":       {"none", "idempotent", "write"},
	"status":            {"ok", "partial", "error", "fast_fail"},
	"category":          {"VALIDATION", "AUTHN", "AUTHZ", "RATE_LIMIT", "TRANSIENT", "TIMEOUT", "UNAVAILABLE", "NOT_FOUND", "EMPTY_CONTENT", "SAFETY", "CONFLICT", "PARSE", "UNKNOWN_OUTCOME", "INTERNAL"},
	"side_effect_state": {"none", "committed", "partial", "unknown"},
	"circuit":           {"closed", "open", "half_open"},
	"role":              {"planner", "answer", "reviewer"},
	"model.outcome":     {"ok", "failed", "timeout", "empty"},
	"path":              {"direct", "degraded"},
	"evidence.status":   {"confirmed", "candidate", "unsupported"},
	"reason":            {"ok", "planning_failed", "evidence_missing", "tool_unavailable", "stream_interrupted", "empty_completion", "budget_exhausted", "deadline_exceeded", "user_cancelled", "safety_refusal"},
	"degradations":      {"tool", "evidence", "delivery", "safety"},
}

// fieldCheck verifies one member of an object.
type fieldCheck struct {
	name     string
	kind     string // string, int, bool, ts, object, strings
	required bool
	enum     string // key into enums
}

var schema = map[string][]fieldCheck{
	"run": {{"suite", "string", true, ""}, {"scenario", "string", false, ""}, {"fault", "object", false, ""},
		{"agent", "object", false, ""}, {"client_message_id", "string", false, ""}, {"caused_by", "object", false, ""},
		{"task", "object", false, ""}, {"deadline_ms", "int", false, ""}, {"retry_budget", "int", false, ""},
		{"started_at", "ts", true, ""}, {"schema_version", "int", false, ""}},
	"stage": {{"stage_id", "string", true, ""}, {"stage", "string", true, "stage"}, {"attempt", "int", false, ""},
		{"enqueued_at", "ts", false, ""}, {"started_at", "ts", true, ""}, {"ended_at", "ts", true, ""},
		{"outcome", "string", true, "stage.outcome"}, {"plan_valid", "bool", false, ""}, {"failure", "object", false, ""},
		{"visible_chars", "int", false, ""}, {"budget_ms", "int", false, ""}},
	"tool_call": {{"call_id", "string", true, ""}, {"action_id", "string", true, ""}, {"attempt", "int", false, ""},
		{"recovery", "string", false, "recovery"}, {"recovery_of", "string", false, ""}, {"tool", "string", true, ""},
		{"tool_version", "string", false, ""}, {"tool_schema", "string", false, ""}, {"args_digest", "string", false, ""},
		{"side_effect", "string", false, "side_effect"}, {"idempotency_key", "string", false, ""},
		{"enqueued_at", "ts", false, ""}, {"started_at", "ts", true, ""}, {"ended_at", "ts", true, ""},
		{"status", "string", true, "status"}, {"error", "object", false, ""}, {"circuit", "string", false, "circuit"},
		{"source", "object", false, ""}, {"evidence_ids", "strings", false, ""},
		{"completed_scope", "strings", false, ""}, {"missing_scope", "strings", false, ""}},
	"model_call": {{"call_id", "string", true, ""}, {"role", "string", true, "role"}, {"stage_id", "string", false, ""},
		{"enqueued_at", "ts", false, ""}, {"started_at", "ts", false, ""}, {"ended_at", "ts", false, ""},
		{"outcome", "string", false, "model.outcome"}},
	"evidence": {{"evidence_id", "string", true, ""}, {"claim", "string", true, ""}, {"call_id", "string", false, ""},
		{"grade", "string", true, "grade"}, {"path", "string", false, "path"}, {"status", "string", true, "evidence.status"}},
	"terminal": {{"terminal", "string", true, "terminal"}, {"reason", "string", false, "reason"},
		{"visible_chars", "int", false, ""}, {"chunks_committed", "int", false, ""}, {"chunks_rejected", "int", false, ""},
		{"disclosed_gaps", "bool", false, ""}, {"degradations", "strings", false, "degradations"}},
}

var nested = map[string][]fieldCheck{
	"fault":     {{"class", "string", true, "fault.class"}, {"kind", "string", true, ""}, {"target_tool", "string", true, ""}, {"expect", "object", true, ""}},
	"expect":    {{"action", "string", true, "expect.action"}, {"terminal", "string", true, "terminal"}},
	"agent":     {{"name", "string", true, ""}, {"version", "string", true, ""}},
	"caused_by": {{"run_id", "string", true, ""}, {"cause", "string", true, "cause"}},
	"task":      {{"kind", "string", true, ""}, {"requires_current_evidence", "bool", true, ""}, {"evidence_required", "int", true, ""}, {"min_grade", "string", true, "grade"}},
	"failure":   {{"category", "string", true, ""}, {"retryable", "bool", true, ""}, {"reason", "string", true, ""}},
	"error":     {{"code", "string", true, ""}, {"category", "string", true, "category"}, {"retryable", "bool", true, ""}, {"retry_after_ms", "int", false, ""}, {"side_effect_state", "string", true, "side_effect_state"}, {"message", "string", true, ""}},
	"source":    {{"name", "string", true, ""}, {"grade", "string", true, "grade"}, {"fallback", "bool", true, ""}},
}

// checkLine parses one line and checks it against the contract.
func checkLine(line []byte) (map[string]any, error) {
	var ev map[string]any
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&ev); err != nil {
		return nil, fmt.Errorf("malformed json: %v", err)
	}
	common := []fieldCheck{{"type", "string", true, "type"}, {"run_id", "string", true, ""}, {"ts", "ts", true, ""}, {"seq", "int", true, ""}}
	if err := checkFields(ev, common); err != nil {
		return nil, err
	}
	return ev, checkFields(ev, schema[ev["type"].(string)])
}

func checkFields(obj map[string]any, checks []fieldCheck) error {
	for _, f := range checks {
		v, ok := obj[f.name]
		if !ok {
			if f.required {
				return fmt.Errorf("missing field %s", f.name)
			}
			continue
		}
		if err := checkValue(f, v); err != nil {
			return fmt.Errorf("field %s: %v", f.name, err)
		}
	}
	return nil
}

func checkValue(f fieldCheck, v any) error {
	switch f.kind {
	case "string", "ts":
		s, ok := v.(string)
		if !ok || s == "" {
			return fmt.Errorf("want a non-empty string, got %v", v)
		}
		if f.kind == "ts" {
			if !tsPattern.MatchString(s) {
				return fmt.Errorf("timestamp %q not RFC 3339 with ms", s)
			}
			if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
				return err
			}
		}
		if f.enum != "" && !slices.Contains(enums[f.enum], s) {
			return fmt.Errorf("%q not in enum %s", s, f.enum)
		}
	case "int":
		n, ok := v.(json.Number)
		if _, err := n.Int64(); !ok || err != nil {
			return fmt.Errorf("want an integer, got %v", v)
		}
	case "bool":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("want a bool, got %v", v)
		}
	case "strings":
		arr, ok := v.([]any)
		if !ok {
			return fmt.Errorf("want an array, got %v", v)
		}
		for _, x := range arr {
			s, ok := x.(string)
			if !ok {
				return fmt.Errorf("want strings, got %v", x)
			}
			if f.enum != "" && !slices.Contains(enums[f.enum], s) {
				return fmt.Errorf("%q not in enum %s", s, f.enum)
			}
		}
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("want an object, got %v", v)
		}
		return checkFields(obj, nested[f.name])
	}
	return nil
}
