package export

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/internal/golden"
	"github.com/faultlens/faultlens/internal/testdb"
)

// handbuilt is a fixture written by hand: two suites (night-a with every
// event type and nested object, night-b), an event of a run without run
// event (z9), a timestamp with a zone offset, fractions of a second from
// none to microseconds, strings that need escaping, an unknown field, a
// blank line and two rejected lines.
const handbuilt = "testdata/handbuilt.jsonl"

// handbuiltEvents is how many events of handbuilt are accepted (8 of run
// a1, 3 of b1, 1 of z9).
const handbuiltEvents = 12

// exported writes db's events to a temporary file and returns its bytes
// and the count Write returned.
func exported(t *testing.T, db *sql.DB, o Options) ([]byte, int64) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "export."+o.Format)
	n, err := Write(context.Background(), db, out, o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b, n
}

// TestJSONLRows checks the exact JSON Lines export of the fixture (the
// golden file), and the properties the golden file is meant to hold.
func TestJSONLRows(t *testing.T) {
	got, n := exported(t, testdb.Load(t, handbuilt), Options{Format: "jsonl"})
	if n != handbuiltEvents {
		t.Errorf("Write returned %d, want %d", n, handbuiltEvents)
	}
	golden.Check(t, "testdata/handbuilt.export.jsonl", got)

	lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	if len(lines) != handbuiltEvents {
		t.Fatalf("%d lines, want %d", len(lines), handbuiltEvents)
	}
	// +02:00 is converted to UTC, microseconds always written; rows come
	// in ingest order, the file's, so the orphan z9 is last.
	if want := `{"type":"run","run_id":"a1","ts":"2026-11-28T02:00:00.000000Z","seq":1,"schema_version":1,"suite":"night-a",`; !strings.HasPrefix(lines[0], want) {
		t.Errorf("first line %s\nwant it to start %s", lines[0], want)
	}
	if want := `{"type":"tool_call","run_id":"z9","ts":"2026-11-28T05:00:00.000000Z","started_at":"2026-11-28T04:59:59.000000Z",`; !strings.HasPrefix(lines[11], want) {
		t.Errorf("last line %s\nwant it to start %s", lines[11], want)
	}
	for _, absent := range []string{":null", `"vendor"`, "mystery"} {
		if strings.Contains(string(got), absent) {
			t.Errorf("the export holds %s", absent)
		}
	}
	if want := `"ts":"2026-11-28T02:00:07.000001Z"`; !strings.Contains(lines[4], want) {
		t.Errorf("line 5 lacks %s: %s", want, lines[4])
	}
	if want := `"claim":"price is 12 € — \"list\"\tprice"`; !strings.Contains(lines[5], want) {
		t.Errorf("line 6 lacks %s: %s", want, lines[5])
	}
}

// TestSuiteFilter: --suite keeps exactly the events of that suite's runs,
// in the same order and form as the whole export; a suite that is not
// there gives an empty file (and its quote does not break the SQL).
func TestSuiteFilter(t *testing.T) {
	db := testdb.Load(t, handbuilt)
	all, _ := exported(t, db, Options{Format: "jsonl"})
	for _, c := range []struct {
		suite, run string
		n          int64
	}{
		{"night-a", "a1", 8},
		{"night-b", "b1", 3},
		{"o'brien", "", 0},
	} {
		got, n := exported(t, db, Options{Format: "jsonl", Suite: c.suite})
		if n != c.n {
			t.Errorf("suite %s: Write returned %d, want %d", c.suite, n, c.n)
		}
		var want bytes.Buffer
		for _, line := range bytes.SplitAfter(all, []byte("\n")) {
			// The event's own run_id, followed by ts (caused_by.run_id of b1 is a1 too).
			if c.run != "" && bytes.Contains(line, []byte(`"run_id":"`+c.run+`","ts"`)) {
				want.Write(line)
			}
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("suite %s exported:\n%s\nwant the %s lines of the whole export:\n%s", c.suite, got, c.run, want.Bytes())
		}
	}
}

// TestBadPath: an output that cannot be written is an error that names it,
// for every format, and Write reports no events written.
func TestBadPath(t *testing.T) {
	db := testdb.Load(t, handbuilt)
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "no-such-dir", "out")
	for _, c := range []struct {
		name, out string
		o         Options
	}{
		{"jsonl", missing, Options{Format: "jsonl"}},
		{"parquet", missing, Options{Format: "parquet"}},
		{"arrow", missing, Options{Format: "arrow"}},
		{"otlp", missing, Options{Format: "otlp"}},
		{"parquet by suite", filepath.Join(file, "export"), Options{Format: "parquet", BySuite: true}},
	} {
		n, err := Write(context.Background(), db, c.out, c.o)
		if err == nil || !strings.Contains(err.Error(), c.out) {
			t.Errorf("%s to %s: error %v, want one naming the path", c.name, c.out, err)
		}
		if n != 0 {
			t.Errorf("%s: Write returned %d events on an error", c.name, n)
		}
	}
}

func TestUnknownFormat(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.csv")
	n, err := Write(context.Background(), testdb.Load(t, handbuilt), out, Options{Format: "csv"})
	if err == nil || err.Error() != `export: unknown format "csv"` || n != 0 {
		t.Errorf("Write = %d, %v; want 0, export: unknown format \"csv\"", n, err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("an unknown format left a file behind (stat: %v)", err)
	}
}
