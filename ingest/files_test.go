package ingest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// generated returns n events of realistic shape as JSON Lines.
func generated(t testing.TB, n int, seed uint64) string {
	t.Helper()
	var buf bytes.Buffer
	if err := generateTrace(&buf, n, seed); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// snapshot summarises what the stored tables hold.
func snapshot(t testing.TB, db *sql.DB) string {
	t.Helper()
	return fmt.Sprintf("files=%d events=%d rejected=%d", countRows(t, db, "files"), countRows(t, db, "events"), countRows(t, db, "rejected_lines"))
}

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// TestDuplicateContent checks at-most-once ingest by content: the same file
// again, the same content under another name and gzip-compressed are all
// skipped with Duplicate set, and add nothing.
func TestDuplicateContent(t *testing.T) {
	db := openDB(t)
	dir := t.TempDir()
	content := lines(runLine, "{", toolLine, "", terminalLine)
	first := writeFile(t, dir, "a.jsonl", content)
	res := ingestPath(t, db, first)
	if res.Duplicate != "" || res.Accepted != 3 || res.Rejected != 1 || res.Blank != 1 {
		t.Fatalf("first ingest: %+v", res)
	}
	before := snapshot(t, db)
	for _, p := range []string{
		first,
		writeFile(t, dir, "b.jsonl", content),
		writeFile(t, t.TempDir(), "a.jsonl", content),
		writeGzip(t, dir, "a.jsonl.gz", content),
		writeGzip(t, dir, "c.ndjson.GZ", content),
	} {
		res := ingestPath(t, db, p)
		if res.Duplicate != first {
			t.Errorf("%s: Duplicate = %q, want %q", p, res.Duplicate, first)
		}
		if res.Lines != 0 || res.Accepted != 0 || res.Rejected != 0 || res.Blank != 0 || res.FastPath {
			t.Errorf("%s: a duplicate counts lines: %+v", p, res)
		}
		if res.SHA256 != sha(content) {
			t.Errorf("%s: SHA256 %s, want that of the content", p, res.SHA256)
		}
		if after := snapshot(t, db); after != before {
			t.Errorf("%s: a duplicate changed the tables: %s -> %s", p, before, after)
		}
	}
	// One more byte is new content, so the file is read; but its events are
	// already stored, so each is a duplicate event, kept once, counted and
	// listed as a rejected line (the malformed line is rejected again).
	res = ingestPath(t, db, writeFile(t, dir, "d.jsonl", content+"\n"))
	if res.Duplicate != "" || res.Accepted != 0 || res.Rejected != 4 || res.Blank != 2 {
		t.Errorf("changed content: %+v", res)
	}
	if got := countRows(t, db, "events"); got != 3 {
		t.Errorf("events after re-delivery: %d, want 3", got)
	}
	var dups int
	if err := db.QueryRow("SELECT count(*) FROM rejected_lines WHERE reason LIKE 'duplicate event (same %'").Scan(&dups); err != nil {
		t.Fatal(err)
	}
	if dups != 3 {
		t.Errorf("duplicate events listed: %d, want 3", dups)
	}
}

// TestDuplicateEvents checks that the same event twice in one file is kept
// once, the second named by line and reason, on the fast and precise paths
// alike, and that a different second terminal is kept (a seal violation).
func TestDuplicateEvents(t *testing.T) {
	db := openDB(t)
	dir := t.TempDir()
	second := strings.Replace(terminalLine, `"completed"`, `"failed"`, 1)
	res := ingestPath(t, db, writeFile(t, dir, "a.jsonl", lines(runLine, toolLine, toolLine, terminalLine, terminalLine, second)))
	if res.Accepted != 4 || res.Rejected != 2 {
		t.Fatalf("%+v", res)
	}
	rows, err := db.Query("SELECT line_no, reason FROM rejected_lines ORDER BY line_no")
	if err != nil {
		t.Fatal(err)
	}
	defer closeQuietly(rows)
	var got []string
	for rows.Next() {
		var n int
		var r string
		if err := rows.Scan(&n, &r); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%d %s", n, r))
	}
	want := []string{"3 duplicate event (same call_id)", "5 duplicate event (same terminal)"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("rejected %q, want %q", got, want)
	}
}

// TestDuplicateInOneCall checks that Files skips a repeated file within one
// call too, and reports the name it was first recorded under.
func TestDuplicateInOneCall(t *testing.T) {
	db := openDB(t)
	dir := t.TempDir()
	a := writeFile(t, dir, "a.jsonl", lines(goodLines...))
	b := writeGzip(t, dir, "b.jsonl.gz", lines(goodLines...))
	rs, err := Files(context.Background(), db, []string{a, b}, Options{Names: map[string]string{a: "sample-traces/a.jsonl"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].Path != "sample-traces/a.jsonl" || rs[0].Accepted != 6 || rs[1].Duplicate != "sample-traces/a.jsonl" || rs[1].Path != b {
		t.Errorf("results %+v", rs)
	}
	if tot, files, dups := Totals(rs); files != 1 || dups != 1 || tot.Accepted != 6 {
		t.Errorf("totals %+v, %d files, %d duplicates", tot, files, dups)
	}
}

// TestGzip checks that a .gz file is read decompressed on both paths, with
// the hash and size of its content.
func TestGzip(t *testing.T) {
	db := openDB(t)
	dir := t.TempDir()
	clean := generated(t, 200, 7)
	res := ingestPath(t, db, writeGzip(t, dir, "clean.jsonl.gz", clean))
	if !res.FastPath || res.Accepted != 200 || res.SHA256 != sha(clean) || res.Bytes != int64(len(clean)) {
		t.Errorf("clean gzip: %+v", res)
	}
	bad := lines(runLine, "\xff", toolLine)
	res = ingestPath(t, db, writeGzip(t, dir, "bad.jsonl.gz", bad))
	if res.FastPath || res.Accepted != 2 || res.Rejected != 1 {
		t.Errorf("gzip with a bad line: %+v", res)
	}
	if got := rejections(t, db, res.Path); !slices.Equal(got, []rejection{{2, "invalid UTF-8"}}) {
		t.Errorf("rejected %v", got)
	}
}

// TestCorruptGzip checks that a .gz file that does not decompress is an
// *InputError naming the file, and that nothing of it is stored.
func TestCorruptGzip(t *testing.T) {
	dir := t.TempDir()
	good := writeGzip(t, dir, "good.jsonl.gz", generated(t, 500, 3))
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	badCRC := slices.Clone(data)
	badCRC[len(badCRC)-6] ^= 0xff // the CRC-32 in the trailer
	flipped := slices.Clone(data)
	flipped[len(flipped)/2] ^= 0x55
	cases := map[string][]byte{
		"not gzip at all": []byte(lines(goodLines...)),
		"empty":           nil,
		"header only":     data[:10],
		"truncated":       data[:len(data)/2],
		"bad checksum":    badCRC,
		"corrupt data":    flipped,
		"trailing junk":   append(slices.Clone(data), "junk"...),
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			db := openDB(t)
			p := writeFile(t, t.TempDir(), "trace.jsonl.gz", string(b))
			_, err := File(context.Background(), db, p, Options{})
			var ie *InputError
			if !errors.As(err, &ie) || ie.Path != p {
				t.Fatalf("err = %v (%T), want an *InputError for %s", err, err, p)
			}
			if !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "gzip") {
				t.Errorf("message %q does not name the file and gzip", err)
			}
			if s := snapshot(t, db); s != "files=0 events=0 rejected=0" {
				t.Errorf("stored %s", s)
			}
		})
	}
	// Files stops at the corrupt file, keeping what was committed before.
	db := openDB(t)
	corrupt := writeFile(t, dir, "corrupt.jsonl.gz", "not gzip")
	rs, err := Files(context.Background(), db, []string{good, corrupt, writeFile(t, dir, "after.jsonl", lines(runLine))}, Options{})
	var ie *InputError
	if !errors.As(err, &ie) || ie.Path != corrupt || len(rs) != 1 || rs[0].Accepted != 500 {
		t.Errorf("Files: %v, %+v", err, rs)
	}
	if s := snapshot(t, db); s != "files=1 events=500 rejected=0" {
		t.Errorf("stored %s", s)
	}
}

