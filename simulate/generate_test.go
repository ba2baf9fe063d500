package simulate

import (
	"bytes"
	"slices"
	"sort"
	"strings"
	"testing"
)

func generate(t *testing.T, o Options) ([]byte, Summary) {
	t.Helper()
	var buf bytes.Buffer
	sum, err := Generate(&buf, o)
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), sum
}

func TestGenerateIsDeterministic(t *testing.T) {
	o := Options{Runs: 150, Seed: 42, Faults: true, Policy: Mixed}
	a, sa := generate(t, o)
	b, sb := generate(t, o)
	if !bytes.Equal(a, b) {
		t.Fatal("same options gave different bytes")
	}
	if sa.Events != sb.Events || sa.Bytes != int64(len(a)) || sa.Events != bytes.Count(a, []byte("\n")) {
		t.Fatalf("summary %+v does not match output (%d bytes, %d lines)", sa, len(a), bytes.Count(a, []byte("\n")))
	}
	o.Seed = 43
	if c, _ := generate(t, o); bytes.Equal(a, c) {
		t.Fatal("different seeds gave the same bytes")
	}
}

func TestFaultFreeSuitesDiffer(t *testing.T) {
	a, _ := generate(t, Options{Runs: 50, Seed: 1, Suite: "nightly"})
	b, _ := generate(t, Options{Runs: 50, Seed: 2, Suite: "nightly"})
	strip := func(data []byte) []byte { // compare without run ids, which embed the seed
		return []byte(strings.NewReplacer("nightly-1-", "", "nightly-2-", "").Replace(string(data)))
	}
	if bytes.Equal(strip(a), strip(b)) {
		t.Fatal("two fault-free suites are identical")
	}
}

func TestSummaryCounts(t *testing.T) {
	_, sum := generate(t, Options{Runs: 280, Seed: 5, Faults: true, Policy: Mixed})
	if sum.Runs != 280 || sum.Careful+sum.Naive != 280 || sum.Faulted != 270 {
		t.Fatalf("summary %+v", sum)
	}
	if sum.Naive != 112 { // two blocks in five go to the naive agent
		t.Fatalf("naive runs = %d, want 112", sum.Naive)
	}
	for _, sc := range catalog {
		if sum.Scenarios[sc.Name] != 10 {
			t.Errorf("scenario %s has %d runs, want 10", sc.Name, sum.Scenarios[sc.Name])
		}
	}
	if !sum.First.Equal(DefaultStart) || !sum.Last.After(sum.First) {
		t.Fatalf("span %v .. %v", sum.First, sum.Last)
	}
}

func TestOptionsAreValidated(t *testing.T) {
	for _, o := range []Options{
		{},
		{Runs: 1, Policy: Policy(7)},
		{Runs: 1, Faults: true, Scenarios: []string{"network.nope"}},
		{Runs: 1, Scenarios: []string{"network.timeout"}},
	} {
		if _, err := Generate(&bytes.Buffer{}, o); err == nil {
			t.Errorf("Generate(%+v) accepted invalid options", o)
		}
	}
	for _, p := range []Policy{Careful, Naive, Mixed} {
		if got, err := ParsePolicy(strings.ToUpper(p.String())); err != nil || got != p {
			t.Errorf("ParsePolicy(%s) = %v, %v", p, got, err)
		}
	}
	if _, err := ParsePolicy("reckless"); err == nil {
		t.Error("ParsePolicy accepted an unknown policy")
	}
}

// wantScenarios is the seeds' fault-injection set, layer by layer.
var wantScenarios = []string{
	"parameter.missing_field", "parameter.wrong_type", "parameter.out_of_range",
	"network.timeout", "network.reset", "network.intermittent", "network.persistent",
	"service.rate_limit", "service.queue_backlog", "service.partial_return", "service.backup_unavailable",
	"resource.not_found", "resource.redirect_loop", "resource.empty_dynamic_page", "resource.content_version_change",
	"permission.login_required", "permission.tenant_boundary", "permission.restricted_content",
	"strategy.duplicate_query", "strategy.same_source_reprint", "strategy.wrong_tool", "strategy.budget_exhausted",
	"state.concurrent_return", "state.cancel", "state.restart", "state.stale_overwrite", "state.unknown_write_outcome",
}

func TestScenarioCatalog(t *testing.T) {
	var names []string
	for _, sc := range Scenarios() {
		names = append(names, sc.Name)
		if sc.Name != sc.Class+"."+sc.Kind || sc.TargetTool == "" || sc.What == "" {
			t.Errorf("incomplete scenario %+v", sc)
		}
		if !slices.Contains(enums["expect.action"], sc.ExpectAction) || !slices.Contains(enums["terminal"], sc.ExpectTerminal) {
			t.Errorf("%s: expect %s/%s outside the contract", sc.Name, sc.ExpectAction, sc.ExpectTerminal)
		}
	}
	if !slices.Equal(names, wantScenarios) {
		t.Fatalf("scenarios\n got %v\nwant %v", names, wantScenarios)
	}
	actions := map[string]bool{}
	for _, sc := range Scenarios() {
		actions[sc.ExpectAction] = true
	}
	for _, a := range enums["expect.action"] {
		if !actions[a] {
			t.Errorf("no scenario expects %s", a)
		}
	}
}

func TestScenarioFilter(t *testing.T) {
	want := []string{"network.timeout", "state.cancel"}
	data, sum := generate(t, Options{Runs: 40, Seed: 3, Faults: true, Scenarios: []string{"state.cancel", "network.timeout"}})
	got := make([]string, 0, len(sum.Scenarios))
	for name := range sum.Scenarios {
		got = append(got, name)
	}
	sort.Strings(got)
	if !slices.Equal(got, want) || sum.Scenarios["state.cancel"] != 20 {
		t.Fatalf("scenarios %v", sum.Scenarios)
	}
	for _, r := range parseRuns(t, data) {
		if !slices.Contains(want, r.scenario) {
			t.Fatalf("run %s has scenario %s", r.id, r.scenario)
		}
	}
}
