package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/store"
)

// Exit codes, documented in README.md.
const (
	// ExitOK: the command did its job (and every gate passed).
	ExitOK = 0
	// ExitGateFailed: the comparison ran and at least one gate failed.
	ExitGateFailed = 1
	// ExitUsage: bad arguments or unusable input; the command could not do its job.
	ExitUsage = 2
	// ExitInternal: an unexpected failure (a bug or the environment).
	ExitInternal = 3
)

// usageError is a mistake in the command line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// GateFailure says that a comparison ran and some gates failed; the report
// has been written. It carries the exit code 1 and no message of its own.
type GateFailure struct{ Failed int }

func (e *GateFailure) Error() string { return fmt.Sprintf("%d gate(s) failed", e.Failed) }

// exitCode maps an error to the process exit code. This is the only place
// where errors become exit codes.
func exitCode(err error) int {
	var gate *GateFailure
	var input *ingest.InputError
	var usage *usageError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &gate):
		return ExitGateFailed
	case errors.As(err, &usage), errors.As(err, &input), errors.Is(err, store.ErrLocked), isCobraUsage(err):
		return ExitUsage
	}
	return ExitInternal
}

// isCobraUsage recognises the flag and argument errors cobra returns as
// plain errors.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown flag", "unknown shorthand flag", "unknown command", "flag needs an argument",
		"invalid argument", "accepts ", "requires at least", "required flag", "bad flag syntax"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// report prints err as one line on w, unless it is a gate failure (whose
// report says it all already).
func reportError(w io.Writer, err error) {
	var gate *GateFailure
	if err == nil || errors.As(err, &gate) {
		return
	}
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	fmt.Fprintf(w, "faultlens: %s\n", msg)
}
