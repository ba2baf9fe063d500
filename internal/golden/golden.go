// Package golden compares a test's output with a golden file: the one
// helper the tests of report, compare, export, otlp and simulate (the
// bundled sample-traces/) use, and the -update flag that the cli's
// testscripts honour too.
//
//	go test ./report -update   # rewrite the golden files with what the tests produce
//
// On a mismatch the test fails with a unified diff (golden → got) and the
// whole output is kept beside the golden file as NAME.got (ignored by git),
// so a large difference can be looked at with any diff tool; a .got left
// by an earlier failure is removed once the output matches again. With
// -update the golden file is written, and a failed write fails the test:
// a golden file that was not rewritten must not pass for one that was.
//
// The dashboard's tests (package ui) keep teatest's mechanism,
// github.com/charmbracelet/x/exp/golden, which names its files after the
// test and escapes control sequences before comparing. That package
// defines the same -update flag; this one defines it only when nothing
// else has, and reads whichever is registered, so `go test ./... -update`
// means one thing everywhere. (Go initialises imported packages in import
// path order, so x/exp/golden, under github.com/charmbracelet, registers
// first in a test binary that links both.)
package golden

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"
)

// flagName is the flag shared with github.com/charmbracelet/x/exp/golden.
const flagName = "update"

// maxDiffLines bounds the diff printed in the test log; the .got file
// holds the rest.
const maxDiffLines = 80

func init() {
	if flag.Lookup(flagName) == nil {
		flag.Bool(flagName, false, "rewrite the golden files with the output the tests produce")
	}
}

// Update reports whether the tests run with -update, that is whether golden
// files are to be rewritten rather than compared.
func Update() bool {
	f := flag.Lookup(flagName)
	if f == nil {
		return false
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return false
	}
	on, _ := g.Get().(bool) // a flag of another type named update is not ours: off
	return on
}

// Check compares got with the golden file at path (relative to the test's
// package directory, usually under testdata/). With -update it writes got
// to path instead.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	check(t, path, got, Update())
}

// check is Check with the mode given, so that both modes can be tested
// without setting a process-wide flag.
func check(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	gotPath := path + ".got"
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatalf("golden: %v", err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("golden: rewriting %s: %v", path, err)
		}
		removeStale(t, gotPath)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden: %v (go test -run '%s' -update writes it)", err, t.Name())
	}
	if bytes.Equal(got, want) {
		removeStale(t, gotPath)
		return
	}
	if err := os.WriteFile(gotPath, got, 0o644); err != nil {
		t.Errorf("golden: keeping the output: %v", err)
	}
	t.Errorf("%s differs from the output (all of it in %s; go test -run '%s' -update accepts it):\n%s",
		path, gotPath, t.Name(), Diff(path, gotPath, want, got))
}

// Diff returns a unified diff from want to got, labelled with the two
// names, cut after maxDiffLines lines. It is "" when they are equal.
func Diff(wantName, gotName string, want, got []byte) string {
	d := udiff.Unified(wantName, gotName, string(want), string(got))
	lines := strings.SplitAfter(d, "\n")
	if len(lines) <= maxDiffLines {
		return d
	}
	return strings.Join(lines[:maxDiffLines], "") + "… (diff cut; see " + gotName + ")\n"
}

// removeStale deletes the .got file an earlier mismatch left.
func removeStale(t testing.TB, gotPath string) {
	t.Helper()
	if err := os.Remove(gotPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("golden: removing the stale %s: %v", gotPath, err)
	}
}
