package ingest

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestTypedRoute checks which files the typed read stores and which it
// leaves to the JSON way (still on the fast path) or to the line-precise
// path, and what is stored either way.
func TestTypedRoute(t *testing.T) {
	cases := []struct {
		name         string
		content      string
		typed, fast  bool
		column, want string // an SQL expression over the file's events, as text
	}{
		{"clean", lines(goodLines...), true, true, "count(*)", "6"},
		{"integer as string", lines(with(runLine, `"seq":"12"`)), true, true, "seq", "12"},
		{"a string that reads like a number", lines(with(toolLine, `"tool_version":"1.5"`)), true, true, "tool_version", "1.5"},
		{"nested integer and boolean", lines(with(toolLine, `"error":{"retry_after_ms":250,"retryable":false}`)), true, true,
			"error.retry_after_ms::VARCHAR || ' ' || error.retryable::VARCHAR", "250 false"},
		{"string array", lines(with(toolLine, `"evidence_ids":["e1","2"]`)), true, true, "evidence_ids::VARCHAR", "[e1, 2]"},
		{"blank lines and CRLF", "\n" + runLine + "\r\n\r\n" + toolLine + "\r\n", true, true, "count(*)", "2"},
		{"a string that reads like a boolean", lines(replace(evidenceLine, "claim", `"true"`)), true, true, "claim", "true"},
		{"a string that starts like an array", lines(replace(evidenceLine, "claim", `"[1] says so"`)), true, true, "claim", "[1] says so"},
		{"escaped string", lines(replace(evidenceLine, "claim", `"a\"b\u00e9"`)), true, true, "claim", "a\"bé"},
		{"unknown field", lines(with(runLine, `"model":"gpt-x"`)), false, true, "extra->>'$.model'", "gpt-x"},
		{"unknown nested field", lines(with(toolLine, `"error":{"code":"E1","vendor_code":"X"}`)), false, true, "extra->'$.error'->>'$.vendor_code'", "X"},
		{"known name at the wrong level", lines(with(toolLine, `"error":{"run_id":"r9"}`)), false, true, "extra->'$.error'->>'$.run_id'", "r9"},
		{"integral fraction", lines(with(runLine, `"seq":2.0`)), false, true, "seq", "2"},
		{"number for a string", lines(runLine, with(toolLine, `"tool_version":1.5`)), false, false, "count(*)", "1"},
		{"number in a string array", lines(runLine, with(toolLine, `"evidence_ids":["e1",2]`)), false, false, "count(*)", "1"},
		{"boolean as string", lines(runLine, with(stageLine, `"plan_valid":"true"`)), false, false, "count(*)", "1"},
		{"rounded fraction", lines(runLine, with(toolLine, `"attempt":1.5`)), false, false, "count(*)", "1"},
		{"object for a string", lines(runLine, replace(toolLine, "status", `{"s":"ok"}`)), false, false, "count(*)", "1"},
		{"malformed line", lines(runLine, `{"type":"stage"`), false, false, "count(*)", "1"},
		{"duplicate event", lines(runLine, toolLine, toolLine), false, false, "count(*)", "2"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := openDB(t)
			content := strings.ReplaceAll(tc.content, `"run_id":"r1"`, fmt.Sprintf(`"run_id":"typed-%d"`, i))
			res := ingestContent(t, db, "t.jsonl", content)
			if res.typedRead != tc.typed || res.FastPath != tc.fast {
				t.Errorf("typed read %v, fast path %v; want %v, %v (rejected %v)", res.typedRead, res.FastPath, tc.typed, tc.fast,
					rejections(t, db, res.Path))
			}
			got := queryStrings(t, db, "SELECT ("+tc.column+")::VARCHAR FROM events")
			if !slices.Equal(got, []string{tc.want}) {
				t.Errorf("%s = %q, want %q", tc.column, got, tc.want)
			}
		})
	}
}

// TestTypedReadNeverAcceptsAWrongType gives every contract field every
// wrong JSON type of TestFieldTypes. DuckDB's typed reader would coerce most
// of them silently (42 to "42", true to "true", 1.5 to 2), so the key/type
// scan must refuse each line, and a file of them must never take the typed
// read: the JSON way, which names the field, decides.
func TestTypedReadNeverAcceptsAWrongType(t *testing.T) {
	var all []string
	var ls lineScanner
	for _, f := range contractFields {
		for _, v := range wrongValues[f.kind] {
			line := setField(toolLine, f.path, v)
			all = append(all, line)
			if got := ls.line([]byte(line)); got != lineJSON {
				t.Errorf("%s: verdict %d, want lineJSON (%d)", line, got, lineJSON)
			}
		}
	}
	if len(all) < 300 {
		t.Fatalf("only %d lines", len(all))
	}
	db := openDB(t)
	res := ingestContent(t, db, "wrong.jsonl", lines(all...))
	if res.typedRead || res.Accepted != 0 || res.Rejected != int64(len(all)) {
		t.Errorf("typed read %v, accepted %d, rejected %d of %d", res.typedRead, res.Accepted, res.Rejected, len(all))
	}
}

// TestTypedMatchesJSON ingests the same generated trace through the typed
// read and through the JSON way and compares every stored event.
func TestTypedMatchesJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := generateTrace(&buf, 3000, 7); err != nil {
		t.Fatal(err)
	}
	path := writeFile(t, t.TempDir(), "sim.jsonl", buf.String())
	typed := openDB(t)
	if res := ingestPath(t, typed, path); !res.typedRead || res.Accepted != 3000 {
		t.Fatalf("typed: %+v", res)
	}
	json := openDB(t)
	if res := ingestPathWith(t, json, path, Routes{NoTyped: true}); res.typedRead || !res.FastPath || res.Accepted != 3000 {
		t.Fatalf("JSON way: %+v", res)
	}
	sameEvents(t, typed, json, "typed", "JSON way")
}

