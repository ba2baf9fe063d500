package metrics

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/faultlens/faultlens/internal/testdb"
)

// The dashboard's overview asks for the report without the latency
// percentiles and its latency view asks for them apart: together they are
// the whole report, and either alone changes nothing else.
func TestReportWithoutLatency(t *testing.T) {
	ctx := context.Background()
	db := testdb.Samples(t)
	s := testdb.Session(t, db, Open)
	whole, err := s.Report(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	without, err := s.Report(ctx, Options{WithoutLatency: true})
	if err != nil {
		t.Fatal(err)
	}
	lat, err := s.Latency(ctx)
	if err != nil {
		t.Fatal(err)
	}
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	if len(whole.Suites) != 2 || len(without.Suites) != 2 || len(lat) != 2 {
		t.Fatalf("suites: %d whole, %d without latency, %d in Latency; want 2 each", len(whole.Suites), len(without.Suites), len(lat))
	}
	// 5 stages, the tools and the run end to end: the candidate calls 3
	// tools the baseline never does (browser, get_report, message_status).
	if n, m := len(lat["baseline"]), len(lat["candidate"]); n != 12 || m != 15 {
		t.Errorf("latency rows: baseline %d, candidate %d; want 12 and 15", n, m)
	}
	if r := lat["candidate"][5]; r.Scope != "tool" || r.Name != "browser" || r.N != 6 {
		t.Errorf("candidate's first tool row: %s %s n=%d, want tool browser n=6", r.Scope, r.Name, r.N)
	}
	for i := range whole.Suites {
		name := whole.Suites[i].Suite
		if js(lat[name]) != js(whole.Suites[i].Latency) {
			t.Errorf("%s: Latency differs from the report's latency", name)
		}
		if got := without.Suites[i].Latency; got == nil || len(got) != 0 {
			t.Errorf("%s: latency without latency is %v, want empty", name, got)
		}
		without.Suites[i].Latency = whole.Suites[i].Latency
	}
	if js(without) != js(whole) {
		t.Error("the report without latency differs from the whole report elsewhere than in latency")
	}
	by, err := ReportBySuite(ctx, db, Options{WithoutLatency: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := range by.Suites {
		if len(by.Suites[i].Latency) != 0 {
			t.Errorf("ReportBySuite without latency: %s has %d latency rows", by.Suites[i].Suite, len(by.Suites[i].Latency))
		}
	}
}
