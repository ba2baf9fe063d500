package queries_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/internal/testdb"
	"github.com/faultlens/faultlens/queries"
)

// sample is a value for each placeholder, as its callers build it. A
// statement whose placeholder means something else there has an entry in
// sampleFor. A new placeholder without a sample fails TestEveryStatementPrepares.
func sample(dir string) queries.Args {
	events := queries.Render("export.events", queries.Args{"suite": queries.Literal("a")})
	source := queries.Render("ingest.fast_source", queries.Args{"path": queries.Literal(filepath.Join(dir, "one.jsonl"))})
	typed := queries.Render("ingest.json_typed", ingest.JSONTypedArgs(source))
	checked := queries.Render("ingest.checked", queries.Args{"typed": typed, "ts_proven": "false"})
	return queries.Args{
		"suite":      "NULL",
		"suites":     queries.Literals([]string{"a", "b"}),
		"files":      "1, 2",
		"events":     events,
		"lines":      queries.Render("export.jsonl_lines", queries.Args{"events": events}),
		"path":       queries.Literal(filepath.Join(dir, "out")),
		"threads":    "2",
		"limit":      queries.Literal("1GB"),
		"dir":        queries.Literal(dir),
		"table":      queries.Ident("sample_table"),
		"part":       queries.Get("baseline.runs"),
		"source":     source,
		"typed":      typed,
		"checked":    checked,
		"rows":       queries.Render("ingest.valid_or_fail", queries.Args{"checked": checked}),
		"extra":      ingest.ExtraJSON(),
		"file_id":    "?",
		"base":       "1",
		"max_object": "1048576",
		"paths":      "[" + queries.Literal(filepath.Join(dir, "one.jsonl")) + "]",
		"columns":    "type, run_id",
		"out":        queries.Literal(filepath.Join(dir, "out.jsonl")),
		"order":      "run_id DESC NULLS LAST, run_id",
		"tuples":     "(?, ?, ?)",
		"hashes":     queries.Literals([]string{"ab", "cd"}),
		"first":      "1",
		"last":       "50000",
		"select":     "SELECT 1 AS x",
		"ts_proven":  "true",
		"offset":     "0",
	}
}

// sampleFor overrides sample where a statement reads a file that must exist
// when it is prepared (DuckDB binds a table function's file then).
func sampleFor(dir, name string) queries.Args {
	switch name {
	case "raw.read_ndjson", "ingest.fast_source":
		return queries.Args{"files": queries.Literal(filepath.Join(dir, "one.jsonl")),
			"path": queries.Literal(filepath.Join(dir, "one.jsonl"))}
	case "raw.arrow_insert", "ingest.parquet_to_jsonl":
		return queries.Args{"path": queries.Literal(filepath.Join(dir, "events.parquet"))}
	case "export.read_partitioned":
		return queries.Args{"path": queries.Literal(filepath.Join(dir, "parts", "*", "*.parquet"))}
	case "ingest.json_typed":
		return ingest.JSONTypedArgs(sample(dir)["source"])
	case "ingest.ndjson_typed", "ingest.bench_read":
		return ingest.TypedReadArgs(filepath.Join(dir, "one.jsonl"))
	case "ingest.parquet_rows", "ingest.parquet_columns":
		return queries.Args{"path": queries.Literal(filepath.Join(dir, "events.parquet"))}
	case "ingest.arrow_typed":
		return ingest.ArrowTypedArgs(filepath.Join(dir, "events.parquet"))
	case "ingest.arrow_check", "ingest.arrow_texts":
		typed := queries.Render("ingest.arrow_typed", ingest.ArrowTypedArgs(filepath.Join(dir, "events.parquet")))
		return queries.Args{"typed": typed, "extra": "to_json(src_row)",
			"checked": queries.Render("ingest.checked", queries.Args{"typed": typed, "ts_proven": "false"})}
	case "baseline.sink":
		// The sink functions are registered by a metrics session that reads
		// evidence; any scalar function stands in for them here.
		return queries.Args{"sink": "coalesce", "columns": "run_id",
			"part": strings.TrimSuffix(queries.Get("baseline.runs"), ";")}
	case "ingest.insert_files":
		return queries.Args{"rows": queries.Get("ingest.file_row")}
	}
	return nil
}

// argsFor is a value for each placeholder of the statement name.
func argsFor(t *testing.T, dir, name string) queries.Args {
	t.Helper()
	base, own := sample(dir), sampleFor(dir, name)
	args := queries.Args{}
	for _, p := range queries.Placeholders(name) {
		v, ok := own[p]
		if !ok {
			v, ok = base[p]
		}
		if !ok {
			t.Errorf("%s: no sample value for placeholder %s", name, p)
		}
		args[p] = v
	}
	return args
}

