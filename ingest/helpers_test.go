package ingest

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/store"
)

// Valid events of every type with only their required fields, all of run r1.
// Tests build files from these and from edited copies of them.
const (
	runLine      = `{"type":"run","run_id":"r1","ts":"2026-11-28T02:00:00Z","suite":"nightly","started_at":"2026-11-28T02:00:00Z"}`
	stageLine    = `{"type":"stage","run_id":"r1","ts":"2026-11-28T02:00:02Z","stage_id":"st1","stage":"planning","started_at":"2026-11-28T02:00:01Z","ended_at":"2026-11-28T02:00:02Z","outcome":"ok"}`
	toolLine     = `{"type":"tool_call","run_id":"r1","ts":"2026-11-28T02:00:04Z","call_id":"c1","action_id":"a1","tool":"search","started_at":"2026-11-28T02:00:03Z","ended_at":"2026-11-28T02:00:04Z","status":"ok"}`
	modelLine    = `{"type":"model_call","run_id":"r1","ts":"2026-11-28T02:00:05Z","call_id":"m1","role":"planner"}`
	evidenceLine = `{"type":"evidence","run_id":"r1","ts":"2026-11-28T02:00:06Z","evidence_id":"e1","claim":"k1","grade":"primary","status":"confirmed"}`
	terminalLine = `{"type":"terminal","run_id":"r1","ts":"2026-11-28T02:00:07Z","terminal":"completed"}`
)

// goodLines are one valid event of each type.
var goodLines = []string{runLine, stageLine, toolLine, modelLine, evidenceLine, terminalLine}

// lines joins ls with "\n" and ends the last one with "\n" too.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// openDB opens a fresh in-memory database with the schema applied. DuckDB
// spills to a temporary directory, not to .tmp in the package.
func openDB(t testing.TB) *sql.DB {
	t.Helper()
	db, err := store.Open(context.Background(), "", store.Limits{Threads: 2, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeQuietly(db) })
	return db
}

// writeFile writes content to dir/name and returns the path.
func writeFile(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// writeGzip writes content gzip-compressed to dir/name and returns the path.
func writeGzip(t testing.TB, dir, name, content string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, dir, name, buf.String())
}

// ingestContent writes content to a fresh file named name and ingests it,
// failing the test on any error or on unbalanced accounting.
func ingestContent(t testing.TB, db *sql.DB, name, content string) FileResult {
	t.Helper()
	return ingestPath(t, db, writeFile(t, t.TempDir(), name, content))
}

// ingestContentWith is ingestContent on the routes rt.
func ingestContentWith(t testing.TB, db *sql.DB, name, content string, rt Routes) FileResult {
	t.Helper()
	return ingestPathWith(t, db, writeFile(t, t.TempDir(), name, content), rt)
}

// ingestPath ingests one file, failing the test on any error or on
// unbalanced accounting.
func ingestPath(t testing.TB, db *sql.DB, path string) FileResult {
	t.Helper()
	return ingestPathWith(t, db, path, Routes{})
}

// ingestPathWith is ingestPath on the routes rt.
func ingestPathWith(t testing.TB, db *sql.DB, path string, rt Routes) FileResult {
	t.Helper()
	res, err := File(context.Background(), db, path, Options{Routes: rt})
	if err != nil {
		t.Fatalf("ingest %s: %v", path, err)
	}
	checkBalanced(t, db, res)
	return res
}

// checkBalanced asserts Lines = Accepted + Rejected + Blank, and that the
// files and rejected_lines tables agree with the result.
func checkBalanced(t testing.TB, db *sql.DB, res FileResult) {
	t.Helper()
	if res.Lines != res.Accepted+res.Rejected+res.Blank {
		t.Errorf("%s: lines %d != accepted %d + rejected %d + blank %d",
			res.Path, res.Lines, res.Accepted, res.Rejected, res.Blank)
	}
	if res.Duplicate != "" {
		return
	}
	var lines, accepted, rejected, blank, stored int64
	err := db.QueryRow(`SELECT lines, accepted, rejected, blank,
		    (SELECT count(*) FROM rejected_lines r WHERE r.file_id = f.file_id)
		FROM files f WHERE sha256 = ?`, res.SHA256).Scan(&lines, &accepted, &rejected, &blank, &stored)
	if err != nil {
		t.Fatalf("%s: files row: %v", res.Path, err)
	}
	if lines != res.Lines || accepted != res.Accepted || rejected != res.Rejected || blank != res.Blank || stored != res.Rejected {
		t.Errorf("%s: files row lines=%d accepted=%d rejected=%d blank=%d (rejected_lines %d), result %+v",
			res.Path, lines, accepted, rejected, blank, stored, res)
	}
}

// rejection is one row of rejected_lines as the tests compare it.
type rejection struct {
	Line   int64
	Reason string
}

// rejections lists the rejected lines of the file stored under path.
func rejections(t testing.TB, db *sql.DB, path string) []rejection {
	t.Helper()
	rows, err := db.Query("SELECT line_no, reason FROM rejected_lines WHERE path = ? ORDER BY line_no", path)
	if err != nil {
		t.Fatal(err)
	}
	defer closeQuietly(rows)
	var out []rejection
	for rows.Next() {
		var r rejection
		if err := rows.Scan(&r.Line, &r.Reason); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// queryStrings runs q and returns its single VARCHAR column.
func queryStrings(t testing.TB, db *sql.DB, q string, args ...any) []string {
	t.Helper()
	rows, err := db.Query(q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer closeQuietly(rows)
	var out []string
	for rows.Next() {
		var s sql.NullString
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s.String)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// storedEvents renders every stored event (all columns but file_id) as text,
// sorted, so that two databases can be compared.
func storedEvents(t testing.TB, db *sql.DB) []string {
	t.Helper()
	return queryStrings(t, db, `SELECT e::VARCHAR AS row FROM (SELECT * EXCLUDE (file_id) FROM events) e ORDER BY row`)
}

// sameEvents fails the test unless db stores the same events as ref (file
// ids aside), naming the first difference or the counts; what and refWhat
// name the two routes in the message.
func sameEvents(t testing.TB, db, ref *sql.DB, what, refWhat string) {
	t.Helper()
	a, b := storedEvents(t, db), storedEvents(t, ref)
	if slices.Equal(a, b) {
		return
	}
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			t.Fatalf("first difference:\n%8s %s\n%8s %s", what, a[i], refWhat, b[i])
		}
	}
	t.Fatalf("%s stored %d events, %s %d", what, len(a), refWhat, len(b))
}

// countRows returns count(*) of table.
func countRows(t testing.TB, db *sql.DB, table string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// with returns the JSON object line with extra members appended, e.g.
// with(runLine, `"seq":3`).
func with(line string, members ...string) string {
	return strings.TrimSuffix(line, "}") + "," + strings.Join(members, ",") + "}"
}

// without returns the JSON object line with the member "key":... removed.
// The member's value must hold no comma (true for the fixture lines).
func without(line, key string) string {
	i := strings.Index(line, `"`+key+`":`)
	if i < 0 {
		panic("without: no " + key)
	}
	j := strings.IndexAny(line[i:], ",}")
	if line[i+j] == ',' {
		return line[:i] + line[i+j+1:]
	}
	return strings.TrimSuffix(line[:i], ",") + "}"
}

// replace returns line with the value of key set to the JSON text v.
func replace(line, key, v string) string {
	i := strings.Index(line, `"`+key+`":`)
	if i < 0 {
		panic("replace: no " + key)
	}
	start := i + len(key) + 3
	j := strings.IndexAny(line[start:], ",}")
	return line[:start] + v + line[start+j:]
}