// TestMissingFile checks that a file that cannot be opened is an *InputError
// naming it.
func TestMissingFile(t *testing.T) {
	db := openDB(t)
	for _, p := range []string{t.TempDir() + "/nope.jsonl", t.TempDir() + "/nope.jsonl.gz", t.TempDir()} {
		_, err := File(context.Background(), db, p, Options{})
		var ie *InputError
		if !errors.As(err, &ie) || ie.Path != p || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: err = %v, want an *InputError naming it", p, err)
		}
	}
}

// TestRunSplitOverTwoFiles checks that a run whose events are in two files
// is one run: the same stored events as from one file.
func TestRunSplitOverTwoFiles(t *testing.T) {
	whole := openDB(t)
	ingestContent(t, whole, "whole.jsonl", lines(goodLines...))

	split := openDB(t)
	r1 := ingestContent(t, split, "part1.jsonl", lines(runLine, stageLine, toolLine))
	r2 := ingestContent(t, split, "part2.jsonl.txt", lines(modelLine, evidenceLine, terminalLine))
	if r1.Accepted != 3 || r2.Accepted != 3 {
		t.Fatalf("parts: %+v, %+v", r1, r2)
	}
	if got, want := storedEvents(t, split), storedEvents(t, whole); !slices.Equal(got, want) {
		t.Errorf("split run stored as\n%q\nwant\n%q", got, want)
	}
	got := queryStrings(t, split, "SELECT count(DISTINCT file_id) || ' files, ' || count(*) || ' events' FROM events WHERE run_id = 'r1'")
	if !slices.Equal(got, []string{"2 files, 6 events"}) {
		t.Errorf("run r1: %q", got)
	}
}