// session builds what the statements read: the schema (store.Open), the
// OTLP span table, a metrics session's macros, scope and fact tables, an
// attached faultlens_source and the dashboard copy's run list, and the
// files that table functions read.
func session(t *testing.T, dir string) *sql.Conn {
	t.Helper()
	ctx := context.Background()
	conn, err := testdb.Store(t).Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { testdb.CloseOK(t, conn) })
	one := `{"type":"run","run_id":"r1","ts":"2026-11-01T02:00:00Z","suite":"a","started_at":"2026-11-01T02:00:00Z"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "one.jsonl"), []byte(one), 0o644); err != nil {
		t.Fatal(err)
	}
	setup := []string{
		queries.Get("otlp.tables"),
		queries.Get("session.macros"),
		`INSERT INTO events (file_id, type, run_id, ts, suite, started_at)
		 VALUES (1, 'run', 'r1', '2026-11-01T02:00:00Z', 'a', '2026-11-01T02:00:00Z')`,
		queries.Get("scope.all"),
		queries.Get("facts.calls"), queries.Get("facts.runs"), queries.Get("facts.chains"), queries.Get("facts.spans"), queries.Get("facts.latency"),
		"ATTACH ':memory:' AS faultlens_source",
		"CREATE TABLE faultlens_source.events AS SELECT * FROM events",
		"CREATE TABLE faultlens_source.files AS SELECT * FROM files",
		"CREATE TABLE faultlens_source.rejected_lines AS SELECT * FROM rejected_lines",
		"ATTACH ':memory:' AS faultlens_db",
		"ATTACH ':memory:' AS faultlens_compact",
		"CREATE TEMP TABLE copy_runs (run_id VARCHAR)",
		"CREATE TEMP TABLE sample_table (x INTEGER)",
		"CREATE TEMP TABLE ingest_checked AS " + sample(dir)["checked"],
		"CREATE TEMP TABLE ingest_dups (line_no BIGINT)",
		queries.Get("ingest.lines_table"),
		queries.Render("scope.runs", queries.Args{"suites": sample(dir)["suites"]}),
		queries.Render("export.parquet", queries.Args{"events": sample(dir)["events"],
			"path": queries.Literal(filepath.Join(dir, "events.parquet"))}),
		queries.Render("export.parquet_by_suite", queries.Args{"events": sample(dir)["events"],
			"path": queries.Literal(filepath.Join(dir, "parts"))}),
		queries.Render("raw.read_ndjson", argsFor(t, dir, "raw.read_ndjson")),
		queries.Render("raw.arrow_insert", argsFor(t, dir, "raw.arrow_insert")),
	}
	for _, q := range setup {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("setup: %v\n%s", err, q)
		}
	}
	return conn
}

// TestEveryStatementPrepares renders every statement with its callers'
// kind of values and has DuckDB parse and bind it (PREPARE: nothing runs),
// so a statement that names a missing column, a function DuckDB lacks or a
// misspelt macro fails here rather than in the one command that runs it.
func TestEveryStatementPrepares(t *testing.T) {
	dir := t.TempDir()
	conn := session(t, dir)
	for _, name := range queries.Names() {
		if why, ok := notPrepared[name]; ok {
			if why == "" {
				t.Errorf("%s: skipped without a reason", name)
			}
			continue
		}
		args := argsFor(t, dir, name)
		// One at a time: given several statements, the driver runs all
		// but the last to prepare it.
		for _, q := range statements(queries.Render(name, args)) {
			stmt, err := conn.PrepareContext(context.Background(), q)
			if err != nil {
				t.Errorf("%s does not prepare: %v", name, err)
				continue
			}
			testdb.CloseOK(t, stmt)
		}
	}
}

// statements splits a named statement that holds several into them, at
// each ";" outside a string literal and a comment line.
func statements(q string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.SplitAfter(q, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "--") {
			cur.WriteString(line)
			continue
		}
		quoted := false
		for _, r := range line {
			cur.WriteRune(r)
			switch {
			case r == '\'':
				quoted = !quoted
			case r == ';' && !quoted:
				if strings.TrimSpace(cur.String()) != ";" {
					out = append(out, cur.String())
				}
				cur.Reset()
			}
		}
	}
	if strings.TrimSpace(cur.String()) != "" {
		out = append(out, cur.String())
	}
	return out
}

// notPrepared names the statements PREPARE cannot check, and why.
var notPrepared = map[string]string{
	"ingest.extra_json":         "an expression, not a statement: prepared inside ingest.insert_events",
	"ingest.type_check_string":  "a WHEN clause: prepared inside ingest.json_typed",
	"ingest.type_check_integer": "a WHEN clause: prepared inside ingest.json_typed",
	"ingest.type_check_boolean": "a WHEN clause: prepared inside ingest.json_typed",
	"ingest.type_check_object":  "a WHEN clause: prepared inside ingest.json_typed",
	"ingest.type_check_strings": "a WHEN clause: prepared inside ingest.json_typed",
	"ingest.parquet_ts_column":  "a select-list item of ingest.parquet_to_jsonl",
	"ingest.file_row":           "a VALUES tuple: prepared inside ingest.insert_files",
}

// TestNotPreparedExist keeps notPrepared from naming statements that are gone.
func TestNotPreparedExist(t *testing.T) {
	names := strings.Join(queries.Names(), "\n") + "\n"
	for name := range notPrepared {
		if !strings.Contains(names, name+"\n") {
			t.Errorf("notPrepared names %s, which is no statement", name)
		}
	}
}
