package ingest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// badLineCase is one bad line placed among the six good fixture lines.
type badLineCase struct {
	name   string
	line   string // without newline
	reason string // the exact rejection reason
}

// badLineCases are lines that must each be rejected with one exact reason.
var badLineCases = []badLineCase{
	// Shape: what cannot be an event at all.
	{"truncated json", `{"type":"run","run_id":"r1","ts":"2026-11-28T0`, "malformed json"},
	{"two objects on a line", runLine + terminalLine, "malformed json"},
	{"bare word", `hello`, "malformed json"},
	{"vertical tab only", "\v", "malformed json"},
	{"BOM after line 1", "\uFEFF" + runLine, "malformed json"},
	{"array", `[1]`, "not a JSON object"},
	{"number", `42`, "not a JSON object"},
	{"string", `"run"`, "not a JSON object"},
	{"null", `null`, "not a JSON object"},
	{"invalid UTF-8", with(runLine, "\"note\":\"caf\xe9\""), "invalid UTF-8"},
	{"NUL byte", with(runLine, "\"note\":\"a\x00b\""), "NUL byte in line"},

	// Identity and time.
	{"no type", without(runLine, "type"), "missing field type"},
	{"null type", replace(runLine, "type", `null`), "missing field type"},
	{"unknown type", replace(runLine, "type", `"heartbeat"`), "unknown type"},
	{"type in capitals", replace(runLine, "type", `"RUN"`), "unknown type"},
	{"no run_id", without(runLine, "run_id"), "missing field run_id"},
	{"empty run_id", replace(runLine, "run_id", `""`), "missing field run_id"},
	{"no ts", without(runLine, "ts"), "missing field ts"},

	// Required fields per type.
	{"run without suite", without(runLine, "suite"), "missing field suite"},
	{"run without started_at", without(runLine, "started_at"), "missing field started_at"},
	{"stage without stage_id", without(stageLine, "stage_id"), "missing field stage_id"},
	{"stage without stage", without(stageLine, "stage"), "missing field stage"},
	{"stage without started_at", without(stageLine, "started_at"), "missing field started_at"},
	{"stage without ended_at", without(stageLine, "ended_at"), "missing field ended_at"},
	{"stage without outcome", without(stageLine, "outcome"), "missing field outcome"},
	{"tool_call without call_id", without(toolLine, "call_id"), "missing field call_id"},
	{"tool_call without action_id", without(toolLine, "action_id"), "missing field action_id"},
	{"tool_call without tool", without(toolLine, "tool"), "missing field tool"},
	{"tool_call without started_at", without(toolLine, "started_at"), "missing field started_at"},
	{"tool_call without ended_at", without(toolLine, "ended_at"), "missing field ended_at"},
	{"tool_call without status", without(toolLine, "status"), "missing field status"},
	{"tool_call with null action_id", replace(toolLine, "action_id", `null`), "missing field action_id"},
	{"model_call without call_id", without(modelLine, "call_id"), "missing field call_id"},
	{"model_call without role", without(modelLine, "role"), "missing field role"},
	{"evidence without evidence_id", without(evidenceLine, "evidence_id"), "missing field evidence_id"},
	{"evidence without claim", without(evidenceLine, "claim"), "missing field claim"},
	{"evidence without grade", without(evidenceLine, "grade"), "missing field grade"},
	{"evidence without status", without(evidenceLine, "status"), "missing field status"},
	{"terminal without terminal", without(terminalLine, "terminal"), "missing field terminal"},

	// Enum values, required and optional, top-level and nested.
	{"stage name", replace(stageLine, "stage", `"thinking"`), "invalid value for stage"},
	{"stage outcome", replace(stageLine, "outcome", `"done"`), "invalid value for outcome"},
	{"tool status", replace(toolLine, "status", `"failed"`), "invalid value for status"},
	{"tool status case", replace(toolLine, "status", `"OK"`), "invalid value for status"},
	{"tool recovery", with(toolLine, `"recovery":"again"`), "invalid value for recovery"},
	{"tool side_effect", with(toolLine, `"side_effect":"read"`), "invalid value for side_effect"},
	{"tool circuit", with(toolLine, `"circuit":"half-open"`), "invalid value for circuit"},
	{"error category", with(toolLine, `"error":{"category":"timeout"}`), "invalid value for error.category"},
	{"error side_effect_state", with(toolLine, `"error":{"side_effect_state":"maybe"}`), "invalid value for error.side_effect_state"},
	{"source grade", with(toolLine, `"source":{"name":"x","grade":"gold"}`), "invalid value for source.grade"},
	{"model role", replace(modelLine, "role", `"critic"`), "invalid value for role"},
	{"model outcome", with(modelLine, `"outcome":"interrupted"`), "invalid value for outcome"},
	{"evidence grade", replace(evidenceLine, "grade", `"tertiary"`), "invalid value for grade"},
	{"evidence path", with(evidenceLine, `"path":"indirect"`), "invalid value for path"},
	{"evidence status", replace(evidenceLine, "status", `"maybe"`), "invalid value for status"},
	{"terminal value", replace(terminalLine, "terminal", `"done"`), "invalid value for terminal"},
	{"terminal reason", with(terminalLine, `"reason":"because"`), "invalid value for reason"},
	{"terminal degradations", with(terminalLine, `"degradations":["tool","speed"]`), "invalid value in degradations"},
	{"fault class", with(runLine, `"fault":{"class":"cosmic"}`), "invalid value for fault.class"},
	{"fault expect action", with(runLine, `"fault":{"class":"network","expect":{"action":"pray"}}`), "invalid value for fault.expect.action"},
	{"fault expect terminal", with(runLine, `"fault":{"expect":{"terminal":"ok"}}`), "invalid value for fault.expect.terminal"},
	{"caused_by cause", with(runLine, `"caused_by":{"run_id":"r0","cause":"whim"}`), "invalid value for caused_by.cause"},
	{"task min_grade", with(runLine, `"task":{"min_grade":"gold"}`), "invalid value for task.min_grade"},

	// Wrong types (see the coercion choices in queries/ingest.sql).
	{"seq abc", with(runLine, `"seq":"abc"`), "wrong type for field seq: expected integer"},
	{"seq fraction", with(runLine, `"seq":1.5`), "wrong type for field seq: expected integer"},
	{"seq fraction in string", with(runLine, `"seq":"1.5"`), "wrong type for field seq: expected integer"},
	{"seq boolean", with(runLine, `"seq":true`), "wrong type for field seq: expected integer"},
	{"seq object", with(runLine, `"seq":{"n":1}`), "wrong type for field seq: expected integer"},
	{"seq too large", with(runLine, `"seq":9223372036854775808`), "wrong type for field seq: expected integer"},
	{"schema_version string", with(runLine, `"schema_version":"v1"`), "wrong type for field schema_version: expected integer"},
	{"deadline_ms", with(runLine, `"deadline_ms":[1]`), "wrong type for field deadline_ms: expected integer"},
	{"attempt", with(toolLine, `"attempt":"first"`), "wrong type for field attempt: expected integer"},
	{"visible_chars", with(terminalLine, `"visible_chars":12.25`), "wrong type for field visible_chars: expected integer"},
	{"plan_valid string", with(stageLine, `"plan_valid":"yes"`), "wrong type for field plan_valid: expected boolean"},
	{"plan_valid number", with(stageLine, `"plan_valid":1`), "wrong type for field plan_valid: expected boolean"},
	{"disclosed_gaps string", with(terminalLine, `"disclosed_gaps":"true"`), "wrong type for field disclosed_gaps: expected boolean"},
	{"agent string", with(runLine, `"agent":"bot"`), "wrong type for field agent: expected object"},
	{"fault array", with(runLine, `"fault":["network"]`), "wrong type for field fault: expected object"},
	{"error string", with(toolLine, `"error":"boom"`), "wrong type for field error: expected object"},
	{"fault.expect string", with(runLine, `"fault":{"class":"network","expect":"retry"}`), "wrong type for field fault.expect: expected object"},
	{"error.retryable string", with(toolLine, `"error":{"category":"TIMEOUT","retryable":"abc"}`), "wrong type for field error.retryable: expected boolean"},
	{"error.retry_after_ms", with(toolLine, `"error":{"retry_after_ms":"soon"}`), "wrong type for field error.retry_after_ms: expected integer"},
	{"task.evidence_required", with(runLine, `"task":{"evidence_required":2.5}`), "wrong type for field task.evidence_required: expected integer"},
	{"source.fallback", with(toolLine, `"source":{"name":"x","fallback":"no"}`), "wrong type for field source.fallback: expected boolean"},
	{"agent.name object", with(runLine, `"agent":{"name":{"first":"a"}}`), "wrong type for field agent.name: expected string"},
	{"tool object", replace(toolLine, "tool", `{"name":"search"}`), "wrong type for field tool: expected string"},
	{"suite array", replace(runLine, "suite", `["a","b"]`), "wrong type for field suite: expected string"},
	{"run_id object", replace(runLine, "run_id", `{"id":1}`), "wrong type for field run_id: expected string"},
	{"stage_id boolean", replace(stageLine, "stage_id", `true`), "wrong type for field stage_id: expected string"},
	{"evidence_ids string", with(toolLine, `"evidence_ids":"e1"`), "wrong type for field evidence_ids: expected array of strings"},
	{"evidence_ids objects", with(toolLine, `"evidence_ids":[{"id":"e1"}]`), "wrong type for field evidence_ids: expected array of strings"},
	{"missing_scope nested array", with(toolLine, `"missing_scope":[["a"]]`), "wrong type for field missing_scope: expected array of strings"},
	{"degradations string", with(terminalLine, `"degradations":"tool"`), "wrong type for field degradations: expected array of strings"},
	// A number where a string is due (issue 12: no longer taken as its text).
	{"suite number", replace(runLine, "suite", `2026`), "wrong type for field suite: expected string"},
	{"tool_version fraction", with(toolLine, `"tool_version":1.25`), "wrong type for field tool_version: expected string"},
	{"run_id number", replace(runLine, "run_id", `7`), "wrong type for field run_id: expected string"},
	{"error.code number", with(toolLine, `"error":{"code":503}`), "wrong type for field error.code: expected string"},
	{"evidence_ids number element", with(toolLine, `"evidence_ids":["e",2]`), "wrong type for field evidence_ids: expected array of strings"},
	{"degradations numbers", with(terminalLine, `"degradations":[1]`), "wrong type for field degradations: expected array of strings"},

	// Timestamps (more in timestamps_test.go).
	{"ts without zone", replace(runLine, "ts", `"2026-11-28T02:00:00"`), "invalid timestamp ts"},
	{"ts date only", replace(runLine, "ts", `"2026-11-28"`), "invalid timestamp ts"},
	{"ts words", replace(runLine, "ts", `"yesterday"`), "invalid timestamp ts"},
	{"ts epoch number", replace(runLine, "ts", `1795831200`), "invalid timestamp ts"},
	{"ts impossible date", replace(runLine, "ts", `"2026-02-30T02:00:00Z"`), "invalid timestamp ts"},
	{"started_at without zone", replace(stageLine, "started_at", `"2026-11-28T02:00:01.5"`), "invalid timestamp started_at"},
	{"ended_at invalid", replace(toolLine, "ended_at", `"2026-11-28T25:00:00Z"`), "invalid timestamp ended_at"},
	{"enqueued_at without zone", with(toolLine, `"enqueued_at":"2026-11-28 02:00:03"`), "invalid timestamp enqueued_at"},
}

