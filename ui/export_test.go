package ui

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// e on the runs view writes every run of its filter (65 masked runs, not
// the rows on screen) in the format picked, to the path it showed.
func TestExportRows(t *testing.T) {
	db := sampleDB(t)
	dir := t.TempDir()
	for _, c := range []struct{ key, ext string }{{"c", "csv"}, {"j", "json"}, {"m", "md"}} {
		m, out := settleWith(t, Options{DB: db}, 100, 30, press("4"), press("m"), waitMsg{}, press("e"), press(c.key))
		if !strings.Contains(out, "write "+strings.ToUpper(c.ext)+" to ") || !strings.HasSuffix(m.exp.path, "."+c.ext) {
			t.Fatalf("the path is not shown before writing:\n%s", out)
		}
		m.sh.opts.ExportDir = dir
		m.exp.path = filepath.Join(dir, "runs."+c.ext)
		m, out = resumeWith(t, m, press("enter"))
		if !strings.Contains(out, "exported 65 rows to "+m.sh.opts.ExportDir) {
			t.Fatalf("no confirmation:\n%s", out)
		}
		data, err := os.ReadFile(filepath.Join(dir, "runs."+c.ext))
		if err != nil {
			t.Fatal(err)
		}
		switch c.ext {
		case "csv":
			recs, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
			if err != nil || len(recs) != 66 || recs[0][0] != "run_id" || recs[1][6] != "true" {
				t.Fatalf("csv: %d records, err %v", len(recs), err)
			}
		case "json":
			var rows []map[string]string
			if err := json.Unmarshal(data, &rows); err != nil || len(rows) != 65 || rows[0]["masked"] != "true" {
				t.Fatalf("json: %d rows, err %v", len(rows), err)
			}
		case "md":
			if n := strings.Count(string(data), "\n"); n != 67 || strings.Contains(string(data), "> ") {
				t.Fatalf("markdown: %d lines\n%s", n, data)
			}
		}
	}
	// esc closes the prompt and writes nothing; a view without a list says so.
	m, _ := settle(t, db, "4", "e", "esc")
	if m.exp.open || m.sh.status != "export cancelled" {
		t.Fatalf("esc: open %v status %q", m.exp.open, m.sh.status)
	}
	m, _ = settle(t, db, "e")
	if m.exp.open || !strings.HasPrefix(m.sh.status, "nothing to export here") {
		t.Fatalf("e on the overview: %q", m.sh.status)
	}
}

// Cells from traces cannot run as spreadsheet formulas or break a
// Markdown table.
func TestExportCellsUntrusted(t *testing.T) {
	tb := table{cols: []string{"a", "b"}, rows: [][]string{{"=HYPERLINK(\"x\")", "a|b\nc"}, {"-3.5", "\x1b[31mred"}}}
	c, err := encodeTable(tb, "csv")
	if err != nil || !strings.Contains(string(c), `"'=HYPERLINK(""x"")"`) || !strings.Contains(string(c), "\n-3.5,") || strings.Contains(string(c), "\x1b") {
		t.Fatalf("csv:\n%q %v", c, err)
	}
	md, err := encodeTable(tb, "md")
	if err != nil || !strings.Contains(string(md), `a\|b c`) || strings.Count(string(md), "\n") != 4 {
		t.Fatalf("markdown:\n%s %v", md, err)
	}
}
