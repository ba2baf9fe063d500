package ingest

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/queries"
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
		{"number for a string", lines(with(toolLine, `"tool_version":1.5`)), true, true, "tool_version", "1.5"},
		{"nested integer and boolean", lines(with(toolLine, `"error":{"retry_after_ms":250,"retryable":false}`)), true, true,
			"error.retry_after_ms::VARCHAR || ' ' || error.retryable::VARCHAR", "250 false"},
		{"string array", lines(with(toolLine, `"evidence_ids":["e1",2]`)), true, true, "evidence_ids::VARCHAR", "[e1, 2]"},
		{"blank lines and CRLF", "\n" + runLine + "\r\n\r\n" + toolLine + "\r\n", true, true, "count(*)", "2"},
		{"unknown field", lines(with(runLine, `"model":"gpt-x"`)), false, true, "extra->>'$.model'", "gpt-x"},
		{"unknown nested field", lines(with(toolLine, `"error":{"code":"E1","vendor_code":"X"}`)), false, true, "extra->'$.error'->>'$.vendor_code'", "X"},
		{"known name at the wrong level", lines(with(toolLine, `"error":{"run_id":"r9"}`)), false, true, "extra->'$.error'->>'$.run_id'", "r9"},
		{"integral fraction", lines(with(runLine, `"seq":2.0`)), false, true, "seq", "2"},
		{"a string that reads like a boolean", lines(replace(evidenceLine, "claim", `"true"`)), false, true, "claim", "true"},
		{"a string that starts like an array", lines(replace(evidenceLine, "claim", `"[1] says so"`)), false, true, "claim", "[1] says so"},
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

// TestTypedReadNeverAcceptsAWrongType gives the typed relation alone the
// wrong JSON types of TestFieldTypes: each line must fail the read or be
// refused by the rules, never pass as a valid row, so that the JSON way,
// which names the field, always decides. DuckDB's reader fails outright on
// a non-object for a struct and a non-array for a list, so those are tried
// on one field each; every other wrong value is read (coerced), and all of
// them, for every field, are judged in one file.
func TestTypedReadNeverAcceptsAWrongType(t *testing.T) {
	db := openDB(t)
	mustExec(t, db, queries.Get("ingest.typed_macros"))
	dir := t.TempDir()
	var coerced []string
	readFails := map[string]bool{}
	for _, f := range contractFields {
		for _, v := range wrongValues[f.kind] {
			line := setField(toolLine, f.path, v)
			switch {
			case f.kind == "object" || (f.kind == "array of strings" && !strings.HasPrefix(v, "[")):
				if f.path == "fault" || f.path == "evidence_ids" {
					readFails[line] = true
				}
			default:
				coerced = append(coerced, line)
			}
		}
	}
	path := writeFile(t, dir, "coerced.jsonl", lines(coerced...))
	var rows, valid int64
	if err := db.QueryRow("SELECT count(*), count(*) FILTER (reason IS NULL) FROM ("+rules(typedRelation(path))+")").Scan(&rows, &valid); err != nil {
		t.Fatal(err)
	}
	if rows != int64(len(coerced)) || valid != 0 || rows < 250 {
		t.Errorf("%d lines of wrong types: read %d rows, %d valid", len(coerced), rows, valid)
	}
	i := 0
	for line := range readFails {
		i++
		path := writeFile(t, dir, fmt.Sprintf("f%d.jsonl", i), lines(line))
		if _, err := db.Exec("SELECT * FROM (" + typedRelation(path) + ")"); err == nil {
			t.Errorf("the typed read took %s", line)
		}
	}
	if i != 8 {
		t.Errorf("%d lines the read should fail on, want 8", i)
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
	defer func(v bool) { typedReadOff = v }(typedReadOff)
	typedReadOff = true
	json := openDB(t)
	if res := ingestPath(t, json, path); res.typedRead || !res.FastPath || res.Accepted != 3000 {
		t.Fatalf("JSON way: %+v", res)
	}
	a, b := storedEvents(t, typed), storedEvents(t, json)
	if !slices.Equal(a, b) {
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				t.Fatalf("first difference:\n typed %s\n  json %s", a[i], b[i])
			}
		}
		t.Fatalf("typed stored %d events, JSON way %d", len(a), len(b))
	}
}

// TestUnknownKeysProbe checks the probe on its own: a key the contract
// does not name at any object level, and nothing else, is found.
func TestUnknownKeysProbe(t *testing.T) {
	db := openDB(t)
	dir := t.TempDir()
	for i, tc := range []struct {
		line string
		want bool
	}{
		{runLine, false},
		{with(runLine, `"fault":{"class":"network","expect":{"action":"retry"}}`), false},
		{with(runLine, `"fault":"network"`), false}, // a wrong type, not an unknown key
		{with(runLine, `"fault":{"expect":{"deadline":5}}`), true},
		{with(runLine, `"agent":{"name":"a","run_id":"x"}`), true},
		{with(runLine, `"a, b":1`), true},
		{with(runLine, `"labels":{}`), true},
	} {
		p := writeFile(t, dir, fmt.Sprintf("p%d.jsonl", i), lines(runLine, tc.line))
		var got bool
		if err := db.QueryRowContext(context.Background(), queries.Render("ingest.unknown_keys", unknownKeyArgs(p))).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%s: unknown %v, want %v", filepath.Base(p), got, tc.want)
		}
	}
}
