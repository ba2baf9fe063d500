package testdb

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The samples are found from the module's root, named relative to the
// test's directory, and ingested whole: one files row each, with its path
// as given and every line of it accepted.
func TestSamples(t *testing.T) {
	if got, want := SamplePath(t, "baseline.jsonl"), filepath.Join("..", "..", "sample-traces", "baseline.jsonl"); got != want {
		t.Errorf("SamplePath = %q, want %q", got, want)
	}
	db := Samples(t)
	rows, err := db.Query("SELECT path, lines, accepted FROM files ORDER BY file_id")
	if err != nil {
		t.Fatal(err)
	}
	defer CloseOK(t, rows)
	type file struct {
		path            string
		lines, accepted int64
	}
	var got []file
	for rows.Next() {
		var f file
		if err := rows.Scan(&f.path, &f.lines, &f.accepted); err != nil {
			t.Fatal(err)
		}
		got = append(got, f)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := []file{
		{"../../sample-traces/baseline.jsonl", 2992, 2992},
		{"../../sample-traces/candidate.jsonl", 4003, 4003},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("files %+v, want %+v", got, want)
	}
}

// Files writes each text to its own file, in order, without the leading
// newlines.
func TestFiles(t *testing.T) {
	paths := Files(t, "\n\none\n", "two\n")
	if len(paths) != 2 || filepath.Base(paths[0]) != "fa.jsonl" || filepath.Base(paths[1]) != "fb.jsonl" {
		t.Fatalf("paths %v, want fa.jsonl and fb.jsonl", paths)
	}
	for i, want := range []string{"one\n", "two\n"} {
		b, err := os.ReadFile(paths[i])
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != want {
			t.Errorf("%s holds %q, want %q", paths[i], b, want)
		}
	}
}