// TestShuffledLines checks that line order carries no meaning: shuffled
// lines give the same stored events.
func TestShuffledLines(t *testing.T) {
	content := generated(t, 2000, 11)
	ls := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(len(ls), func(i, j int) { ls[i], ls[j] = ls[j], ls[i] })
	shuffled := lines(ls...)
	if shuffled == content {
		t.Fatal("shuffle left the lines in order")
	}
	a, b := openDB(t), openDB(t)
	ra := ingestContent(t, a, "ordered.jsonl", content)
	rb := ingestContent(t, b, "shuffled.jsonl", shuffled)
	if ra.Accepted != 2000 || rb.Accepted != 2000 || !ra.FastPath || !rb.FastPath {
		t.Fatalf("results %+v, %+v", ra, rb)
	}
	if !slices.Equal(storedEvents(t, a), storedEvents(t, b)) {
		t.Error("shuffled lines stored different events")
	}
}

// richLines is clean content that uses every field, the integer coercions,
// unknown fields and several zones: what both load paths must store alike.
func richLines(t testing.TB) []string {
	ls := strings.Split(strings.TrimSuffix(generated(t, 300, 5), "\n"), "\n")
	return append(ls,
		`{"type":"run","run_id":"rich","ts":"2026-11-28T10:00:00.123456+08:00","seq":"1","schema_version":1,"suite":"2026","scenario":"baseline","fault":{"class":"state","kind":"stale","target_tool":"visit","expect":{"action":"stop","terminal":"failed"}},"agent":{"name":"a","version":"1"},"client_message_id":"m","caused_by":{"run_id":"r0","cause":"explicit_retry"},"task":{"kind":"k","requires_current_evidence":false,"evidence_required":"3","min_grade":"cache"},"deadline_ms":1e4,"retry_budget":2.0,"started_at":"2026-11-28t02:00:00z","vendor":{"x":[1,2]}}`,
		`{"type":"stage","run_id":"rich","ts":"2026-11-28T02:00:02Z","seq":2,"stage_id":"s","stage":"review","attempt":2,"enqueued_at":"2026-11-28 02:00:00Z","started_at":"2026-11-28T02:00:01-00:00","ended_at":"2026-11-28T02:00:02.5Z","outcome":"interrupted","plan_valid":null,"failure":{"category":"c","retryable":false,"reason":"r","extra":1},"visible_chars":0,"budget_ms":100}`,
		`{"type":"tool_call","run_id":"rich","ts":"2026-11-28T02:00:03Z","call_id":"c","action_id":"a","attempt":3,"recovery":"query_status","recovery_of":"c0","tool":"t","tool_version":"1.25","tool_schema":"s","args_digest":"d","side_effect":"write","idempotency_key":"k","enqueued_at":"2026-11-28T02:00:02Z","started_at":"2026-11-28T02:00:02Z","ended_at":"2026-11-28T02:00:03Z","status":"partial","error":{"code":"E","category":"UNKNOWN_OUTCOME","retryable":true,"retry_after_ms":"100","side_effect_state":"unknown","message":"m"},"circuit":"half_open","source":{"name":"n","grade":"reprint","fallback":true},"evidence_ids":["e","2"],"completed_scope":[],"missing_scope":["x"]}`,
		`{"type":"model_call","run_id":"rich","ts":"2026-11-28T02:00:04Z","call_id":"m","role":"reviewer","stage_id":"s","enqueued_at":"2026-11-28T02:00:03Z","started_at":"2026-11-28T02:00:03Z","ended_at":"2026-11-28T02:00:04Z","outcome":"empty"}`,
		`{"type":"evidence","run_id":"rich","ts":"2026-11-28T02:00:05Z","evidence_id":"e","claim":"k","call_id":"c","grade":"cache","path":"degraded","status":"unsupported"}`,
		`{"type":"terminal","run_id":"rich","ts":"2026-11-28T02:00:06Z","terminal":"partial","reason":"safety_refusal","visible_chars":"10","chunks_committed":1,"chunks_rejected":0,"disclosed_gaps":true,"degradations":["tool","evidence","delivery","safety"]}`,
	)
}

