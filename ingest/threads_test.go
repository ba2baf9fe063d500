package ingest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/store"
)

func TestParseDuckDBSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"244.1 MiB", 255957401, true},
		{"1.4 GiB", 1503238553, true},
		{"512 bytes", 512, true},
		{"2.0 KB", 2000, true},
		{"", 0, false},
		{"-1 MiB", 0, false},
		{"12 parsecs", 0, false},
	} {
		got, ok := parseDuckDBSize(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseDuckDBSize(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestIngestUnderMemoryLimit ingests 20,000 generated events (one clean
// file, and the same with every 100th line broken so that the line-precise
// path runs) under a 192 MB limit with two DuckDB threads: the validation
// of two threads does not fit (both files failed with "Out of Memory"
// before boundThreads), one does. The thread count is restored after.
func TestIngestUnderMemoryLimit(t *testing.T) {
	dir := t.TempDir()
	clean := filepath.Join(dir, "clean.jsonl")
	f, err := os.Create(clean)
	if err != nil {
		t.Fatal(err)
	}
	if err := generateTrace(f, 20000, 1); err != nil {
		t.Fatal(err)
	}
	closeQuietly(f)
	bad := filepath.Join(dir, "bad.jsonl")
	breakEvery(t, clean, bad, 100)
	for _, tc := range []struct {
		path     string
		rejected int64
	}{{clean, 0}, {bad, 200}} {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			ctx := context.Background()
			db, err := store.Open(ctx, filepath.Join(t.TempDir(), "m.db"),
				store.Limits{MemoryLimit: "192MB", Threads: 2, TempDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer closeQuietly(db)
			res, err := File(ctx, db, tc.path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Lines != 20000 || res.Rejected != tc.rejected || res.Accepted != 20000-tc.rejected {
				t.Errorf("result %+v, want 20000 lines, %d rejected", res, tc.rejected)
			}
			var threads int
			if err := db.QueryRow("SELECT current_setting('threads')").Scan(&threads); err != nil || threads != 2 {
				t.Errorf("threads after the ingest = %d (%v), want 2 again", threads, err)
			}
		})
	}
}

// breakEvery copies src to dst with every nth line replaced by "{bad".
func breakEvery(t *testing.T, src, dst string, n int) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	for i := n - 1; i < len(lines); i += n {
		lines[i] = "{bad\n"
	}
	if err := os.WriteFile(dst, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// FuzzParseDuckDBSize: any text is read without a panic, and a size is
// positive whenever one is returned.
func FuzzParseDuckDBSize(f *testing.F) {
	for _, s := range []string{"244.1 MiB", "1.4 GiB", "512 bytes", "", "NaN MiB", "1e400 GiB", "-0 KB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n, ok := parseDuckDBSize(s); ok && n <= 0 {
			t.Errorf("parseDuckDBSize(%q) = %d, true; want a positive size", s, n)
		}
	})
}
