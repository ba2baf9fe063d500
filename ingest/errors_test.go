package ingest

import (
	"errors"
	"testing"
	"time"

	"github.com/faultlens/faultlens/store"
)

// A full disk while storing a file is the machine's fault, not the file's:
// the error ingest returns is typed (store.ErrDiskFull) and holds no
// *InputError, so that neither the CLI nor a receiver reads it as bad
// input; a file's own error stays an *InputError.
func TestEnvironmentIsNotInputError(t *testing.T) {
	full := &InputError{Path: "a.jsonl", Err: errors.New(`Failed to commit: Could not write file "/d/t.duckdb.wal": No space left on device`)}
	err := environment(full)
	var in *InputError
	if !errors.Is(err, store.ErrDiskFull) || errors.As(err, &in) {
		t.Fatalf("got %v (InputError %v)", err, errors.As(err, &in))
	}
	if err.Error() != full.Err.Error() {
		t.Errorf("message %q", err)
	}
	bad := &InputError{Path: "a.jsonl", Line: 3, Err: errors.New("malformed json")}
	if environment(bad) != bad {
		t.Error("the file's own error must stay as it is")
	}
	if _, err := finish(FileResult{}, full.Err, "a.jsonl", time.Now()); !errors.Is(err, store.ErrDiskFull) || errors.As(err, &in) ||
		err.Error() != "a.jsonl: "+full.Err.Error() {
		t.Errorf("finish: %v", err)
	}
}
