package store_test

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/store"
)

// TestHelperProcess is another process on the database, run by the tests
// below through this test binary (DuckDB's file locks are per process, so
// a second process is the only honest witness). It does nothing in a
// normal run.
func TestHelperProcess(t *testing.T) {
	mode, path := os.Getenv("FAULTLENS_STORE_HELPER"), os.Getenv("FAULTLENS_STORE_DB")
	if mode == "" {
		return
	}
	ctx := context.Background()
	switch mode {
	case "probe": // can a reader get in right now?
		db, err := store.OpenReadOnly(ctx, path, store.Limits{LockWait: time.Millisecond})
		switch {
		case errors.Is(err, store.ErrLocked):
			fmt.Println("locked")
		case err == nil:
			store.MustClose(t, db)
			fmt.Println("open")
		default:
			fmt.Println("error:", err)
		}
	case "write": // a writer (as serve reopening after --idle-close) records one acknowledged row
		lim := store.Limits{LockWait: time.Minute, OnWait: func(string) { fmt.Println("waiting") }}
		db, err := store.Open(ctx, path, lim)
		if err == nil {
			_, err = db.Exec("INSERT INTO faultlens_meta VALUES ('acknowledged', 'yes')")
			if cerr := db.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("written")
	}
	os.Exit(0)
}

func helper(t *testing.T, mode, path string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "FAULTLENS_STORE_HELPER="+mode, "FAULTLENS_STORE_DB="+path)
	return cmd
}

// sampleDB is a database file holding both bundled sample suites.
func sampleDB(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.duckdb")
	db, err := store.Open(ctx, path, store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.MustClose(t, db)
	files := []string{"../sample-traces/baseline.jsonl", "../sample-traces/candidate.jsonl"}
	if _, err := ingest.Files(ctx, db, files, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	return path
}

// The rewrite never leaves the path unlocked: at every step from the copy
// to letting go of the old file another process finds it locked, and a
// writer that was waiting for it meanwhile writes into the new file, where
// its row survives (before, prune closed the database and then renamed the
// copy over it, and a writer getting in between wrote into a file about to
// be replaced).
func TestCompactKeepsTheLockThroughTheRename(t *testing.T) {
	ctx := context.Background()
	path := sampleDB(t)
	var writer *exec.Cmd
	var writerOut *bufio.Scanner
	var steps []string
	store.SetCompactHook(func(step string) {
		steps = append(steps, step)
		out, err := helper(t, "probe", path).Output()
		if got := strings.TrimSpace(string(out)); got != "locked" {
			t.Errorf("after step %s another process found the database %q (%v), want locked", step, got, err)
		}
		if step != "copied" {
			return
		}
		writer = helper(t, "write", path)
		pipe, err := writer.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := writer.Start(); err != nil {
			t.Fatal(err)
		}
		writerOut = bufio.NewScanner(pipe)
		if !writerOut.Scan() || writerOut.Text() != "waiting" {
			t.Fatalf("the writer did not wait for the lock: %q", writerOut.Text())
		}
	})
	defer store.SetCompactHook(nil)

	res, err := store.Compact(ctx, path, store.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Rewritten || res.Before == 0 || res.After == 0 {
		t.Errorf("compaction %+v", res)
	}
	if got := strings.Join(steps, ","); got != "copied,renamed,old_detached" {
		t.Errorf("steps %s", got)
	}
	if writer == nil {
		t.Fatal("no writer started")
	}
	if !writerOut.Scan() || writerOut.Text() != "written" {
		t.Errorf("writer: %q", writerOut.Text())
	}
	if err := writer.Wait(); err != nil {
		t.Fatal(err)
	}
	for _, leftover := range []string{path + ".compact", path + ".compact.wal"} {
		if _, err := os.Stat(leftover); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left behind (%v)", leftover, err)
		}
	}
	db, err := store.OpenReadOnly(ctx, path, store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.MustClose(t, db)
	var ack string
	var events int
	if err := db.QueryRow("SELECT value FROM faultlens_meta WHERE key = 'acknowledged'").Scan(&ack); err != nil {
		t.Errorf("the waiting writer's row is lost: %v", err)
	}
	store.MustScan(t, db.QueryRow("SELECT count(*) FROM events"), &events)
	if events != 2992+4003 {
		t.Errorf("%d events after the rewrite, want 6995", events)
	}
}

// A change that asks for no rewrite, or fails, gets none; one that drops a
// suite gets a smaller file holding the rest, with no copy left beside it.
func TestCompactChange(t *testing.T) {
	ctx := context.Background()
	path := sampleDB(t)
	res, err := store.Compact(ctx, path, store.Limits{}, func(context.Context, *sql.Conn) (bool, error) { return false, nil })
	if err != nil || res.Rewritten {
		t.Fatalf("no rewrite asked: %+v, %v", res, err)
	}
	boom := errors.New("boom")
	_, err = store.Compact(ctx, path, store.Limits{}, func(context.Context, *sql.Conn) (bool, error) {
		return true, boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err %v, want the change's", err)
	}
	if n := countEvents(t, path); n != 2992+4003 {
		t.Errorf("%d events after no rewrite, want all 6995", n)
	}

	res, err = store.Compact(ctx, path, store.Limits{}, func(ctx context.Context, conn *sql.Conn) (bool, error) {
		_, err := conn.ExecContext(ctx, "DELETE FROM events WHERE suite = 'candidate' OR run_id LIKE 'candidate%'")
		return true, err
	})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Rewritten || res.After >= res.Before {
		t.Errorf("deleting a suite and rewriting: %d → %d bytes, want smaller", res.Before, res.After)
	}
	if _, err := os.Stat(path + ".compact"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("copy left behind: %v", err)
	}
	if n := countEvents(t, path); n != 2992 {
		t.Errorf("%d events after dropping the candidate, want the baseline's 2992", n)
	}
}

func countEvents(t *testing.T, path string) int {
	t.Helper()
	db, err := store.OpenReadOnly(context.Background(), path, store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.MustClose(t, db)
	var n int
	if err := db.QueryRow("SELECT count(*) FROM events").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A path that is not there is an error naming it, not a new database.
func TestCompactMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.duckdb")
	_, err := store.Compact(context.Background(), path, store.Limits{}, nil)
	var dbe *store.DBError
	if !errors.As(err, &dbe) || dbe.Path != path {
		t.Fatalf("err %v, want a DBError naming %s", err, path)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Compact created %s", path)
	}
}

// A writer that opened a file which was then replaced (a compaction renamed
// its copy over it) opens the new one instead.
func TestOpenFollowsAReplacedFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, other := filepath.Join(dir, "t.duckdb"), filepath.Join(dir, "new.duckdb")
	for _, p := range []string{path, other} {
		db, err := store.Open(ctx, p, store.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec("INSERT INTO faultlens_meta VALUES ('which', ?)", filepath.Base(p)); err != nil {
			t.Fatal(err)
		}
		store.MustClose(t, db)
	}
	replaced := 0
	store.SetOpenHook(func() {
		if replaced++; replaced == 1 {
			if err := os.Rename(other, path); err != nil {
				t.Error(err)
			}
		}
	})
	defer store.SetOpenHook(nil)
	db, err := store.Open(ctx, path, store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.MustClose(t, db)
	var which string
	if err := db.QueryRow("SELECT value FROM faultlens_meta WHERE key = 'which'").Scan(&which); err != nil || which != "new.duckdb" {
		t.Errorf("opened %q (%v), want the file renamed over the path, new.duckdb", which, err)
	}
	if replaced != 2 {
		t.Errorf("opened %d times, want 2", replaced)
	}
}
