package ingest

import (
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// contractFields lists every typed field of the contract (sections 2 and 3)
// with its kind; nested fields by dotted path. type and the timestamps have
// rules of their own and are left out.
var contractFields = []struct{ path, kind string }{
	{"run_id", "string"}, {"seq", "integer"}, {"schema_version", "integer"},
	{"suite", "string"}, {"scenario", "string"},
	{"fault", "object"}, {"fault.class", "string"}, {"fault.kind", "string"}, {"fault.target_tool", "string"},
	{"fault.expect", "object"}, {"fault.expect.action", "string"}, {"fault.expect.terminal", "string"},
	{"agent", "object"}, {"agent.name", "string"}, {"agent.version", "string"},
	{"client_message_id", "string"},
	{"caused_by", "object"}, {"caused_by.run_id", "string"}, {"caused_by.cause", "string"},
	{"task", "object"}, {"task.kind", "string"}, {"task.requires_current_evidence", "boolean"},
	{"task.evidence_required", "integer"}, {"task.min_grade", "string"},
	{"deadline_ms", "integer"}, {"retry_budget", "integer"},
	{"stage_id", "string"}, {"stage", "string"}, {"attempt", "integer"}, {"outcome", "string"},
	{"plan_valid", "boolean"},
	{"failure", "object"}, {"failure.category", "string"}, {"failure.retryable", "boolean"}, {"failure.reason", "string"},
	{"visible_chars", "integer"}, {"budget_ms", "integer"},
	{"call_id", "string"}, {"action_id", "string"}, {"recovery", "string"}, {"recovery_of", "string"},
	{"tool", "string"}, {"tool_version", "string"}, {"tool_schema", "string"}, {"args_digest", "string"},
	{"side_effect", "string"}, {"idempotency_key", "string"}, {"status", "string"},
	{"error", "object"}, {"error.code", "string"}, {"error.category", "string"}, {"error.retryable", "boolean"},
	{"error.retry_after_ms", "integer"}, {"error.side_effect_state", "string"}, {"error.message", "string"},
	{"circuit", "string"},
	{"source", "object"}, {"source.name", "string"}, {"source.grade", "string"}, {"source.fallback", "boolean"},
	{"evidence_ids", "array of strings"}, {"completed_scope", "array of strings"}, {"missing_scope", "array of strings"},
	{"role", "string"}, {"evidence_id", "string"}, {"claim", "string"}, {"grade", "string"}, {"path", "string"},
	{"terminal", "string"}, {"reason", "string"}, {"chunks_committed", "integer"}, {"chunks_rejected", "integer"},
	{"disclosed_gaps", "boolean"}, {"degradations", "array of strings"},
}

// wrongValues are JSON values of the wrong type for each kind.
var wrongValues = map[string][]string{
	"string":           {`true`, `{"a":1}`, `["a"]`, `[]`, `{}`, `42`, `1.5`, `-1e3`},
	"integer":          {`"abc"`, `1.5`, `"1.5"`, `-0.25`, `true`, `{"n":1}`, `[1]`, `"0x10"`, `"1e3"`, `""`, `99999999999999999999`, `1e400`},
	"boolean":          {`"true"`, `1`, `0`, `"yes"`, `{"b":true}`, `[true]`, `"false"`},
	"object":           {`"x"`, `1`, `true`, `[{}]`, `[]`},
	"array of strings": {`"x"`, `1`, `{"a":"b"}`, `[{"a":1}]`, `[["a"]]`, `[true]`, `[null]`, `["a",{}]`, `[1]`, `["a",2.5]`},
}

// setField returns line with the field at the dotted path set to the JSON
// text v: a top-level field is replaced or added, a nested one is added
// inside fresh objects.
func setField(line, path, v string) string {
	parts := strings.Split(path, ".")
	for i := len(parts) - 1; i > 0; i-- {
		v = fmt.Sprintf(`{%q:%s}`, parts[i], v)
	}
	if strings.Contains(line, `"`+parts[0]+`":`) {
		return replace(line, parts[0], v)
	}
	return with(line, fmt.Sprintf("%q:%s", parts[0], v))
}

// TestFieldTypes gives every contract field every kind of wrong JSON type
// and checks that the line is rejected naming the field and the type it
// wants.
func TestFieldTypes(t *testing.T) {
	db := openDB(t)
	var ls, want []string
	for _, f := range contractFields {
		for _, v := range wrongValues[f.kind] {
			ls = append(ls, setField(toolLine, f.path, v))
			want = append(want, fmt.Sprintf("%d: wrong type for field %s: expected %s", len(ls), f.path, f.kind))
		}
	}
	res := ingestContent(t, db, "types.jsonl", lines(ls...))
	if res.Accepted != 0 || res.Rejected != int64(len(ls)) {
		t.Errorf("accepted %d, rejected %d of %d", res.Accepted, res.Rejected, len(ls))
	}
	got := queryStrings(t, db, "SELECT line_no || ': ' || reason FROM rejected_lines ORDER BY line_no")
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Errorf("line %s\n got %s\nwant %s", ls[i], at2(got, i), want[i])
		}
	}
}

func at2(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "(nothing)"
}

