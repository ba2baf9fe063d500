package metrics

import (
	"cmp"
	"context"
	"database/sql"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/internal/testdb"
	"github.com/faultlens/faultlens/store"
)

// TestSinkReadsEveryChunk reads 130,000 rows (two row groups, so DuckDB
// scans them on several threads, and many chunks) through the latency and
// recovery sinks and checks them against the generic row scan of the same
// statement: NULLs, strings inlined in DuckDB's vectors (≤ 12 bytes) and
// not, stretches of equal run ids, any chunk order.
func TestSinkReadsEveryChunk(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, "", store.Limits{Threads: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer closeOK(t, db)
	s, err := Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer closeOK(t, s)
	const rows = `CREATE TEMP TABLE sink_rows AS
		SELECT CASE WHEN i % 11 = 0 THEN NULL WHEN i % 2 = 0 THEN 'r' || (i // 7) ELSE 'a-long-run-id-' || (i // 7) END AS run_id,
		       CASE i % 3 WHEN 0 THEN 'tool' WHEN 1 THEN 'stage' END AS scope, 'name-' || (i % 5) AS name,
		       CASE WHEN i % 4 <> 0 THEN i / 8 END::DOUBLE AS queue_ms, (i % 1000)::DOUBLE / 3 AS exec_ms,
		       CASE WHEN i % 13 <> 0 THEN i END::DOUBLE AS wall_ms
		FROM range(130000) t(i)`
	if _, err := s.conn.ExecContext(ctx, rows); err != nil {
		t.Fatal(err)
	}
	for part, q := range map[string]string{
		"latency":  "SELECT * FROM sink_rows",
		"recovery": "SELECT run_id, scope AS category, name AS outcome FROM sink_rows",
	} {
		got := &Evidence{}
		if err := s.sinkRead(ctx, part, q, got); err != nil {
			t.Fatalf("%s: %v", part, err)
		}
		want := readPart(t, func() (*sql.Rows, error) { return s.conn.QueryContext(ctx, q) }, part, func(r *sql.Rows, ev *Evidence) error {
			cols, err := r.Columns()
			if err != nil {
				return err
			}
			return scanGeneric(r, part, cols, ev)
		})
		sortEvidence(got)
		if n := len(got.Latency) + len(got.Recovery); n != 130000 {
			t.Fatalf("%s: %d rows, want 130000", part, n)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the chunk read differs from the row scan", part)
		}
	}
}

// TestSinkOutsideARead: a sink function called by a statement that does not
// carry a sink fails, naming the function, instead of losing the rows.
func TestSinkOutsideARead(t *testing.T) {
	ctx := context.Background()
	_, s := simulated(t, 3)
	if err := s.registerSinks(); err != nil {
		t.Fatal(err)
	}
	var n int64
	err := s.conn.QueryRowContext(ctx, "SELECT count(faultlens_sink_recovery('r', 'c', 'o'))").Scan(&n)
	if err == nil || !strings.Contains(err.Error(), "faultlens_sink_recovery called outside a read of recovery evidence") {
		t.Fatalf("err = %v", err)
	}
}

// TestSinkTwoSessions: the sink functions live in the database's catalog,
// so a second session on the same database (the dashboard's reload, two
// comparisons) registers nothing twice, and two sessions reading at the
// same time each get their own rows: the same evidence as one alone.
func TestSinkTwoSessions(t *testing.T) {
	ctx := context.Background()
	db := testdb.Samples(t)
	one := testdb.Session(t, db, Open)
	want, err := one.Evidence(ctx, "candidate")
	if err != nil {
		t.Fatal(err)
	}
	two := testdb.Session(t, db, Open)
	got := make([]*Evidence, 2)
	errs := make(chan error, 2)
	for i, s := range []*Session{one, two} {
		go func() {
			var err error
			got[i], err = s.Evidence(ctx, "candidate")
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if len(want.Runs) == 0 || len(want.Latency) == 0 || len(want.Recovery) == 0 {
		t.Fatalf("sample evidence has an empty part: %d runs, %d samples, %d chains", len(want.Runs), len(want.Latency), len(want.Recovery))
	}
	for i, ev := range got {
		if !reflect.DeepEqual(sortedEvidence(ev), sortedEvidence(want)) {
			t.Errorf("session %d read other evidence than one session alone", i+1)
		}
	}
}

// sortedEvidence orders the parts that come in chunk order.
func sortedEvidence(ev *Evidence) *Evidence {
	out := *ev
	out.Latency = slices.Clone(ev.Latency)
	slices.SortFunc(out.Latency, func(a, b LatencySample) int {
		return cmp.Or(strings.Compare(a.RunID, b.RunID), strings.Compare(a.Scope, b.Scope), strings.Compare(a.Name, b.Name),
			cmp.Compare(deref(a.WallMs), deref(b.WallMs)), cmp.Compare(deref(a.ExecMs), deref(b.ExecMs)), cmp.Compare(deref(a.QueueMs), deref(b.QueueMs)))
	})
	out.Recovery = slices.Clone(ev.Recovery)
	slices.SortFunc(out.Recovery, func(a, b RecoverySample) int {
		return cmp.Or(strings.Compare(a.RunID, b.RunID), strings.Compare(a.Category, b.Category), strings.Compare(a.Outcome, b.Outcome))
	})
	return &out
}

// deref is a sample's value, -1 for a missing one.
func deref(f *float64) float64 {
	if f == nil {
		return -1
	}
	return *f
}
