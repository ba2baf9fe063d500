package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	// Linked for TestSharedUpdateFlag: the dashboard's tests use it
	// through teatest, and it registers -update too.
	xgolden "github.com/charmbracelet/x/exp/golden"
)

// recorder is a testing.TB that records failures instead of reporting
// them, so that the helper's failing paths can be asserted. Fatalf stops
// the goroutine as testing.T's does.
type recorder struct {
	testing.TB
	errors []string
	fatal  bool
}

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return "TestX" }
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	r.fatal = true
	runtime.Goexit()
}

// run calls check on a recorder in its own goroutine (Fatalf ends it).
func run(path string, got string, update bool) *recorder {
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(r, path, []byte(got), update)
	}()
	<-done
	return r
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestMatchPassesAndRemovesStaleGot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.golden")
	write(t, path, "one\ntwo\n")
	write(t, path+".got", "left by an earlier failure")
	if r := run(path, "one\ntwo\n", false); len(r.errors) != 0 {
		t.Fatalf("equal output failed: %q", r.errors)
	}
	if _, err := os.Stat(path + ".got"); !os.IsNotExist(err) {
		t.Errorf("stale .got still there (stat: %v)", err)
	}
}

func TestMismatchFailsWithDiffAndKeepsGot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.golden")
	write(t, path, "one\ntwo\nthree\n")
	r := run(path, "one\n2\nthree\n", false)
	if r.fatal || len(r.errors) != 1 {
		t.Fatalf("errors = %q (fatal %v), want one non-fatal", r.errors, r.fatal)
	}
	msg := r.errors[0]
	for _, want := range []string{path + " differs", "-two\n", "+2\n", " one\n", "go test -run 'TestX' -update"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if got := read(t, path+".got"); got != "one\n2\nthree\n" {
		t.Errorf(".got holds %q", got)
	}
	if got := read(t, path); got != "one\ntwo\nthree\n" {
		t.Errorf("the golden file changed without -update: %q", got)
	}
}

func TestMissingGoldenIsFatal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.golden")
	r := run(path, "x", false)
	if !r.fatal || len(r.errors) != 1 || !strings.Contains(r.errors[0], "none.golden") || !strings.Contains(r.errors[0], "-update writes it") {
		t.Errorf("errors = %q (fatal %v)", r.errors, r.fatal)
	}
}

func TestUpdateWritesTheGoldenFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new", "a.golden")
	r := run(path, "fresh\n", true)
	if len(r.errors) != 0 {
		t.Fatalf("update failed: %q", r.errors)
	}
	if got := read(t, path); got != "fresh\n" {
		t.Errorf("golden file holds %q", got)
	}
}

// A golden file that could not be rewritten must fail the test, not pass
// silently with the old content.
func TestUpdateWriteErrorFails(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.golden")
	if err := os.Mkdir(path, 0o755); err != nil { // a directory where the file should be
		t.Fatal(err)
	}
	r := run(path, "x", true)
	if !r.fatal || len(r.errors) != 1 || !strings.Contains(r.errors[0], "rewriting "+path) {
		t.Errorf("errors = %q (fatal %v), want one fatal naming %s", r.errors, r.fatal, path)
	}
}

func TestDiffIsCut(t *testing.T) {
	var want, got strings.Builder
	for i := range 200 {
		fmt.Fprintf(&want, "line %d\n", i)
		fmt.Fprintf(&got, "LINE %d\n", i)
	}
	d := Diff("w", "g.got", []byte(want.String()), []byte(got.String()))
	if n := strings.Count(d, "\n"); n != maxDiffLines+1 {
		t.Errorf("diff has %d lines, want %d", n, maxDiffLines+1)
	}
	if !strings.HasSuffix(d, "… (diff cut; see g.got)\n") {
		t.Errorf("diff does not say it was cut: %q", d[len(d)-60:])
	}
	if Diff("w", "g", []byte("same\n"), []byte("same\n")) != "" {
		t.Error("equal inputs give a diff")
	}
}

// The flag is registered once, under the name x/exp/golden uses, and
// Update reads it.
func TestUpdateFlag(t *testing.T) {
	f := flag.Lookup(flagName)
	if f == nil {
		t.Fatal("-update is not registered")
	}
	old := f.Value.String()
	t.Cleanup(func() {
		if err := f.Value.Set(old); err != nil {
			t.Error(err)
		}
	})
	for _, v := range []string{"true", "false"} {
		if err := f.Value.Set(v); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(Update()); got != v {
			t.Errorf("-update=%s: Update() = %s", v, got)
		}
	}
}

// A test binary that links x/exp/golden too (imported by this file, so
// initialised first) does not panic on a second -update: this package
// reads the flag x/exp/golden registered, and the two agree.
func TestSharedUpdateFlag(t *testing.T) {
	_ = xgolden.RequireEqual[string] // linked, never called
	f := flag.Lookup(flagName)
	if f == nil || f.Usage != "update .golden files" {
		t.Fatalf("-update is not the flag x/exp/golden registered: %+v", f)
	}
	old := f.Value.String()
	t.Cleanup(func() {
		if err := f.Value.Set(old); err != nil {
			t.Error(err)
		}
	})
	if err := f.Value.Set("true"); err != nil {
		t.Fatal(err)
	}
	if !Update() {
		t.Error("Update() is false with x/exp/golden's -update set")
	}
}
