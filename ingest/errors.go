package ingest

import "fmt"

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
