package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBadInputCorpus runs report over each file of testdata/corpus: bad
// input gets a clear one-line message naming the file and a non-zero exit
// where nothing can be read, and otherwise every line is accounted for
// (lines read = accepted + rejected + blank) with the bad ones named.
func TestBadInputCorpus(t *testing.T) {
	// A 10 MB line is made here rather than committed.
	long := filepath.Join(t.TempDir(), "ten_mb_line.jsonl")
	big := `{"type":"run","run_id":"r1","ts":"2026-11-28T02:00:00Z","suite":"s","started_at":"2026-11-28T02:00:00Z","pad":"` +
		strings.Repeat("x", 10<<20) + `"}` + "\n" +
		`{"type":"terminal","run_id":"r1","ts":"2026-11-28T02:00:05Z","terminal":"completed"}` + "\n"
	if err := os.WriteFile(long, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	corpus := func(name string) string { return filepath.Join("testdata", "corpus", name) }
	for _, c := range []struct {
		file   string
		exit   int
		stderr string // regexp that must match stderr
		reason string // a rejection reason faultlens rejected must list, if any
	}{
		{corpus("truncated.jsonl"), 0, `: 3 lines read = 2 events accepted \+ 1 rejected \+ 0 blank`, ":3: malformed json"},
		{corpus("no_final_newline.jsonl"), 0, `: 2 lines read = 2 events accepted \+ 0 rejected \+ 0 blank`, ""},
		{corpus("invalid_utf8.jsonl"), 0, `: 3 lines read = 2 events accepted \+ 1 rejected \+ 0 blank`, ":2: invalid UTF-8"},
		{corpus("nul.jsonl"), 0, `: 3 lines read = 2 events accepted \+ 1 rejected \+ 0 blank`, ":2: NUL byte in line"},
		{corpus("bom.jsonl"), 0, `: 2 lines read = 2 events accepted \+ 0 rejected \+ 0 blank`, ""},
		{corpus("crlf.jsonl"), 0, `: 3 lines read = 2 events accepted \+ 0 rejected \+ 1 blank`, ""},
		{long, 0, `: 2 lines read = 1 events accepted \+ 1 rejected \+ 0 blank`, ":1: line longer than 1048576 bytes"},
		{corpus("deep_nesting.jsonl"), 0, `: 2 lines read = 2 events accepted \+ 0 rejected \+ 0 blank`, ""},
		{corpus("number_for_string.jsonl"), 0, `: 2 lines read = 1 events accepted \+ 1 rejected \+ 0 blank`, ":2: wrong type for field call_id: expected string"},
		{corpus("string_for_number.jsonl"), 0, `: 2 lines read = 1 events accepted \+ 1 rejected \+ 0 blank`, ":2: wrong type for field attempt: expected integer"},
		{corpus("unknown_type.jsonl"), 0, `: 2 lines read = 1 events accepted \+ 1 rejected \+ 0 blank`, ":2: unknown type"},
		{corpus("missing_required.jsonl"), 0, `: 2 lines read = 1 events accepted \+ 1 rejected \+ 0 blank`, ":2: missing field action_id"},
		{corpus("same_event_twice.jsonl"), 0, `: 4 lines read = 3 events accepted \+ 1 rejected \+ 0 blank`, ":3: duplicate event \\(same call_id\\)"},
		{corpus("ts_without_zone.jsonl"), 0, `: 2 lines read = 1 events accepted \+ 1 rejected \+ 0 blank`, ":2: invalid timestamp ts"},
		{corpus("ts_invalid.jsonl"), 0, `: 2 lines read = 1 events accepted \+ 1 rejected \+ 0 blank`, ":2: invalid timestamp ts"},
		// An explicit input with no runs has nothing to report: exit 2 after
		// its accounting line.
		{corpus("empty.jsonl"), 2, `: 0 lines read = 0 events accepted \+ 0 rejected \+ 0 blank\nfaultlens: nothing to report: the input holds 0 runs`, ""},
		{corpus("nothing_here"), 2, `^faultlens: testdata/corpus/nothing_here: directory holds no trace files`, ""},
		{corpus("corrupt.jsonl.gz"), 2, `^faultlens: testdata/corpus/corrupt.jsonl.gz: corrupt gzip`, ""},
		{corpus("truncated.arrow"), 2, `^faultlens: testdata/corpus/truncated.arrow: truncated or corrupt Arrow IPC file`, ""},
		{corpus("corrupt.arrow"), 2, `^faultlens: testdata/corpus/corrupt.arrow: not an Arrow IPC file or stream`, ""},
		{corpus("corrupt_magic.arrow"), 2, `^faultlens: testdata/corpus/corrupt_magic.arrow: truncated or corrupt Arrow IPC file`, ""},
		{corpus("wrong_type.arrow"), 2, `^faultlens: testdata/corpus/wrong_type.arrow: column seq: Arrow type utf8 cannot hold an integer`, ""},
		{corpus("bad_row.arrows"), 0, `: 3 lines read = 2 events accepted \+ 1 rejected \+ 0 blank`, ":2: invalid value for stage"},
		{corpus("otlp_unknown_fields_huge_attrs.jsonl"), 0, `: 1 lines read = 1 span lines accepted \(1 events\) \+ 0 rejected \+ 0 blank`, ""},
	} {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Run(context.Background(), []string{"report", "--format", "json", c.file}, Streams{Out: &out, Err: &errb})
			if code != c.exit {
				t.Fatalf("exit %d, want %d; stderr: %s", code, c.exit, errb.String())
			}
			if !regexp.MustCompile(`(?m)` + c.stderr).Match(errb.Bytes()) {
				t.Errorf("stderr %q does not match %q", errb.String(), c.stderr)
			}
			if code != 0 {
				if n := strings.Count("\n"+strings.TrimSpace(errb.String()), "\nfaultlens:"); n != 1 {
					t.Errorf("%d error lines, want one: %q", n, errb.String())
				}
				return
			}
			if c.reason == "" {
				return
			}
			out.Reset()
			if code := Run(context.Background(), []string{"rejected", c.file}, Streams{Out: &out, Err: &bytes.Buffer{}}); code != 0 {
				t.Fatalf("rejected: exit %d", code)
			}
			if !regexp.MustCompile(regexp.QuoteMeta(filepath.Base(c.file)) + c.reason).Match(out.Bytes()) {
				t.Errorf("faultlens rejected does not list %q:\n%s", c.reason, out.String())
			}
		})
	}
}
