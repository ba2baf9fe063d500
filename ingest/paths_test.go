package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tree makes files (relative paths) under a fresh directory and returns it.
func tree(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(lines(runLine)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestExpand(t *testing.T) {
	dir := tree(t, "b.jsonl", "a.ndjson", "notes.txt", "sub/c.jsonl.gz", "sub/deeper/d.JSONL", "sub/e.json", "sub/f.arrow", "README.md")
	j := func(p ...string) string { return filepath.Join(append([]string{dir}, p...)...) }
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"directory, recursive and sorted, trace files only", []string{dir},
			[]string{j("a.ndjson"), j("b.jsonl"), j("sub/c.jsonl.gz"), j("sub/deeper/d.JSONL"), j("sub/e.json"), j("sub/f.arrow")}},
		{"a file named explicitly is read whatever its name", []string{j("notes.txt")}, []string{j("notes.txt")}},
		{"files keep argument order", []string{j("b.jsonl"), j("a.ndjson")}, []string{j("b.jsonl"), j("a.ndjson")}},
		{"glob", []string{j("*.jsonl")}, []string{j("b.jsonl")}},
		{"glob over directories", []string{j("s*")}, []string{j("sub/c.jsonl.gz"), j("sub/deeper/d.JSONL"), j("sub/e.json"), j("sub/f.arrow")}},
		{"duplicates removed", []string{j("b.jsonl"), dir, j("*.jsonl")},
			[]string{j("b.jsonl"), j("a.ndjson"), j("sub/c.jsonl.gz"), j("sub/deeper/d.JSONL"), j("sub/e.json"), j("sub/f.arrow")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Expand(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Expand(%q)\n got %q\nwant %q", tc.args, got, tc.want)
			}
		})
	}
}

func TestExpandErrors(t *testing.T) {
	empty := tree(t, "notes.txt", "sub/readme.md")
	good := tree(t, "a.jsonl")
	cases := []struct {
		name string
		args []string
		path string // the path the error must name
		msg  string // and a word of its message
	}{
		{"missing file", []string{filepath.Join(good, "missing.jsonl")}, filepath.Join(good, "missing.jsonl"), "no such file"},
		{"missing after a good one", []string{filepath.Join(good, "a.jsonl"), filepath.Join(good, "gone.jsonl")}, filepath.Join(good, "gone.jsonl"), "no such file"},
		{"directory without trace files", []string{empty}, empty, "no trace files"},
		{"empty directory", []string{t.TempDir() + "/"}, "", "no trace files"},
		{"glob matching nothing", []string{filepath.Join(good, "*.ndjson")}, filepath.Join(good, "*.ndjson"), "matches no file"},
		{"glob in a missing directory", []string{"/nonexistent-faultlens/*.jsonl"}, "/nonexistent-faultlens/*.jsonl", "matches no file"},
		{"bad pattern", []string{filepath.Join(good, "[.jsonl")}, filepath.Join(good, "[.jsonl"), "bad pattern"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Expand(tc.args)
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("Expand(%q) = %q, %v; want an *InputError", tc.args, got, err)
			}
			want := tc.path
			if want == "" {
				want = tc.args[0]
			}
			if ie.Path != want || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q (path %q), want it to name %q and say %q", err, ie.Path, want, tc.msg)
			}
		})
	}
}

func TestIsTraceFile(t *testing.T) {
	for name, want := range map[string]bool{
		"a.jsonl": true, "A.JSONL": true, "a.ndjson": true, "a.jsonl.gz": true, "a.ndjson.gz": true,
		"a.json": true, "a.json.gz": true, "a.arrow": true, "a.arrows": true, "a.feather": true,
		"a.txt": false, "a.gz": false, "jsonl": false, "a.jsonl.bak": false,
	} {
		if got := IsTraceFile(name); got != want {
			t.Errorf("IsTraceFile(%q) = %v, want %v", name, got, want)
		}
	}
}
