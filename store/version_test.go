package store

import (
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// v1Database unpacks testdata/v1.duckdb.gz: a database written by the last
// release of storage version 1 (faultlens at commit 827e9eb, `faultlens
// ingest --db v1.duckdb` of the first 40 lines of
// sample-traces/baseline.jsonl), with its report cache row.
func v1Database(t *testing.T) string {
	t.Helper()
	f, err := os.Open("testdata/v1.duckdb.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, f)
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "v1.duckdb")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		t.Fatal(err)
	}
	mustClose(t, out)
	return path
}

func TestMigrateFromVersion1(t *testing.T) {
	ctx := context.Background()
	path := v1Database(t)
	ro, err := OpenReadOnly(ctx, path, Limits{})
	if err != nil {
		t.Fatalf("a reader must read an older database as it is: %v", err)
	}
	var cacheCols int
	mustScan(t, ro.QueryRow("SELECT count(*) FROM information_schema.columns WHERE table_name = 'suite_metrics'"), &cacheCols)
	mustClose(t, ro)
	if cacheCols != 4 {
		t.Fatalf("fixture: suite_metrics has %d columns, want the 4 of version 1", cacheCols)
	}

	db, err := Open(ctx, path, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, db)
	var version string
	var events, files, rows int
	if err := db.QueryRow("SELECT value FROM faultlens_meta WHERE key = 'schema_version'").Scan(&version); err != nil {
		t.Fatal(err)
	}
	mustScan(t, db.QueryRow("SELECT count(*) FROM events"), &events)
	mustScan(t, db.QueryRow("SELECT count(*) FROM files"), &files)
	mustScan(t, db.QueryRow("SELECT count(*) FROM suite_metrics"), &rows)
	if version != "2" || events != 40 || files != 1 || rows != 0 {
		t.Fatalf("after migration: version %s, %d events, %d files, %d cache rows; want 2, 40, 1, 0", version, events, files, rows)
	}
	if _, err := db.Exec("INSERT INTO suite_metrics (suite, metrics_version, computed_at, report, files_upto) VALUES ('s', 'v', now(), '{}', 1)"); err != nil {
		t.Fatalf("the migrated cache table lacks the version 2 layout: %v", err)
	}
}

// writeVersion creates a database file whose faultlens_meta says version v.
func writeVersion(t *testing.T, v string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.duckdb")
	db, err := Open(context.Background(), path, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("UPDATE faultlens_meta SET value = ? WHERE key = 'schema_version'", v); err != nil {
		t.Fatal(err)
	}
	mustClose(t, db)
	return path
}

func TestNewerDatabaseRefused(t *testing.T) {
	ctx := context.Background()
	path := writeVersion(t, "3")
	want := "database " + path + ": database written by a newer faultlens (schema 3, this binary reads up to 2)"
	check := func(what string, err error) {
		t.Helper()
		var newer *NewerError
		if !errors.As(err, &newer) || err.Error() != want {
			t.Fatalf("%s: got %v, want %q", what, err, want)
		}
	}
	_, err := Open(ctx, path, Limits{})
	check("Open", err)
	_, err = OpenReadOnly(ctx, path, Limits{})
	check("OpenReadOnly", err)
	_, _, err = OpenScoped(ctx, path, Limits{}, nil)
	check("OpenScoped", err)
	_, err = Compact(ctx, path, Limits{}, nil)
	check("Compact", err)
	// Refusing must not have rewritten it.
	ro, err := openOnce(ctx, path, "?access_mode=READ_ONLY", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, ro)
	var v string
	mustScan(t, ro.QueryRow("SELECT value FROM faultlens_meta WHERE key = 'schema_version'"), &v)
	if v != "3" {
		t.Fatalf("the newer database was rewritten to version %s", v)
	}
}

func TestNotAFaultlensDatabase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	other := filepath.Join(dir, "other.duckdb")
	db, err := openOnce(ctx, other, "", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE accounts (id INTEGER)"); err != nil {
		t.Fatal(err)
	}
	mustClose(t, db)
	garbage := filepath.Join(dir, "garbage.duckdb")
	mustWrite(t, garbage, []byte("this is not a database, just some text that is long enough to look like a header"))
	for _, tc := range []struct{ path, want string }{
		{other, "database " + other + ": not a faultlens database (a DuckDB file without faultlens tables)"},
		{dir, "database " + dir + ": is a directory, not a database file"},
		{"/dev/null", "database /dev/null: is not a regular file"},
	} {
		for name, open := range map[string]func() error{
			"Open":         func() error { _, err := Open(ctx, tc.path, Limits{}); return err },
			"OpenReadOnly": func() error { _, err := OpenReadOnly(ctx, tc.path, Limits{}); return err },
			"Compact":      func() error { _, err := Compact(ctx, tc.path, Limits{}, nil); return err },
		} {
			err := open()
			var dbe *DBError
			if !errors.As(err, &dbe) || err.Error() != tc.want {
				t.Errorf("%s(%s): got %v, want %q", name, tc.path, err, tc.want)
			}
		}
	}
	_, err = Open(ctx, garbage, Limits{})
	var dbe *DBError
	if !errors.As(err, &dbe) || dbe.Path != garbage {
		t.Errorf("Open(garbage): got %v, want a DBError naming it", err)
	}
	_, err = Compact(ctx, garbage, Limits{}, nil)
	if !errors.As(err, &dbe) || dbe.Path != garbage {
		t.Errorf("Compact(garbage): got %v, want a DBError naming it", err)
	}
	if _, err := os.Stat(garbage + ".compact"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Compact(garbage) left a copy: %v", err)
	}
}

// A writing command migrates an older database; Compact (prune) is one.
func TestCompactMigrates(t *testing.T) {
	ctx := context.Background()
	path := v1Database(t)
	if _, err := Compact(ctx, path, Limits{}, nil); err != nil {
		t.Fatal(err)
	}
	ro, err := OpenReadOnly(ctx, path, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, ro)
	v, err := storedVersion(ctx, ro)
	if err != nil || v != StorageVersion {
		t.Fatalf("version %d (%v) after a rewrite, want %d", v, err, StorageVersion)
	}
	var events int
	mustScan(t, ro.QueryRow("SELECT count(*) FROM events"), &events)
	if events != 40 {
		t.Errorf("%d events after migrating and rewriting, want the fixture's 40", events)
	}
}

// The limits reach DuckDB, quoted (a temp dir may hold a quote).
func TestOpenAppliesLimits(t *testing.T) {
	ctx := context.Background()
	tmp := filepath.Join(t.TempDir(), "it's spill")
	db, err := Open(ctx, "", Limits{MemoryLimit: "512MB", Threads: 1, TempDir: tmp})
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, db)
	var threads int64
	var mem, dir, tz string
	err = db.QueryRow(`SELECT current_setting('threads'), current_setting('memory_limit'),
		current_setting('temp_directory'), current_setting('TimeZone')`).Scan(&threads, &mem, &dir, &tz)
	if err != nil {
		t.Fatal(err)
	}
	if threads != 1 || mem != "488.2 MiB" || dir != tmp || tz != "UTC" {
		t.Errorf("threads %d, memory %s, temp %s, zone %s; want 1, 488.2 MiB (512MB), %s, UTC", threads, mem, dir, tz, tmp)
	}
}