// TestCoercions checks the values of another JSON type that the documented
// coercions (integers only) accept, what is stored for them, and nulls.
// A number for a string is rejected: see badLineCases.
func TestCoercions(t *testing.T) {
	cases := []struct {
		name, line string
		column     string // an SQL expression over events
		want       string // its value as text
	}{
		{"integer as string", with(runLine, `"seq":"12"`), "seq", "12"},
		{"negative integer as string", with(runLine, `"seq":"-3"`), "seq", "-3"},
		{"integral fraction", with(runLine, `"seq":2.0`), "seq", "2"},
		{"integral exponent", with(runLine, `"deadline_ms":1e3`), "deadline_ms", "1000"},
		{"nested integer as string", with(toolLine, `"error":{"retry_after_ms":"250"}`), "error.retry_after_ms", "250"},
		{"empty string array", with(toolLine, `"evidence_ids":[]`), "evidence_ids::VARCHAR", "[]"},
		{"string that reads like a number", replace(runLine, "suite", `"42"`), "suite", "42"},
		{"null optional integer", with(runLine, `"seq":null`), "coalesce(seq::VARCHAR, 'absent')", "absent"},
		{"null optional object", with(runLine, `"fault":null`), "coalesce(fault::VARCHAR, 'absent')", "absent"},
		{"null optional array", with(toolLine, `"evidence_ids":null`), "coalesce(evidence_ids::VARCHAR, 'absent')", "absent"},
		{"null optional enum", with(toolLine, `"circuit":null`), "coalesce(circuit, 'absent')", "absent"},
		{"null nested field", with(toolLine, `"error":{"category":"TIMEOUT","retryable":null}`), "coalesce(error.retryable::VARCHAR, 'absent')", "absent"},
		{"empty object", with(runLine, `"agent":{}`), "agent::VARCHAR", "{'name': NULL, 'version': NULL}"},
		{"boolean", with(stageLine, `"plan_valid":false`), "plan_valid::VARCHAR", "false"},
		{"escaped string", with(toolLine, `"tool_schema":"a\"b\\c\u00e9\n"`), "tool_schema", "a\"b\\c\u00e9\n"},
	}
	db := openDB(t)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// A unique run_id per case keeps the files distinct.
			line := tc.line
			if !strings.Contains(tc.name, "run_id") {
				line = replace(line, "run_id", fmt.Sprintf(`"coerce-%d"`, i))
			}
			res := ingestContent(t, db, "c.jsonl", lines(line))
			if res.Accepted != 1 {
				t.Fatalf("not accepted: %v", rejections(t, db, res.Path))
			}
			var got sql.NullString
			if err := db.QueryRow("SELECT (" + tc.column + ")::VARCHAR FROM events WHERE file_id = (SELECT max(file_id) FROM files)").Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got.String != tc.want {
				t.Errorf("%s = %q, want %q", tc.column, got.String, tc.want)
			}
		})
	}
}

// TestUnknownFieldsKept checks that fields the contract does not name, at
// the top level or inside one of its objects, are kept in extra and can be
// queried, and that lines without them keep extra NULL.
func TestUnknownFieldsKept(t *testing.T) {
	db := openDB(t)
	content := lines(
		with(runLine, `"model":"gpt-x"`, `"labels":{"team":"search","tier":2}`),
		with(toolLine, `"error":{"code":"E1","category":"TIMEOUT","vendor_code":"X-42"}`),
		with(stageLine, `"failure":{"category":"x","retryable":true,"reason":"r","trace":["a","b"]}`),
		with(evidenceLine, `"fault":{"expect":{"action":"retry","deadline":5}}`),
		with(modelLine, `"tokens":{"in":120,"out":80}`, `"seq":null`),
		// Only contract fields, some null or holding nulls: no extra.
		with(terminalLine, `"seq":3`, `"reason":null`, `"degradations":["tool"]`),
		with(replace(toolLine, "call_id", `"c2"`), `"error":{"code":"E2","message":null}`, `"source":{"name":"s","grade":"primary","fallback":false}`, `"fault":null`),
	)
	res := ingestContent(t, db, "extra.jsonl", content)
	if res.Accepted != 7 || !res.FastPath {
		t.Fatalf("result %+v, rejected %v", res, rejections(t, db, res.Path))
	}
	checks := []struct{ query, want string }{
		{`SELECT extra->>'$.model' FROM events WHERE type = 'run'`, "gpt-x"},
		{`SELECT extra->'$.labels'->>'$.team' FROM events WHERE type = 'run'`, "search"},
		{`SELECT (extra->'$.labels'->>'$.tier')::INTEGER + 1 FROM events WHERE type = 'run'`, "3"},
		{`SELECT extra->'$.error'->>'$.vendor_code' FROM events WHERE call_id = 'c1'`, "X-42"},
		{`SELECT error.code FROM events WHERE call_id = 'c1'`, "E1"},
		{`SELECT extra->'$.failure'->'$.trace'->>1 FROM events WHERE type = 'stage'`, "b"},
		{`SELECT extra->'$.fault'->'$.expect'->>'$.deadline' FROM events WHERE type = 'evidence'`, "5"},
		{`SELECT extra->'$.tokens'->>'$.out' FROM events WHERE type = 'model_call'`, "80"},
		{`SELECT count(*) FROM events WHERE extra IS NULL`, "2"},
		{`SELECT string_agg(type, ',' ORDER BY type) FROM events WHERE extra IS NULL`, "terminal,tool_call"},
	}
	for _, c := range checks {
		if got := queryStrings(t, db, c.query); !slices.Equal(got, []string{c.want}) {
			t.Errorf("%s = %q, want %q", c.query, got, c.want)
		}
	}
}
