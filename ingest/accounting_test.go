package ingest

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestAccounting checks the line accounting, the load path taken and the
// rejected lines for files of every shape: line endings, blank lines, a BOM,
// a last line without newline, an over-long line.
func TestAccounting(t *testing.T) {
	bom := "\uFEFF"
	long := with(toolLine, `"pad":"`+strings.Repeat("x", MaxLineBytes)+`"`)
	// A valid event exactly MaxLineBytes long.
	fit := with(toolLine, `"pad":"`)
	fit = fit + strings.Repeat("y", MaxLineBytes-len(fit)-2) + `"}`
	cases := []struct {
		name    string
		content string
		lines   int64
		blank   int64
		fast    bool
		rejects []rejection
	}{
		{"clean", lines(goodLines...), 6, 0, true, nil},
		{"empty file", "", 0, 0, true, nil},
		{"only blank lines", "\n \n\t\n", 3, 3, true, nil},
		{"last line without newline", strings.Join(goodLines, "\n"), 6, 0, true, nil},
		{"CRLF line endings", strings.Join(goodLines, "\r\n") + "\r\n", 6, 0, true, nil},
		{"CRLF with blank CRLF lines", runLine + "\r\n\r\n" + stageLine + "\r\n \r\n", 4, 2, true, nil},
		{"blank and whitespace-only lines", "\n" + runLine + "\n   \n\t\n" + stageLine + "\n \t \n", 6, 4, true, nil},
		{"whitespace around an object", "  " + runLine + "\t\n", 1, 0, true, nil},
		{"BOM on line 1", bom + lines(goodLines...), 6, 0, false, nil},
		{"BOM alone on line 1", bom + "\n" + lines(goodLines...), 7, 1, false, nil},
		{"BOM and CRLF", bom + strings.Join(goodLines, "\r\n"), 6, 0, false, nil},
		{"truncated last line without newline", lines(runLine, stageLine) + `{"type":"terminal","run_id":"r1"`, 3, 0, false,
			[]rejection{{3, "malformed json"}}},
		{"bad last line with CRLF", runLine + "\r\n" + "[1]\r\n", 2, 0, false, []rejection{{2, "not a JSON object"}}},
		{"over-long line", lines(runLine, long, stageLine), 3, 0, false,
			[]rejection{{2, "line longer than 1048576 bytes"}}},
		{"over-long last line without newline", lines(runLine) + long, 2, 0, false,
			[]rejection{{2, "line longer than 1048576 bytes"}}},
		{"line of exactly MaxLineBytes", lines(runLine, fit, stageLine), 3, 0, true, nil},
		{"line of exactly MaxLineBytes with CRLF", runLine + "\r\n" + fit + "\r\n", 2, 0, false, nil},
		{"over-long blank line", lines(runLine, strings.Repeat(" ", MaxLineBytes+10), stageLine), 3, 1, false, nil},
		{"many bad lines", lines("{", runLine, "", "42", stageLine, "\x00", "{\"type\":\"run\"}", "\xff"), 8, 1, false,
			[]rejection{{1, "malformed json"}, {4, "not a JSON object"}, {6, "NUL byte in line"}, {7, "missing field run_id"}, {8, "invalid UTF-8"}}},
		{"only bad lines", "x\ny\n", 2, 0, false, []rejection{{1, "malformed json"}, {2, "malformed json"}}},
		{"lone CR is not a line break", runLine + "\r" + stageLine + "\n", 1, 0, false, []rejection{{1, "malformed json"}}},
	}
	if len(fit) != MaxLineBytes {
		t.Fatalf("fit is %d bytes", len(fit))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := openDB(t)
			res := ingestContent(t, db, "f.jsonl", tc.content)
			rejected := int64(len(tc.rejects))
			accepted := tc.lines - tc.blank - rejected
			if res.Lines != tc.lines || res.Blank != tc.blank || res.Rejected != rejected || res.Accepted != accepted {
				t.Errorf("lines/blank/rejected/accepted = %d/%d/%d/%d, want %d/%d/%d/%d",
					res.Lines, res.Blank, res.Rejected, res.Accepted, tc.lines, tc.blank, rejected, accepted)
			}
			if res.FastPath != tc.fast {
				t.Errorf("FastPath = %v, want %v", res.FastPath, tc.fast)
			}
			if got := rejections(t, db, res.Path); !slices.Equal(got, tc.rejects) {
				t.Errorf("rejected %v, want %v", got, tc.rejects)
			}
			if n := countRows(t, db, "events"); n != accepted {
				t.Errorf("events table holds %d rows, want %d", n, accepted)
			}
			if res.Bytes != int64(len(tc.content)) {
				t.Errorf("Bytes = %d, want %d", res.Bytes, len(tc.content))
			}
		})
	}
}

// TestTotals checks that duplicates count as skipped files, not lines.
func TestTotals(t *testing.T) {
	rs := []FileResult{
		{Lines: 5, Accepted: 3, Rejected: 1, Blank: 1},
		{Duplicate: "a.jsonl"},
		{Lines: 2, Accepted: 2},
	}
	tot, files, dups := Totals(rs)
	if files != 2 || dups != 1 || tot.Lines != 7 || tot.Accepted != 5 || tot.Rejected != 1 || tot.Blank != 1 {
		t.Errorf("Totals = %+v, %d files, %d duplicates", tot, files, dups)
	}
}

// TestOverlongLineNotHeldWhole ingests a 48 MiB line and checks that it is
// rejected with its line number while Go allocates far less than the line:
// neither the prescan nor the splitter holds it whole.
func TestOverlongLineNotHeldWhole(t *testing.T) {
	const size = 48 << 20
	p := filepath.Join(t.TempDir(), "huge.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	must := func(_ int, err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(f.WriteString(runLine + "\n" + `{"type":"run","pad":"`))
	chunk := bytes.Repeat([]byte("x"), 1<<20)
	for i := 0; i < size>>20; i++ {
		must(f.Write(chunk))
	}
	must(f.WriteString("\"}\n" + stageLine + "\n"))
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	db := openDB(t)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := ingestPath(t, db, p)
	runtime.ReadMemStats(&after)
	if res.Lines != 3 || res.Accepted != 2 || res.Rejected != 1 {
		t.Errorf("result %+v", res)
	}
	if got := rejections(t, db, p); !slices.Equal(got, []rejection{{2, "line longer than 1048576 bytes"}}) {
		t.Errorf("rejected %v", got)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %.1f MiB for a %d MiB line", float64(alloc)/(1<<20), size>>20)
	if alloc > size/4 {
		t.Errorf("ingest allocated %d MiB for a %d MiB line", alloc>>20, size>>20)
	}
	var kept int
	if err := db.QueryRow("SELECT max(length(text)) FROM rejected_lines").Scan(&kept); err != nil || kept > maxRejectText {
		t.Errorf("kept %d bytes of the line (%v)", kept, err)
	}
}
