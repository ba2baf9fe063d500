package metrics

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/faultlens/faultlens/internal/testdb"
)

// Suites that hold every run read the events through a view (no copy);
// a subset is copied into a table. Both give the report of those suites.
func TestScopeCopiesOnlyASubset(t *testing.T) {
	ctx := context.Background()
	db := testdb.Samples(t)
	js := func(v []Suite) string { b, _ := json.Marshal(v); return string(b) }
	whole, err := Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	all, err := whole.Report(ctx, Options{})
	_ = whole.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		suites []string
		kind   string
	}{
		{[]string{"baseline", "candidate"}, "VIEW"},
		{[]string{"candidate", "baseline"}, "VIEW"},
		{[]string{"candidate"}, "LOCAL TEMPORARY"},
	} {
		s, err := OpenSuites(ctx, db, c.suites)
		if err != nil {
			t.Fatal(err)
		}
		var kind string
		err = s.conn.QueryRowContext(ctx, "SELECT table_type FROM information_schema.tables WHERE table_name = 'scoped_events'").Scan(&kind)
		if err != nil {
			t.Fatal(err)
		}
		if kind != c.kind {
			t.Errorf("%v: scoped_events is a %s, want a %s", c.suites, kind, c.kind)
		}
		r, err := s.Report(ctx, Options{Suites: c.suites})
		_ = s.Close()
		if err != nil {
			t.Fatal(err)
		}
		var want []Suite
		for _, name := range c.suites {
			want = append(want, suiteOf(t, all, name))
		}
		if js(r.Suites) != js(want) {
			t.Errorf("%v: report differs from the report over all suites", c.suites)
		}
	}
}
