package export

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/internal/testdb"
	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/queries"
	"github.com/faultlens/faultlens/report"
	"github.com/faultlens/faultlens/simulate"
)

// The proof of the convention: ingesting `export --format otlp` gives a
// byte-identical JSON report, and the same stored events (every contract
// field and every unknown field), as ingesting the traces natively.

func TestOTLPRoundTripSamples(t *testing.T) {
	paths, err := filepath.Glob("../sample-traces/*.jsonl")
	if err != nil || len(paths) != 2 {
		t.Fatalf("samples: %v %v", paths, err)
	}
	roundTrip(t, paths, 6995)
}

// Runs read from plain OpenTelemetry GenAI and OpenInference spans carry
// the generic mapping's extension fields (otel, provider, model, token
// counts): they cross too.
func TestOTLPRoundTripGenericOTLP(t *testing.T) {
	var paths []string
	for _, name := range []string{"genai_basic", "openinference", "retries", "tool_errors", "multi_roots", "plan", "old_attrs"} {
		paths = append(paths, "../otlp/testdata/"+name+".jsonl")
	}
	db := roundTrip(t, paths, -1)
	got := queryStrings(t, db, "SELECT count(*)::VARCHAR FROM events WHERE extra->>'$.otel.span_id' IS NULL")
	if got[0] != "0" {
		t.Errorf("%s events lost their otel reference", got[0])
	}
}

