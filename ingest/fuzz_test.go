package ingest

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzIngestLine feeds arbitrary bytes to ingest as a file (a .jsonl.gz when
// they start with the gzip magic) and checks that it never panics, fails
// only with an *InputError naming the file (and a plain file never fails),
// counts lines and blank lines exactly, balances its accounting and stores
// exactly what it counts.
func FuzzIngestLine(f *testing.F) {
	for _, l := range goodLines {
		f.Add([]byte(l + "\n"))
	}
	// The bad lines in groups: each seed costs a file's ingest on every
	// go test run.
	for i := 0; i < len(badLineCases); i += 12 {
		var ls []string
		for _, c := range badLineCases[i:min(i+12, len(badLineCases))] {
			ls = append(ls, c.line, runLine)
		}
		f.Add([]byte(lines(ls...)))
	}
	for _, s := range []string{
		"", "\n", "\r\n", " \t\r\n", "\uFEFF" + runLine, "\uFEFF\n", runLine, runLine + "\r",
		strings.Join(goodLines, "\r\n"), runLine + "\r" + toolLine, "[1]\n42\nnull\n\"x\"\n",
		"{\n}\n", "\x00", "\xff\xfe", "{\"a\":1,}\n", "{\"a\":NaN}\n", "\v\n\f\n",
		with(runLine, `"x":{"y":[1,{"z":null}]}`) + "\n",
		lines(richLines(f)[300:]...),
	} {
		f.Add([]byte(s))
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if _, err := zw.Write([]byte(lines(goodLines...))); err != nil {
		f.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		f.Fatal(err)
	}
	f.Add(gz.Bytes())
	f.Add(gz.Bytes()[:gz.Len()/2])

	db := openDB(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		name := "in.jsonl"
		gzipped := bytes.HasPrefix(data, []byte{0x1f, 0x8b})
		if gzipped {
			name = "in.jsonl.gz"
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		before := [3]int64{countRows(t, db, "files"), countRows(t, db, "events"), countRows(t, db, "rejected_lines")}
		res, err := File(context.Background(), db, p, Options{})
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) || ie.Path != p {
				t.Fatalf("err = %v (%T), want an *InputError for %s", err, err, p)
			}
			if !gzipped {
				t.Fatalf("a plain file failed: %v", err)
			}
			return
		}
		content := data
		if gzipped {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("ingest read a gzip that does not open: %v", err)
			}
			if content, err = io.ReadAll(zr); err != nil {
				t.Fatalf("ingest read a gzip that does not decompress: %v", err)
			}
		}
		if res.Duplicate != "" {
			return
		}
		wantLines, wantBlank := countLines(content)
		if res.Lines != wantLines || res.Blank != wantBlank {
			t.Errorf("lines %d, blank %d; want %d, %d", res.Lines, res.Blank, wantLines, wantBlank)
		}
		if res.Lines != res.Accepted+res.Rejected+res.Blank {
			t.Errorf("unbalanced: %+v", res)
		}
		if res.FastPath && res.Rejected != 0 {
			t.Errorf("fast path with rejected lines: %+v", res)
		}
		after := [3]int64{countRows(t, db, "files"), countRows(t, db, "events"), countRows(t, db, "rejected_lines")}
		if after[0] != before[0]+1 || after[1] != before[1]+res.Accepted || after[2] != before[2]+res.Rejected {
			t.Errorf("tables went from %v to %v for %+v", before, after, res)
		}
	})
}

// countLines is an independent statement of the line accounting: lines end
// with "\n" (a last line may lack it); a line is blank when, without its
// line ending and, on line 1, a UTF-8 BOM, it holds only spaces, tabs and
// carriage returns.
func countLines(b []byte) (lines, blank int64) {
	if len(b) == 0 {
		return 0, 0
	}
	ls := bytes.Split(b, []byte("\n"))
	if len(ls[len(ls)-1]) == 0 {
		ls = ls[:len(ls)-1]
	}
	for i, l := range ls {
		if i == 0 {
			l = bytes.TrimPrefix(l, []byte("\uFEFF"))
		}
		if len(bytes.Trim(l, " \t\r")) == 0 {
			blank++
		}
	}
	return int64(len(ls)), blank
}
