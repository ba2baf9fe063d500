package ingest

import (
	"errors"
	"fmt"

	"github.com/faultlens/faultlens/store"
)

// InputError is a problem with one input file or argument: missing,
// unreadable, corrupt, or holding nothing ingest can read. The command layer
// maps it to the usage/input exit code.
type InputError struct {
	Path string // the file or argument at fault
	Line int64  // 1-based line, 0 when the error is not about one line
	Err  error
}

func (e *InputError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

func (e *InputError) Unwrap() error { return e.Err }

// environment is err with its cause typed by the store (store.Typed) when
// that cause is the machine (a full disk, memory, a database that cannot be
// written), and no *InputError left in it: that is not the file's fault,
// and callers read an *InputError as bad input (the caller names the
// file). Any other error is returned as it is.
func environment(err error) error {
	var in *InputError
	inner := err
	if errors.As(err, &in) {
		inner = in.Err
	}
	t := store.Typed(inner)
	if !store.IsEnvironment(t) {
		return err
	}
	return t
}