// Every fault scenario, under both agent policies, so that every reaction
// the simulator writes (retries, backoff, switches, breakers, partial
// results, degradations, unsealed terminals ...) crosses the export.
func TestOTLPRoundTripAllScenarios(t *testing.T) {
	dir := t.TempDir()
	scenarios := simulate.Scenarios()
	var paths []string
	for _, p := range []simulate.Policy{simulate.Careful, simulate.Naive} {
		path := filepath.Join(dir, p.String()+".jsonl")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = simulate.Generate(f, simulate.Options{Runs: 3 * len(scenarios), Seed: 7, Faults: true, Policy: p, Suite: p.String()})
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	db := roundTrip(t, paths, -1)
	got := queryStrings(t, db, "SELECT DISTINCT scenario FROM events WHERE type = 'run' ORDER BY 1")
	for _, sc := range scenarios {
		if !slices.Contains(got, sc.Name) {
			t.Errorf("scenario %s is not in the round trip", sc.Name)
		}
	}
}

// Events the simulator never writes: unknown fields top-level and nested,
// an empty contract object, a contract field on a type that does not use
// it, a model call without times, a time before 1970, a step that ends
// before it starts, a run without run event, two terminals, evidence whose
// call is not in the run, strings that need escaping.
func TestOTLPRoundTripOddEvents(t *testing.T) {
	lines := []string{
		`{"type":"run","run_id":"r1","ts":"2026-11-28T02:00:00.123456Z","seq":1,"suite":"odd","started_at":"2026-11-28T02:00:00Z","vendor":{"k":[1,2.50,"x"]},"task":{"kind":"k","evidence_required":1,"note":"n"},"agent":{"name":"a \"quoted\" <b>"},"ended_at":"2026-11-28T02:00:09Z"}`,
		`{"type":"stage","run_id":"r1","ts":"2026-11-28T02:00:02Z","stage_id":"s1","stage":"planning","started_at":"2026-11-28T02:00:01Z","ended_at":"2026-11-28T02:00:02Z","outcome":"failed","failure":{},"plan_valid":false,"tool":"not-a-stage-field"}`,
		`{"type":"model_call","run_id":"r1","ts":"2026-11-28T02:00:03Z","seq":3,"call_id":"m1","role":"planner","provider":"acme","input_tokens":12}`,
		`{"type":"tool_call","run_id":"r1","ts":"2026-11-28T02:00:04Z","call_id":"c1","action_id":"a1","tool":"visit","started_at":"2026-11-28T02:00:05Z","ended_at":"2026-11-28T02:00:04Z","status":"error","error":{"category":"TIMEOUT","retryable":true,"retry_after_ms":250,"side_effect_state":"unknown","vendor_code":7},"side_effect":"write"}`,
		`{"type":"tool_call","run_id":"r1","ts":"1969-07-20T20:17:40Z","call_id":"c2","action_id":"a1","attempt":2,"recovery":"retry","recovery_of":"c1","tool":"visit","started_at":"1969-07-20T20:17:39Z","ended_at":"1969-07-20T20:17:40Z","status":"partial","completed_scope":["a"],"missing_scope":["b","c"],"circuit":"half_open","source":{"name":"mirror","grade":"reprint","fallback":true},"evidence_ids":[]}`,
		`{"type":"evidence","run_id":"r1","ts":"2026-11-28T02:00:06Z","evidence_id":"e1","claim":"c","call_id":"gone","grade":"cache","path":"degraded","status":"candidate"}`,
		`{"type":"terminal","run_id":"r1","ts":"2026-11-28T02:00:07Z","terminal":"completed","reason":"ok","visible_chars":0,"chunks_committed":3,"chunks_rejected":1,"disclosed_gaps":false,"degradations":["tool","evidence"]}`,
		`{"type":"terminal","run_id":"r1","ts":"2026-11-28T02:00:08Z","terminal":"failed"}`,
		`{"type":"tool_call","run_id":"r2","ts":"2026-11-28T03:00:01Z","call_id":"x","action_id":"x","tool":"t","started_at":"2026-11-28T03:00:00Z","ended_at":"2026-11-28T03:00:01Z","status":"fast_fail","circuit":"open","error":{"code":"503","message":"line\nbreak"}}`,
		`{"type":"evidence","run_id":"r2","ts":"2026-11-28T03:00:02Z","evidence_id":"e","claim":"c","call_id":"x","grade":"primary","status":"confirmed"}`,
	}
	path := filepath.Join(t.TempDir(), "odd.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := roundTrip(t, []string{path}, int64(len(lines)))
	// The unknown fields are kept in extra after the round trip, too.
	extras := queryStrings(t, db, "SELECT count(*)::VARCHAR FROM events WHERE extra IS NOT NULL")
	if extras[0] != "3" { // the run, the model call and the first tool call
		t.Errorf("events with unknown fields after the round trip: %s, want 3", extras[0])
	}
}

// roundTrip ingests paths natively, exports them as OTLP, ingests the
// export, and fails unless the reports are byte-identical and the stored
// events equal. want is the number of events (-1: do not check). It
// returns the database of the round trip.
func roundTrip(t *testing.T, paths []string, want int64) *sql.DB {
	t.Helper()
	ctx := context.Background()
	native := testdb.Store(t)
	if _, err := ingest.Files(ctx, native, paths, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "export.otlp.jsonl")
	n, err := Write(ctx, native, out, Options{Format: "otlp"})
	if err != nil {
		t.Fatal(err)
	}
	if want >= 0 && n != want {
		t.Errorf("exported %d events, want %d", n, want)
	}
	back := testdb.Store(t)
	res, err := ingest.Files(ctx, back, []string{out}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Format != "otlp" || res[0].Events != n || res[0].Rejected != 0 {
		t.Fatalf("ingesting the export: %+v, want %d events accepted as otlp", res[0], n)
	}
	if a, b := reportJSON(t, native), reportJSON(t, back); a != b {
		t.Errorf("the report of the OTLP export differs from the native one\nnative: %.600s\nexport: %.600s", a, b)
	}
	a, b := storedEvents(t, native), storedEvents(t, back)
	if len(a) != len(b) {
		t.Fatalf("%d events natively, %d after the round trip", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("event differs after the round trip:\nnative: %s\nexport: %s", a[i], b[i])
		}
	}
	return back
}

// storedEvents renders every stored event as its contract fields plus its
// unknown fields, sorted: the two databases must hold the same set.
func storedEvents(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(queries.Render("export.otlp_events", queries.Args{"suite": "NULL"}))
	if err != nil {
		t.Fatal(err)
	}
	defer testdb.CloseOK(t, rows)
	cols, _ := rows.Columns()
	var out []string
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		fields, extra := map[string]any{}, ""
		for i, c := range cols {
			switch {
			case vals[i] == nil:
			case c == "extra":
				extra = vals[i].(string)
			default:
				fields[c] = jsonValue(vals[i])
			}
		}
		unknown, err := unknownFields(extra)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(map[string]any{"fields": fields, "unknown": unknown})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

func reportJSON(t *testing.T, db *sql.DB) string {
	t.Helper()
	rep, err := testdb.Session(t, db, metrics.Open).Report(context.Background(), metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := report.JSON(&b, rep); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func queryStrings(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer testdb.CloseOK(t, rows)
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