// TestBadLines puts every bad line into one file, each after a good line
// of a run of its own, and checks that exactly the bad lines are rejected,
// each with its line number and reason, that the file took the line-precise
// path, and that every good line is stored exactly as when the file holds no
// bad line.
func TestBadLines(t *testing.T) {
	var good, all, want []string
	for i, tc := range badLineCases {
		g := replace(goodLines[i%len(goodLines)], "run_id", fmt.Sprintf(`"r-%d"`, i))
		good = append(good, g)
		all = append(all, g, tc.line)
		want = append(want, fmt.Sprintf("%d: %s", len(all), tc.reason))
	}
	ref := openDB(t)
	ingestContent(t, ref, "good.jsonl", lines(good...))
	wantEvents := storedEvents(t, ref)

	db := openDB(t)
	res := ingestContent(t, db, "bad.jsonl", lines(all...))
	n := int64(len(badLineCases))
	if res.Lines != 2*n || res.Accepted != n || res.Rejected != n || res.Blank != 0 || res.FastPath {
		t.Errorf("lines/accepted/rejected/blank/fast = %d/%d/%d/%d/%v, want %d/%d/%d/0/false",
			res.Lines, res.Accepted, res.Rejected, res.Blank, res.FastPath, 2*n, n, n)
	}
	got := queryStrings(t, db, "SELECT line_no || ': ' || reason FROM rejected_lines ORDER BY line_no")
	for i, tc := range badLineCases {
		if i >= len(got) || got[i] != want[i] {
			t.Errorf("%s: rejected %q, want %q", tc.name, at2(got, i), want[i])
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d lines rejected, want %d", len(got), len(want))
	}
	if gotEvents := storedEvents(t, db); !slices.Equal(gotEvents, wantEvents) {
		t.Errorf("good lines stored differently next to bad lines:\n got %q\nwant %q", gotEvents, wantEvents)
	}
}

// TestBadLineAlone checks one bad line among the six good ones on its own:
// the accounting, the path taken, and that the good lines are all kept.
func TestBadLineAlone(t *testing.T) {
	ref := openDB(t)
	ingestContent(t, ref, "good.jsonl", lines(goodLines...))
	want := storedEvents(t, ref)
	alone := []string{"truncated json", "invalid UTF-8", "NUL byte", "array", "tool_call without action_id", "agent string", "ts without zone"}
	for _, tc := range badLineCases {
		if !slices.Contains(alone, tc.name) {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			db := openDB(t)
			res := ingestContent(t, db, "bad.jsonl", lines(runLine, stageLine, toolLine, tc.line, modelLine, evidenceLine, terminalLine))
			if res.Lines != 7 || res.Accepted != 6 || res.Rejected != 1 || res.Blank != 0 || res.FastPath {
				t.Errorf("lines/accepted/rejected/blank/fast = %d/%d/%d/%d/%v, want 7/6/1/0/false", res.Lines, res.Accepted, res.Rejected, res.Blank, res.FastPath)
			}
			if got := rejections(t, db, res.Path); !slices.Equal(got, []rejection{{4, tc.reason}}) {
				t.Errorf("rejected %v, want [{4 %s}]", got, tc.reason)
			}
			if got := storedEvents(t, db); !slices.Equal(got, want) {
				t.Errorf("good lines stored as %q, want %q", got, want)
			}
		})
	}
}

// TestRejectedLineText checks what is kept of a rejected line: its text
// without the line ending, cut to 1024 bytes, as valid UTF-8.
func TestRejectedLineText(t *testing.T) {
	db := openDB(t)
	long := `{"type":"run","note":"` + strings.Repeat("é", 600) + `"`
	content := "[1]\r\n" + "{\"a\":\"caf\xe9\"}\n" + long + "\n"
	res := ingestContent(t, db, "text.jsonl", content)
	if res.Lines != 3 || res.Rejected != 3 {
		t.Fatalf("result %+v", res)
	}
	got := queryStrings(t, db, "SELECT text FROM rejected_lines ORDER BY line_no")
	if len(got) != 3 || got[0] != "[1]" || got[1] != "{\"a\":\"caf\uFFFD\"}" {
		t.Fatalf("texts %q", got)
	}
	// Long lines are cut (to 1024 bytes in Go, 1024 characters in SQL).
	if !strings.HasPrefix(long, got[2]) || len(got[2]) < 1024 || len(got[2]) > 4*1024 {
		t.Errorf("long line kept as %d bytes %q", len(got[2]), got[2])
	}
}
