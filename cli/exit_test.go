package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/store"
)

// Every cause of failure, with the error as the code really builds it
// (DuckDB's messages as captured from runs on a full tmpfs, a read-only
// mount, a missing temp dir and a tiny memory limit), maps to its exit
// code and to a message naming what is at fault.
func TestClassify(t *testing.T) {
	in := func(msg string) error {
		return &ingest.InputError{Path: "big/big.jsonl", Err: fmt.Errorf("validate: %w", errors.New(msg))}
	}
	db := func(msg string) error { return &store.DBError{Path: "t.duckdb", Err: errors.New(msg)} }
	cases := []struct {
		name string
		err  error
		code int
		msg  string
	}{
		{"ok", nil, ExitOK, ""},
		{"gate", &GateFailure{Failed: 2}, ExitGateFailed, ""},
		{"usage", usagef("--older-than %q: bad", "x"), ExitUsage, `--older-than "x": bad`},
		{"cobra flag", asUsage(errors.New("unknown flag: --nope"), false), ExitUsage, "unknown flag: --nope"},
		{"typed disk full", fmt.Errorf("a.jsonl: %w", &store.CauseError{Cause: store.ErrDiskFull, Path: "/d/x.wal", Err: errors.New("whatever the text")}),
			ExitUsage, "disk full while writing /d/x.wal: free space there or put --db on another disk"},
		{"panic-like text is a bug", errors.New("unknown flag: inside a command"), ExitInternal, "internal error (please report it): unknown flag: inside a command"},
		{"input file", &ingest.InputError{Path: "a.jsonl.gz", Err: errors.New("gzip: invalid header")}, ExitUsage, "a.jsonl.gz: gzip: invalid header"},
		{"not a database", db(`database/sql/driver: could not connect to database: IO Error: The file "/x/t.duckdb" exists, but it is not a valid DuckDB database file!`),
			ExitUsage, `database t.duckdb: database/sql/driver: could not connect to database: IO Error: The file "/x/t.duckdb" exists, but it is not a valid DuckDB database file!`},
		{"truncated database", db(`read schema version: IO Error: Could not read enough bytes from file "/x/t.duckdb": attempted to read 262144 bytes from location 798720`),
			ExitUsage, `database t.duckdb: read schema version: IO Error: Could not read enough bytes from file "/x/t.duckdb": attempted to read 262144 bytes from location 798720`},
		{"directory", db("is a directory, not a database file"), ExitUsage, "database t.duckdb: is a directory, not a database file"},
		{"foreign database", &store.DBError{Path: "t.duckdb", Err: store.ErrNotFaultlens}, ExitUsage, "database t.duckdb: not a faultlens database (a DuckDB file without faultlens tables)"},
		{"newer", &store.DBError{Path: "t.duckdb", Err: &store.NewerError{Version: 3}}, ExitUsage, "database t.duckdb: database written by a newer faultlens (schema 3, this binary reads up to 2)"},
		{"locked", &store.DBError{Path: "t.duckdb", Err: fmt.Errorf("%w (waited 1s; held by PID 42)", store.ErrLocked)}, ExitUsage,
			"database t.duckdb: database is in use by another process (waited 1s; held by PID 42)"},
		{"read-only mount", db(`database/sql/driver: could not connect to database: IO Error: Cannot open file "/ro/r.duckdb": Read-only file system`),
			ExitUsage, "database /ro/r.duckdb cannot be written (Read-only file system): use a writable --db, or a reading command"},
		{"read-only directory, wal", in(`TransactionContext Error: Failed to commit: IO Error: Cannot open file "/ro/r.duckdb.wal": Permission denied`),
			ExitUsage, "database /ro/r.duckdb cannot be written (Permission denied): use a writable --db, or a reading command"},
		{"disk full", in(`TransactionContext Error: Failed to commit: Could not write file "/tt/x.duckdb.wal": No space left on device`),
			ExitUsage, "disk full while writing /tt/x.duckdb.wal: free space there or put --db on another disk"},
		{"temp dir full", in(`Out of Memory Error: failed to offload data block of size 256.0 KiB (1.6 MiB/1.7 MiB used). This limit was set by the 'max_temp_directory_size' setting.`),
			ExitUsage, "the temp directory is full (DuckDB spills there when memory runs short): point --temp-dir at a disk with more room, or raise --memory-limit"},
		{"temp dir full, write", in(`IO Error: Could not write file "/tt2/duckdb_temp_storage_DEFAULT-0.tmp": No space left on device`),
			ExitUsage, "the temp directory is full (DuckDB spills there when memory runs short): point --temp-dir at a disk with more room, or raise --memory-limit"},
		{"out of memory", in(`Out of Memory Error: failed to pin block of size 256.0 KiB (7.5 MiB/7.6 MiB used)`),
			ExitUsage, "out of memory: DuckDB reached its memory limit; raise --memory-limit (or FAULTLENS_MEMORY_LIMIT) or lower --threads"},
		{"temp dir missing", in(`IO Error: Failed to create directory "/nonexistent/sub": No such file or directory`),
			ExitUsage, "cannot use the temp directory /nonexistent/sub: No such file or directory; set --temp-dir to a writable directory"},
		{"interrupted", fmt.Errorf("report: %w", context.Canceled), ExitUsage, "interrupted"},
		{"bug", errors.New("metrics: runtime error: index out of range"), ExitInternal, "internal error (please report it): metrics: runtime error: index out of range"},
	}
	for _, c := range cases {
		code, msg := classify(c.err)
		if code != c.code || msg != c.msg {
			t.Errorf("%s: got %d %q\n want %d %q", c.name, code, msg, c.code, c.msg)
		}
	}
}

