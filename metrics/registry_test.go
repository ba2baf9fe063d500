package metrics

import (
	"context"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/internal/testdb"
	"github.com/faultlens/faultlens/queries"
)

// sampleSession opens a session on the bundled samples.
func sampleSession(t *testing.T) *Session {
	t.Helper()
	return testdb.Session(t, testdb.Samples(t), Open)
}

// rateColumns runs every statement that returns <rate>__num columns (found
// by its text, so a new rate query is checked too) and lists the
// <rate>__<part> columns each returns, by statement.
func rateColumns(t *testing.T, s *Session) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, name := range queries.Names() {
		if !strings.Contains(queries.Get(name), "__num") {
			continue
		}
		rows, err := s.conn.QueryContext(context.Background(), queries.Get(name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cols, err := rows.Columns()
		closeQuietly(rows)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, c := range cols {
			if strings.Contains(c, "__") {
				out[name] = append(out[name], c)
			}
		}
	}
	return out
}

// Every <rate>__<part> column of the rate SQL belongs to a reported rate
// and part of the registry, once; every reported rate has its columns.
func TestRateColumnsMatchRegistry(t *testing.T) {
	byQuery := rateColumns(t, sampleSession(t))
	if got := slices.Sorted(maps.Keys(byQuery)); !slices.Equal(got, []string{"metrics.call_rates", "metrics.run_rates", "metrics.stage_rates"}) {
		t.Errorf("rate statements = %v", got)
	}
	seen := map[string]string{} // column → statement
	for q, cols := range byQuery {
		for _, c := range cols {
			if other, dup := seen[c]; dup {
				t.Errorf("column %s is computed by both %s and %s", c, other, q)
			}
			seen[c] = q
			name, part, _ := strings.Cut(c, "__")
			d, ok := LookupRate(name)
			switch {
			case !ok:
				t.Errorf("%s returns %s: no rate %q in metrics/registry.go", q, c, name)
			case !d.Reported:
				t.Errorf("%s returns %s: rate %q is not Reported in metrics/registry.go", q, c, name)
			case part == "num" || part == "den" || part == "unknown" && d.Unknown || slices.Contains(d.Reasons, part):
			default:
				t.Errorf("%s returns %s: rate %q defines no part %q", q, c, name, part)
			}
		}
	}
	for _, d := range ReportedRates() {
		want := []string{d.Name + "__num", d.Name + "__den"}
		if d.Unknown {
			want = append(want, d.Name+"__unknown")
		}
		for _, r := range d.Reasons {
			want = append(want, d.Name+"__"+r)
		}
		for _, c := range want {
			if _, ok := seen[c]; !ok {
				t.Errorf("rate %s is registered but no statement in queries/metrics_rates.sql returns %s", d.Name, c)
			}
		}
	}
}

// Metrics has one Rate field per reported rate, tagged with its name, in
// registry order (the JSON order).
func TestRegistryMatchesMetrics(t *testing.T) {
	typ := reflect.TypeFor[Metrics]()
	var fields []string
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Type != reflect.TypeFor[Rate]() {
			t.Errorf("Metrics.%s is a %s, not a Rate", f.Name, f.Type)
		}
		if d, ok := LookupRate(name); !ok || !d.Reported {
			t.Errorf("Metrics.%s (json %q) is not a reported rate in metrics/registry.go", f.Name, name)
		}
		fields = append(fields, name)
	}
	for _, d := range ReportedRates() {
		if !slices.Contains(fields, d.Name) {
			t.Errorf("rate %s is reported but metrics.Metrics has no field tagged json:%q", d.Name, d.Name)
		}
	}
	if names := RateNames(); len(names) == len(fields) && !slices.Equal(fields, names) {
		t.Errorf("Metrics fields in order %v, registry in order %v", fields, names)
	}
	var m Metrics
	m.rate("deadline_overrun").Num = 7
	if m.DeadlineOverrun.Num != 7 || m.rate("no_such_rate") != nil {
		t.Error("Metrics.rate does not address the field of its JSON name")
	}
}

// The registry's own rules: unique names, a label each, defects lower is
// better, compare rows numbered 1…n with a per-run count each.
func TestRegistryWellFormed(t *testing.T) {
	names := map[string]bool{}
	var rows []int
	groups := []Group{GroupFunnel, GroupClaims, GroupViolations, GroupBudgets, GroupContext, GroupEvidence}
	for _, d := range registry {
		if names[d.Name] || d.Name == "" || strings.Contains(d.Name, "__") || strings.Contains(d.Name, ".") {
			t.Errorf("rate name %q: empty, repeated, or holding the SQL part separator or a dot", d.Name)
		}
		names[d.Name] = true
		if d.Label == "" || !slices.Contains(groups, d.Group) {
			t.Errorf("%s: label %q, group %q", d.Name, d.Label, d.Group)
		}
		if d.Defect && d.Better != Lower {
			t.Errorf("%s: a defect count where lower is not better", d.Name)
		}
		if (d.CompareRow > 0) != (d.PerRun != nil) {
			t.Errorf("%s: compare row %d but per-run count %v", d.Name, d.CompareRow, d.PerRun != nil)
		}
		if d.FaultSensitive && d.CompareRow == 0 {
			t.Errorf("%s: fault-sensitive but not compared (only compare reads it)", d.Name)
		}
		if !d.Reported && (d.Unknown || d.Reasons != nil) {
			t.Errorf("%s: SQL parts on a rate the SQL does not compute", d.Name)
		}
		if d.CompareRow > 0 {
			rows = append(rows, d.CompareRow)
		}
	}
	slices.Sort(rows)
	for i, r := range rows {
		if r != i+1 {
			t.Fatalf("compare rows %v: want 1…%d, each once", rows, len(rows))
		}
	}
	var cmp []string
	for _, d := range ComparedRates() {
		cmp = append(cmp, d.Name)
	}
	// compare's table order (its goldens hold it).
	want := []string{"plan_validity", "evidence_satisfaction", "answer_deliverable", "terminal_committed", "success",
		"claimed_completed", "masked_success", "unverified_completion", "undisclosed_degradation", "zero_call_violation", "seal_violation",
		"expectation_conformance", "retry_budget_overrun", "deadline_overrun", "invalid_retry",
		"unknown_outcome_resend", "duplicate_call", "breaker_violation", "degraded_evidence_grade",
		"direct_evidence_grade"}
	if !slices.Equal(cmp, want) {
		t.Errorf("compared rates %v, want %v", cmp, want)
	}
}
