package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

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
// line to print ("" for none). The environment comes first because DuckDB
// reports a full disk or exhausted memory from inside whatever it was doing
// (often while reading an input file, which is not at fault); then the
// database file; then the input and the command line. Only what is left is
// a bug (exit 3).
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
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	if line := outputPlace(err, msg); line != "" {
		return ExitUsage, line
	}
	if env := environment(msg); env != "" {
		return ExitUsage, env
	}
	switch {
	case errors.As(err, &dbe), errors.As(err, &usage), errors.As(err, &input), isCobraUsage(err):
		return ExitUsage, msg
	case errors.Is(err, context.Canceled):
		return ExitUsage, "interrupted"
	}
	return ExitInternal, "internal error (please report it): " + msg
}

// environment recognises, from DuckDB's and the OS's messages, a resource
// that ran out or a database that cannot be written, and says which flag
// or place to change. It returns "" for anything else.
func environment(msg string) string {
	path := quoted(msg)
	switch {
	case strings.Contains(msg, "max_temp_directory_size"),
		strings.Contains(msg, "No space left on device") && strings.Contains(path, "duckdb_temp"):
		return "the temp directory is full (DuckDB spills there when memory runs short): point --temp-dir at a disk with more room, or raise --memory-limit"
	case strings.Contains(msg, "No space left on device"):
		return fmt.Sprintf("disk full while writing %s: free space there or put --db on another disk", orUnknown(path))
	case strings.Contains(msg, "Out of Memory Error"), strings.Contains(msg, "could not allocate"):
		return "out of memory: DuckDB reached its memory limit; raise --memory-limit (or FAULTLENS_MEMORY_LIMIT) or lower --threads"
	case strings.Contains(msg, "Failed to create directory") || strings.Contains(msg, "temp_directory"):
		return fmt.Sprintf("cannot use the temp directory %s: %s; set --temp-dir to a writable directory", orUnknown(path), osReason(msg))
	case strings.Contains(msg, "Read-only file system"), strings.Contains(msg, "Permission denied") && strings.Contains(msg, "IO Error"):
		return fmt.Sprintf("database %s cannot be written (%s): use a writable --db, or a reading command", orUnknown(strings.TrimSuffix(path, ".wal")), osReason(msg))
	}
	return ""
}

// outputPlace recognises an export whose output path cannot be opened (a
// missing directory, no permission, a directory where a file is due): the
// user named that place, so it is exit 2 with the path, not a bug. A full
// disk is left to environment, which says so.
func outputPlace(err error, msg string) string {
	var out *export.OutputError
	if !errors.As(err, &out) || strings.Contains(msg, "No space left on device") {
		return ""
	}
	var pe *fs.PathError
	inner := out.Err.Error()
	switch {
	case errors.As(out.Err, &pe):
		return fmt.Sprintf("cannot write %s: %v", out.Path, pe.Err)
	case strings.Contains(inner, "Cannot open file"), strings.Contains(inner, "Permission denied"),
		strings.Contains(inner, "Read-only file system"), strings.Contains(inner, "Is a directory"),
		strings.Contains(inner, "Failed to create directory"):
		return fmt.Sprintf("cannot write %s: %s", out.Path, osReason(inner))
	}
	return ""
}

// quoted returns the first double-quoted string in msg (DuckDB quotes the
// file it was working on), or "".
func quoted(msg string) string {
	i := strings.IndexByte(msg, '"')
	if i < 0 {
		return ""
	}
	j := strings.IndexByte(msg[i+1:], '"')
	if j < 0 {
		return ""
	}
	return msg[i+1 : i+1+j]
}

// osReason is the text after the last ": " (the OS's strerror in DuckDB's
// IO errors).
func osReason(msg string) string {
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		return msg[i+2:]
	}
	return msg
}

func orUnknown(s string) string {
	if s == "" {
		return "(a file DuckDB did not name)"
	}
	return s
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

// reportError prints err as one line on w, unless it is a gate failure
// (whose report says it all already). A stderr that cannot be written to
// leaves nowhere to say so; the exit code still tells.
func reportError(w io.Writer, err error) {
	if _, msg := classify(err); msg != "" {
		_, _ = fmt.Fprintf(w, "faultlens: %s\n", msg)
	}
}
