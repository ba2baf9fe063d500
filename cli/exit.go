package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/export"
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
	code, _ := classify(err)
	return code
}

// classify says what err means for the user: the exit code and the one
// line to print ("" for none). It switches on types only: the store
// (store.Typed) turns DuckDB's and the OS's messages into causes, the
// commands return *usageError, ingest *ingest.InputError. The environment
// comes first because DuckDB reports a full disk or exhausted memory from
// inside whatever it was doing (often while reading an input file, which is
// not at fault); then the database file; then the input and the command
// line. Only what is left is a bug (exit 3).
func classify(err error) (int, string) {
	var gate *GateFailure
	var input *ingest.InputError
	var usage *usageError
	var dbe *store.DBError
	if err == nil {
		return ExitOK, ""
	}
	if errors.As(err, &gate) {
		return ExitGateFailed, ""
	}
	err = store.Typed(err) // errors of packages that do not type their own (metrics, export)
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	var cause *store.CauseError
	errors.As(err, &cause)
	if line := outputPlace(err, cause); line != "" {
		return ExitUsage, line
	}
	if env := environment(cause); env != "" {
		return ExitUsage, env
	}
	switch {
	case errors.As(err, &dbe), errors.As(err, &usage), errors.As(err, &input):
		return ExitUsage, msg
	case errors.Is(err, context.Canceled):
		return ExitUsage, "interrupted"
	}
	return ExitInternal, "internal error (please report it): " + msg
}

// environment says, for a resource that ran out or a database that cannot
// be written, which flag or place to change. It returns "" for anything
// else (cause nil included).
func environment(cause *store.CauseError) string {
	if cause == nil {
		return ""
	}
	switch cause.Cause {
	case store.ErrTempFull:
		return "the temp directory is full (DuckDB spills there when memory runs short): point --temp-dir at a disk with more room, or raise --memory-limit"
	case store.ErrDiskFull:
		return fmt.Sprintf("disk full while writing %s: free space there or put --db on another disk", orUnknown(cause.Path))
	case store.ErrOutOfMemory:
		return "out of memory: DuckDB reached its memory limit; raise --memory-limit (or FAULTLENS_MEMORY_LIMIT) or lower --threads"
	case store.ErrTempDir:
		return fmt.Sprintf("cannot use the temp directory %s: %s; set --temp-dir to a writable directory", orUnknown(cause.Path), cause.Reason)
	case store.ErrReadOnly:
		return fmt.Sprintf("database %s cannot be written (%s): use a writable --db, or a reading command", orUnknown(cause.Path), cause.Reason)
	}
	return ""
}

// outputPlace recognises an export whose output path cannot be opened (a
// missing directory, no permission, a directory where a file is due): the
// user named that place, so it is exit 2 with the path, not a bug. A full
// disk is left to environment, which says so.
func outputPlace(err error, cause *store.CauseError) string {
	var out *export.OutputError
	if !errors.As(err, &out) {
		return ""
	}
	var pe *fs.PathError
	if errors.As(out.Err, &pe) {
		return fmt.Sprintf("cannot write %s: %v", out.Path, pe.Err)
	}
	if cause == nil {
		return ""
	}
	switch cause.Cause {
	case store.ErrCannotOpen, store.ErrReadOnly, store.ErrTempDir:
		return fmt.Sprintf("cannot write %s: %s", out.Path, cause.Reason)
	}
	return ""
}

func orUnknown(s string) string {
	if s == "" {
		return "(a file DuckDB did not name)"
	}
	return s
}

// cobraErrors marks every error that cobra itself returns (an unknown flag
// or command, a wrong number of arguments, a missing required flag) as a
// usage error: cobra returns them as plain errors, before any command's run
// function starts, so an error from Execute while no run function has
// started is one of them. It wraps the RunE of root and every subcommand.
func cobraErrors(root *cobra.Command) *bool {
	started := new(bool)
	var wrap func(c *cobra.Command)
	wrap = func(c *cobra.Command) {
		if run := c.RunE; run != nil {
			c.RunE = func(cmd *cobra.Command, args []string) error {
				*started = true
				return run(cmd, args)
			}
		}
		for _, sub := range c.Commands() {
			wrap(sub)
		}
	}
	wrap(root)
	return started
}

// asUsage is err made a usage error when no run function started.
func asUsage(err error, started bool) error {
	if err == nil || started {
		return err
	}
	return &usageError{err.Error()}
}

// panicked reports a panic as exit 3: one line naming the file that holds
// the stack (in the temp dir), or the stack itself on w when no file can
// be written.
func panicked(w io.Writer, p any, stack []byte) int {
	where := "the stack follows"
	f, err := os.CreateTemp("", "faultlens-panic-*.txt")
	if err == nil {
		_, err = fmt.Fprintf(f, "panic: %v\n\n%s", p, stack)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		where = "stack in " + f.Name()
	}
	_, _ = fmt.Fprintf(w, "faultlens: internal error (please report it): %s (%s)\n", strings.ReplaceAll(fmt.Sprint(p), "\n", " "), where)
	if err != nil {
		_, _ = w.Write(stack)
	}
	return ExitInternal
}

// reportError prints err as one line on w, unless it is a gate failure
// (whose report says it all already). A stderr that cannot be written to
// leaves nowhere to say so; the exit code still tells.
func reportError(w io.Writer, err error) {
	if _, msg := classify(err); msg != "" {
		_, _ = fmt.Fprintf(w, "faultlens: %s\n", msg)
	}
}