// TestKeyScan checks the scan's verdict on single lines: a key the
// contract does not name at any object level, a value of another JSON type
// or an integer in another notation make a line lineJSON; what is not a
// JSON object is lineMalformed.
func TestKeyScan(t *testing.T) {
	for _, tc := range []struct {
		line string
		want lineVerdict
	}{
		{runLine, lineTyped},
		{" \t" + runLine + " \r", lineTyped},
		{`{}`, lineTyped},
		{with(runLine, `"fault":{"class":"network","expect":{"action":"retry"}}`, `"seq":-12`, `"deadline_ms":"900"`), lineTyped},
		{with(runLine, `"fault":null`, `"agent":{}`, `"task":{"requires_current_evidence":true}`), lineTyped},
		{with(toolLine, `"evidence_ids":["a","b\"c"]`, `"missing_scope":[]`, `"completed_scope":null`), lineTyped},
		{with(runLine, `"seq":123456789012345678`), lineTyped},
		{with(runLine, `"seq":1234567890123456789`), lineJSON}, // 19 digits: may not fit
		{with(runLine, `"fault":"network"`), lineJSON},
		{with(runLine, `"fault":{"expect":{"deadline":5}}`), lineJSON},
		{with(runLine, `"agent":{"name":"a","run_id":"x"}`), lineJSON},
		{with(runLine, `"a, b":1`), lineJSON},
		{with(runLine, `"labels":{}`), lineJSON},
		{with(runLine, `"suite":"b"`), lineJSON}, // repeated key
		{replace(runLine, "suite", `2026`), lineJSON},
		{with(runLine, `"seq":2.0`), lineJSON},
		{with(runLine, `"seq":"+2"`), lineJSON},
		{with(runLine, `"seq":"007"`), lineJSON}, // the typed reader fails on it
		{with(runLine, `"seq":"0"`, `"attempt":"-0"`), lineTyped},
		{with(runLine, `"seq":"1\u0032"`), lineJSON},
		{with(runLine, `"\u0073eq":1`), lineJSON},
		{with(toolLine, `"evidence_ids":["a",null]`), lineJSON},
		{with(stageLine, `"plan_valid":"true"`), lineJSON},
		{with(runLine, `"x":[[[{"y":[1,2,{"z":null}]}]]]`), lineJSON},
		{`{"type":"run"`, lineMalformed},
		{`{"type":"run",}`, lineMalformed},
		{`{"type":"run"} x`, lineMalformed},
		{`{"type":"r` + "\t" + `un"}`, lineMalformed},
		{`{"seq":01}`, lineMalformed},
		{`{"seq":1.}`, lineMalformed},
		{`{"x":NaN}`, lineMalformed},
		{`{"x":"\x"}`, lineMalformed},
		{`{"x":"\u12"}`, lineMalformed},
		{`[1]`, lineMalformed},
		{`"run"`, lineMalformed},
		{`null`, lineMalformed},
		{"\v", lineMalformed},
	} {
		var ls lineScanner
		if got := ls.line([]byte(tc.line)); got != tc.want {
			t.Errorf("%s: verdict %d, want %d", tc.line, got, tc.want)
		}
	}
}

// TestTypedMatchesJSONOnOddValues stores values the scan lets through to
// the typed read though they are written unusually (integers as strings,
// zeros with a minus and as strings, the largest 18-digit integers,
// escapes and surrogate pairs in strings, empty objects and arrays, nulls)
// both ways and compares every stored event.
func TestTypedMatchesJSONOnOddValues(t *testing.T) {
	content := lines(
		with(runLine, `"seq":"12"`, `"deadline_ms":"-0"`, `"retry_budget":-999999999999999999`, `"schema_version":"999999999999999999"`,
			`"agent":{}`, `"fault":null`, `"task":{"evidence_required":"-0","requires_current_evidence":false}`),
		replace(with(stageLine, `"seq":-0`, `"failure":{"reason":"a\/b \u00e9 \ud83d\ude00 \\ \" \t"}`, `"plan_valid":true`), "stage_id", `"st\u0031"`),
		with(toolLine, `"evidence_ids":[]`, `"missing_scope":["", " ", "\u0000x"]`, `"error":{"retry_after_ms":"0","message":""}`, `"source":{}`),
		with(modelLine, `"seq":null`, `"stage_id":null`),
		evidenceLine, terminalLine,
	)
	var ls lineScanner
	for i, l := range strings.Split(strings.TrimSuffix(content, "\n"), "\n") {
		if v := ls.line([]byte(l)); v != lineTyped {
			t.Fatalf("line %d: verdict %d, want lineTyped: %s", i+1, v, l)
		}
	}
	typed := openDB(t)
	if res := ingestContent(t, typed, "odd.jsonl", content); !res.typedRead || res.Accepted != 6 {
		t.Fatalf("typed: %+v, rejected %v", res, rejections(t, typed, res.Path))
	}
	json := openDB(t)
	if res := ingestContentWith(t, json, "odd.jsonl", content, Routes{NoTyped: true}); res.typedRead || res.Accepted != 6 {
		t.Fatalf("JSON way: %+v", res)
	}
	sameEvents(t, typed, json, "typed", "JSON way")
}
