package metrics

import (
	"bufio"
	"cmp"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/queries"
	"github.com/faultlens/faultlens/simulate"
	"github.com/faultlens/faultlens/store"
)

// simulated opens a session on a small fault-injected simulated suite "s":
// every kind of value the evidence holds, NULLs included.
func simulated(t *testing.T, runs int) (*sql.DB, *Session) {
	t.Helper()
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "s.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	if _, err := simulate.Generate(w, simulate.Options{Runs: runs, Seed: 3, Suite: "s", Faults: true, Policy: simulate.Mixed}); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	closeOK(t, f)
	db, err := store.Open(ctx, "", store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeOK(t, db) })
	if _, err := ingest.Files(ctx, db, []string{p}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeOK(t, s) })
	return db, s
}

// readPart reads one evidence part with scan (ScanEvidence or the generic
// map path).
func readPart(t *testing.T, q func() (*sql.Rows, error), part string, scan func(*sql.Rows, *Evidence) error) *Evidence {
	t.Helper()
	rows, err := q()
	if err != nil {
		t.Fatal(err)
	}
	defer closeOK(t, rows)
	ev := &Evidence{}
	if err := scan(rows, ev); err != nil {
		t.Fatalf("%s: %v", part, err)
	}
	sortEvidence(ev)
	return ev
}

// sortEvidence puts runs, latency and recovery, which come in no
// particular order from the live statements, in one.
func sortEvidence(ev *Evidence) {
	sortRuns(ev.Runs)
	slices.SortFunc(ev.Latency, func(a, b LatencySample) int {
		return cmp.Or(cmp.Compare(a.RunID, b.RunID), cmp.Compare(a.Scope, b.Scope), cmp.Compare(a.Name, b.Name),
			cmpOpt(a.QueueMs, b.QueueMs), cmpOpt(a.ExecMs, b.ExecMs), cmpOpt(a.WallMs, b.WallMs))
	})
	slices.SortFunc(ev.Recovery, func(a, b RecoverySample) int {
		return cmp.Or(cmp.Compare(a.RunID, b.RunID), cmp.Compare(a.Category, b.Category), cmp.Compare(a.Outcome, b.Outcome))
	})
}

// cmpOpt orders NULL first, then by value.
func cmpOpt(a, b *float64) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	return cmp.Compare(*a, *b)
}

// TestTypedScanMatchesGeneric checks that the typed scanners (interned
// strings, shared pointers, float slabs) give exactly what the generic map
// path gives, for the live suite and for its saved Parquet files, and that
// Evidence (the chunk-wise read of scan_sink.go) gives what the generic
// path gives for the plain statements.
func TestTypedScanMatchesGeneric(t *testing.T) {
	ctx := context.Background()
	db, s := simulated(t, 60)
	dir := t.TempDir()
	paths := map[string]string{}
	for _, part := range evidenceParts {
		paths[part] = filepath.Join(dir, part+".parquet")
	}
	if err := s.SaveEvidence(ctx, "s", paths); err != nil {
		t.Fatal(err)
	}
	plain := &Evidence{}
	for _, part := range evidenceParts {
		live := func() (*sql.Rows, error) {
			return s.conn.QueryContext(ctx, queries.Get("baseline."+part), sql.Named("suite", "s"))
		}
		saved := func() (*sql.Rows, error) {
			return db.QueryContext(ctx, queries.Get("baseline.read_"+part), paths[part])
		}
		typed := func(rows *sql.Rows, ev *Evidence) error { return ScanEvidence(rows, part, ev) }
		generic := func(rows *sql.Rows, ev *Evidence) error {
			cols, err := rows.Columns()
			if err != nil {
				return err
			}
			return scanGeneric(rows, part, cols, ev)
		}
		want := readPart(t, live, part, generic)
		plain.Runs, plain.Latency, plain.Recovery = append(plain.Runs, want.Runs...), append(plain.Latency, want.Latency...),
			append(plain.Recovery, want.Recovery...)
		for name, got := range map[string]*Evidence{"live": readPart(t, live, part, typed), "saved": readPart(t, saved, part, typed)} {
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: the typed scan differs from the generic one", name, part)
			}
		}
	}
	ev, err := s.Evidence(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	// Evidence's runs come in the order a saved file's are read in
	// (baseline.read_runs orders them in SQL).
	rows, err := db.QueryContext(ctx, queries.Get("baseline.read_runs"), paths["runs"])
	if err != nil {
		t.Fatal(err)
	}
	saved := &Evidence{}
	if err := ScanEvidence(rows, "runs", saved); err != nil {
		t.Fatal(err)
	}
	closeOK(t, rows)
	if !reflect.DeepEqual(ev.Runs, saved.Runs) {
		t.Errorf("Evidence's runs are not in baseline.read_runs' order")
	}
	// Evidence gives what the plain statements give.
	live := ev
	sortEvidence(live)
	if !reflect.DeepEqual(live, plain) {
		t.Errorf("Evidence differs from the plain statements' rows")
	}
	if len(live.Runs) != 60 {
		t.Fatalf("%d runs, want 60", len(live.Runs))
	}
	var nilQueue, recovered int
	for _, l := range live.Latency {
		if l.QueueMs == nil {
			nilQueue++
		}
	}
	for _, r := range live.Recovery {
		if r.Outcome == "after_retry" {
			recovered++
		}
	}
	// One end-to-end sample per run has no queue; the fault-injected
	// suite has retried chains.
	if nilQueue < 60 || recovered == 0 {
		t.Errorf("%d samples without queue, %d chains recovered after retry", nilQueue, recovered)
	}
}
