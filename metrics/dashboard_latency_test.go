package metrics

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/faultlens/faultlens/internal/testdb"
)

// The dashboard's overview loads the whole report, and its latency view
// draws the report's latency rows: every stage, then the tools, then the
// run end to end, per suite. A session scoped to the two suites shown (the
// dashboard's --baseline/--candidate) has the same rows.
func TestReportLatencyForDashboard(t *testing.T) {
	ctx := context.Background()
	db := testdb.Samples(t)
	s := testdb.Session(t, db, Open)
	whole, err := s.Report(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(whole.Suites) != 2 {
		t.Fatalf("%d suites, want 2", len(whole.Suites))
	}
	lat := map[string][]LatencyRow{}
	for _, st := range whole.Suites {
		lat[st.Suite] = st.Latency
	}
	// 5 stages, the tools and the run end to end: the candidate calls 3
	// tools the baseline never does (browser, get_report, message_status).
	if n, m := len(lat["baseline"]), len(lat["candidate"]); n != 12 || m != 15 {
		t.Fatalf("latency rows: baseline %d, candidate %d; want 12 and 15", n, m)
	}
	for name, rows := range lat {
		for i, r := range rows {
			scope := "tool"
			switch {
			case i < 5:
				scope = "stage"
			case i == len(rows)-1:
				scope = "run"
			}
			if r.Scope != scope || r.N <= 0 {
				t.Errorf("%s row %d: %s %s n=%d, want scope %s and runs", name, i, r.Scope, r.Name, r.N, scope)
			}
		}
	}
	if r := lat["candidate"][5]; r.Scope != "tool" || r.Name != "browser" || r.N != 6 {
		t.Errorf("candidate's first tool row: %s %s n=%d, want tool browser n=6", r.Scope, r.Name, r.N)
	}
	scoped, err := OpenSuites(ctx, db, []string{"baseline", "candidate"})
	if err != nil {
		t.Fatal(err)
	}
	defer testdb.CloseOK(t, scoped)
	rep, err := scoped.Report(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	for _, st := range rep.Suites {
		if js(st.Latency) != js(lat[st.Suite]) {
			t.Errorf("%s: the scoped session's latency differs from the whole session's", st.Suite)
		}
	}
	if len(rep.Suites) != 2 {
		t.Errorf("scoped session: %d suites, want 2", len(rep.Suites))
	}
}
