package store

import (
	"errors"
	"fmt"
	"testing"
)

// Each message DuckDB or the OS gives (as captured from runs on a full
// tmpfs, a read-only mount, a missing temp dir, a tiny memory limit and a
// foreign file) becomes its typed cause, the file it names and the OS's
// reason; an error with none of them is left as it is.
func TestTyped(t *testing.T) {
	cases := []struct {
		msg          string
		cause        error
		path, reason string
	}{
		{`TransactionContext Error: Failed to commit: Could not write file "/tt/x.duckdb.wal": No space left on device`, ErrDiskFull, "/tt/x.duckdb.wal", "No space left on device"},
		{`IO Error: Could not write file "/tt2/duckdb_temp_storage_DEFAULT-0.tmp": No space left on device`, ErrTempFull, "/tt2/duckdb_temp_storage_DEFAULT-0.tmp", "No space left on device"},
		{`Out of Memory Error: failed to offload data block. This limit was set by the 'max_temp_directory_size' setting.`, ErrTempFull, "", "failed to offload data block. This limit was set by the 'max_temp_directory_size' setting."},
		{`Out of Memory Error: failed to pin block of size 256.0 KiB`, ErrOutOfMemory, "", "failed to pin block of size 256.0 KiB"},
		{`IO Error: Failed to create directory "/nonexistent/sub": No such file or directory`, ErrTempDir, "/nonexistent/sub", "No such file or directory"},
		{`IO Error: Cannot open file "/ro/r.duckdb": Read-only file system`, ErrReadOnly, "/ro/r.duckdb", "Read-only file system"},
		{`Failed to commit: IO Error: Cannot open file "/ro/r.duckdb.wal": Permission denied`, ErrReadOnly, "/ro/r.duckdb", "Permission denied"},
		{`Invalid Input Error: Cannot execute statement of type "INSERT" on database "ro" which is attached in read-only mode!`, ErrReadOnly, "", "opened read-only"},
		{`IO Error: Cannot open file "/x/out.parquet": No such file or directory`, ErrCannotOpen, "/x/out.parquet", "No such file or directory"},
		{`IO Error: The file "/x/t.duckdb" exists, but it is not a valid DuckDB database file!`, ErrNotDuckDB, "/x/t.duckdb", `The file "/x/t.duckdb" exists, but it is not a valid DuckDB database file!`},
	}
	for _, c := range cases {
		err := Typed(fmt.Errorf("ingest: %w", errors.New(c.msg)))
		var ce *CauseError
		if !errors.As(err, &ce) || !errors.Is(err, c.cause) || ce.Path != c.path || ce.Reason != c.reason {
			t.Errorf("%s:\n got %#v", c.msg, ce)
			continue
		}
		if err.Error() != "ingest: "+c.msg {
			t.Errorf("the message changed: %q", err)
		}
		if again := Typed(err); again != err {
			t.Errorf("typed twice: %v", again)
		}
	}
	plain := errors.New("Binder Error: column x not found")
	if Typed(plain) != plain || Typed(nil) != nil {
		t.Error("an error without a known cause must stay as it is")
	}
	if !errors.Is(&DBError{Path: "d", Err: &NewerError{Version: 9}}, ErrNewerSchema) {
		t.Error("a NewerError is ErrNewerSchema")
	}
	if !IsEnvironment(Typed(errors.New(cases[0].msg))) || IsEnvironment(Typed(errors.New(cases[8].msg))) {
		t.Error("disk full is the environment, a missing output directory is not")
	}
}
