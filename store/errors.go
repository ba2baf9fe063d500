package store

import (
	"errors"
	"strings"
)

// Causes of failure that DuckDB and the OS report only in the text of their
// messages. Typed recognises them here, once, so that every caller (the
// exit-code mapper, the receiver's status codes) switches on these values
// with errors.Is and never reads message text.
var (
	// ErrDiskFull: the disk holding the database (or its WAL) is full.
	ErrDiskFull = errors.New("disk full")
	// ErrTempFull: the spill directory is full or at max_temp_directory_size.
	ErrTempFull = errors.New("temp directory full")
	// ErrOutOfMemory: DuckDB reached its memory limit.
	ErrOutOfMemory = errors.New("out of memory")
	// ErrTempDir: the spill directory cannot be created or used.
	ErrTempDir = errors.New("temp directory unusable")
	// ErrReadOnly: the database file or its directory cannot be written
	// (a read-only mount, no permission).
	ErrReadOnly = errors.New("database cannot be written")
	// ErrCannotOpen: a file DuckDB was asked to open or create cannot be
	// (missing directory, a directory where a file is due).
	ErrCannotOpen = errors.New("cannot open file")
	// ErrNotDuckDB: the database file exists but is not a (whole) DuckDB
	// database: someone else's file, or truncated.
	ErrNotDuckDB = errors.New("not a DuckDB database")
	// ErrNewerSchema: the database was written by a newer faultlens
	// (errors.Is matches every *NewerError).
	ErrNewerSchema = errors.New("database written by a newer faultlens")
)

// CauseError is an error whose cause Typed recognised.
type CauseError struct {
	Cause  error  // one of the Err values above
	Path   string // the file DuckDB's message names ("" when none)
	Reason string // the OS's words for it (strerror), when the message has them
	Err    error  // the error as it was reported
}

func (e *CauseError) Error() string { return e.Err.Error() }

// Unwrap gives both the cause (errors.Is(err, ErrDiskFull)) and the original
// error (errors.As to an *ingest.InputError or a *DBError inside it).
func (e *CauseError) Unwrap() []error { return []error{e.Cause, e.Err} }

// Is makes every *NewerError match ErrNewerSchema.
func (e *NewerError) Is(target error) bool { return target == ErrNewerSchema }

// Typed returns err with its cause made a type: a *CauseError wrapping err
// when DuckDB's or the OS's message says what ran out or refused, else err
// as it is (nil stays nil, an error already typed is not typed twice). The
// environment comes first because DuckDB reports a full disk or exhausted
// memory from inside whatever it was doing, often while reading an input
// file that is not at fault.
func Typed(err error) error {
	var done *CauseError
	if err == nil || errors.As(err, &done) {
		return err
	}
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	path := quoted(msg)
	cause := func(c error, p string) error { return &CauseError{Cause: c, Path: p, Reason: osReason(msg), Err: err} }
	switch {
	case strings.Contains(msg, "max_temp_directory_size"),
		strings.Contains(msg, "No space left on device") && strings.Contains(path, "duckdb_temp"):
		return cause(ErrTempFull, path)
	case strings.Contains(msg, "No space left on device"):
		return cause(ErrDiskFull, path)
	case strings.Contains(msg, "Out of Memory Error"), strings.Contains(msg, "could not allocate"):
		return cause(ErrOutOfMemory, path)
	case strings.Contains(msg, "Failed to create directory") || strings.Contains(msg, "temp_directory"):
		return cause(ErrTempDir, path)
	case strings.Contains(msg, "Read-only file system"), strings.Contains(msg, "Permission denied") && strings.Contains(msg, "IO Error"):
		return cause(ErrReadOnly, strings.TrimSuffix(path, ".wal"))
	case strings.Contains(msg, "attached in read-only mode"):
		// A database opened for reading (no file or OS reason to name).
		return &CauseError{Cause: ErrReadOnly, Reason: "opened read-only", Err: err}
	case strings.Contains(msg, "Cannot open file"), strings.Contains(msg, "Is a directory"):
		return cause(ErrCannotOpen, path)
	case strings.Contains(msg, "not a valid DuckDB database file"), strings.Contains(msg, "Could not read enough bytes from file"):
		return cause(ErrNotDuckDB, path)
	}
	return err
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

// IsEnvironment reports whether err's cause is the machine rather than the
// input or the command: a full disk or temp directory, exhausted memory, a
// temp directory or database that cannot be written. A receiver answers
// these as retryable (503); the CLI says which flag or place to change.
func IsEnvironment(err error) bool {
	for _, c := range []error{ErrDiskFull, ErrTempFull, ErrOutOfMemory, ErrTempDir, ErrReadOnly} {
		if errors.Is(err, c) {
			return true
		}
	}
	return false
}