// FuzzClassify: whatever text an error carries (DuckDB's and the OS's
// messages are parsed for the file they name), classify never panics, never
// says success or gate failure for an error, and prints exactly one line.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{`IO Error: Could not write file "/tt/x.wal": No space left on device`, `"`, `""`, "Out of Memory Error", "Permission denied IO Error", "a\nb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		for _, err := range []error{errors.New(msg), &ingest.InputError{Path: "f", Err: errors.New(msg)}, &store.DBError{Path: "d", Err: errors.New(msg)}} {
			code, line := classify(err)
			if code != ExitUsage && code != ExitInternal {
				t.Fatalf("%q: exit %d", msg, code)
			}
			if line == "" || strings.Contains(line, "\n") {
				t.Fatalf("%q: message %q is not one line", msg, line)
			}
		}
	})
}

// cobra's own errors (before any command runs) are usage errors by where
// they arise, not by their text; the same words from inside a command are
// not.
func TestCobraErrorsAreUsage(t *testing.T) {
	for _, args := range [][]string{{"--nope"}, {"nope"}, {"report", "--threads", "x"}, {"report", "--format"},
		{"history", "--metric"}, {"simulate", "a", "b", "c"}} {
		var out, errb bytes.Buffer
		code := Run(context.Background(), args, Streams{In: strings.NewReader(""), Out: &out, Err: &errb})
		if code != ExitUsage || !strings.HasPrefix(errb.String(), "faultlens: ") || strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and one line", args, code, errb.String())
		}
	}
}

// A panic in a command is exit 3 (the Go runtime's own exit code for one
// is 2, the input's) with one line naming a file, in the temp dir, that
// holds the panic and its stack.
func TestPanicIsInternalWithStackFile(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	registered = append(registered, func(Streams, *global) *cobra.Command {
		return &cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error { panic("kaboom\nsecond line") }}
	})
	defer func() { registered = registered[:len(registered)-1] }()
	var out, errb bytes.Buffer
	code := Run(context.Background(), []string{"boom"}, Streams{In: strings.NewReader(""), Out: &out, Err: &errb})
	m := regexp.MustCompile(`^faultlens: internal error \(please report it\): kaboom second line \(stack in (\S+)\)\n$`).FindStringSubmatch(errb.String())
	if code != ExitInternal || m == nil {
		t.Fatalf("exit %d, stderr %q; want exit 3 and the stack file named", code, errb.String())
	}
	if filepath.Dir(m[1]) != tmp {
		t.Errorf("stack file %s is not in the temp dir %s", m[1], tmp)
	}
	stack, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(stack), "panic: kaboom\nsecond line\n") || !strings.Contains(string(stack), "TestPanicIsInternalWithStackFile") {
		t.Errorf("stack file holds %q", stack)
	}
}