// TestFastAndPrecisePathsAgree checks that a clean file is stored without
// the line-precise path, that a file with a bad line or a BOM is not stored
// by the fast path alone, and that all store the good lines identically.
func TestFastAndPrecisePathsAgree(t *testing.T) {
	ls := richLines(t)
	fast := openDB(t)
	res := ingestContent(t, fast, "clean.jsonl", lines(ls...))
	// Its few lines with unknown keys or integral fractions take the split
	// route (typed read for the rest), else the fast path takes it whole.
	if (!res.FastPath && !res.typedRead) || res.Accepted != int64(len(ls)) || res.Rejected != 0 {
		t.Fatalf("clean file: %+v, rejected %v", res, rejections(t, fast, res.Path))
	}
	want := storedEvents(t, fast)

	mid := len(ls) / 2
	variants := map[string]string{
		"bad line":      lines(slices.Concat(ls[:mid], []string{`{"type":"run"`}, ls[mid:])...),
		"BOM":           "\uFEFF" + lines(ls...),
		"NUL line":      lines(append(slices.Clone(ls), "\x00")...),
		"invalid UTF-8": lines(slices.Concat([]string{"\xc3\x28"}, ls)...),
	}
	for name, content := range variants {
		t.Run(name, func(t *testing.T) {
			db := openDB(t)
			res := ingestContent(t, db, "variant.jsonl", content)
			if res.FastPath || res.Accepted != int64(len(ls)) {
				t.Fatalf("%+v, rejected %v", res, rejections(t, db, res.Path))
			}
			if got := storedEvents(t, db); !slices.Equal(got, want) {
				for i := range got {
					if i < len(want) && got[i] != want[i] {
						t.Errorf("first difference:\n got %s\nwant %s", got[i], want[i])
						break
					}
				}
				t.Errorf("the line-precise path stored %d events differently from the fast path's %d", len(got), len(want))
			}
		})
	}
}

// TestInvalidUTF8AtReadBoundary puts an invalid UTF-8 sequence across the
// prescan's 1 MiB read boundary, where prescan cannot see it: the fast path
// must still refuse the file and the line-precise path reject the line.
func TestInvalidUTF8AtReadBoundary(t *testing.T) {
	head := lines(runLine)
	pad := with(toolLine, `"pad":"`)
	// Line 2 is pad + x... + 0xE2 'a' ...; 0xE2 is the last byte of the
	// first 1 MiB read.
	n := 1<<20 - 1 - len(head) - len(pad)
	line2 := pad + strings.Repeat("x", n) + "\xe2a\"}"
	content := head + line2 + "\n" + lines(terminalLine)
	if content[1<<20-1] != 0xe2 {
		t.Fatal("boundary misplaced")
	}
	db := openDB(t)
	res := ingestContent(t, db, "boundary.jsonl", content)
	if res.FastPath || res.Accepted != 2 {
		t.Errorf("result %+v", res)
	}
	if got := rejections(t, db, res.Path); !slices.Equal(got, []rejection{{2, "invalid UTF-8"}}) {
		t.Errorf("rejected %v", got)
	}
}

// TestOddFileNames checks that a file name is only ever data: quotes and
// template braces in it reach neither the SQL nor the statement templates.
func TestOddFileNames(t *testing.T) {
	db := openDB(t)
	for i, name := range []string{`it's.jsonl`, `{{rows}} {{checked}} {{source}}.jsonl`, `a'); DROP TABLE events; --.jsonl`, "spaces and ünïcode.jsonl"} {
		for _, content := range []string{lines(replace(runLine, "run_id", fmt.Sprintf(`"odd-%d"`, i))), lines(replace(stageLine, "run_id", fmt.Sprintf(`"odd-%d"`, i)), "[]")} {
			res := ingestContent(t, db, name, content)
			if res.Accepted != 1 || res.Path == "" {
				t.Errorf("%q: %+v", name, res)
			}
		}
	}
	if n := countRows(t, db, "events"); n != 8 {
		t.Errorf("events = %d, want 8", n)
	}
}
