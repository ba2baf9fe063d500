package proxy

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/internal/golden"
)

// TestShippedPlans: every embedded plan parses, is named after its file,
// and together they cover every fault kind.
func TestShippedPlans(t *testing.T) {
	plans := ShippedPlans()
	if len(plans) != 18 {
		t.Errorf("%d shipped plans, want 18", len(plans))
	}
	kinds := map[string]bool{}
	for _, p := range plans {
		if p.What == "" {
			t.Errorf("plan %s says nothing about what it injects", p.Name)
		}
		for _, s := range p.Samples {
			kinds[s.Fault.Kind] = true
		}
	}
	for _, k := range kindNames() {
		if !kinds[k] {
			t.Errorf("no shipped plan injects %s", k)
		}
	}
	if _, ok := ShippedPlan("network.timeout"); !ok {
		t.Error("network.timeout is not found by name")
	}
}

// TestPlanErrors: a bad plan is one error naming the file and, from the
// YAML decoder, the line.
func TestPlanErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"samples:\n  - tool: x\n    fault: {kind: nope}\n", "plan bad.yaml: sample 1: fault kind \"nope\" is not one of"},
		{"samples:\n  - tool: x\n    fualt: {kind: timeout}\n", "plan bad.yaml: yaml: unmarshal errors:\n  line 3: field fualt not found"},
		{"samples:\n  - fault: {kind: timeout}\n", "plan bad.yaml: sample 1: tool is missing"},
		{"samples:\n  - tool: x\n    calls: {nth: [0]}\n    fault: {kind: timeout}\n", "plan bad.yaml: sample 1: calls.nth: 0 is not a call index"},
		{"samples:\n  - tool: x\n    calls: {nth: [1], every: 2}\n    fault: {kind: timeout}\n", "plan bad.yaml: sample 1: calls: give exactly one of"},
		{"samples:\n  - tool: x\n    fault: {kind: timeout}\n    expect: {action: pray}\n", "plan bad.yaml: sample 1: expect.action \"pray\" is not one of"},
		{"breaker: {failures: 0}\n", "plan bad.yaml: breaker: failures must be at least 1"},
		{"breaker: {failures: 2, mode: loose}\n", "plan bad.yaml: breaker: mode \"loose\""},
		{"moves: [{tool: x, recovery: retry}]\n", "plan bad.yaml: moves 1: recovery \"retry\" is not one of"},
		{"", "plan bad.yaml: empty"},
	} {
		_, err := ParsePlan("bad.yaml", []byte(c.yaml))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q...", c.yaml, err, c.want)
		}
	}
	if _, err := LoadPlan("no-such-plan"); err == nil || !strings.Contains(err.Error(), "neither a file nor a shipped plan") {
		t.Errorf("unknown name: %v", err)
	}
	if _, err := LoadPlan(filepath.Join(t.TempDir(), "missing.yaml")); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("missing file: %v", err)
	}
}

// TestSelectors: exact call indexes for each selector; the share selector
// is fixed by the seed and differs between seeds.
func TestSelectors(t *testing.T) {
	picked := func(s Sample, seed int64) string {
		var out []string
		for k := 1; k <= 20; k++ {
			if s.selects(k, seed, 0) {
				out = append(out, strconv.Itoa(k))
			}
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		sel  *Selector
		want string
	}{
		{nil, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20"},
		{&Selector{Nth: []int{1, 3}}, "1 3"},
		{&Selector{Every: 7}, "7 14"},
		{&Selector{From: 18}, "18 19 20"},
	} {
		if got := picked(Sample{Calls: c.sel}, 1); got != c.want {
			t.Errorf("%+v: %q, want %q", c.sel, got, c.want)
		}
	}
	share := Sample{Calls: &Selector{Share: 0.3}}
	a, b := picked(share, 1), picked(share, 2)
	if a != picked(share, 1) || a == b {
		t.Errorf("share 0.3: seed 1 %q, seed 2 %q: the seed must fix the draw and change it", a, b)
	}
	n := 0
	for k := 1; k <= 10000; k++ {
		if share.selects(k, 1, 0) {
			n++
		}
	}
	if n < 2800 || n > 3200 { // a binomial(10000, 0.3) is within 2800..3200 with probability 1 - 1e-5
		t.Errorf("share 0.3 picked %d of 10000", n)
	}
}

// TestDryRun: what --dry-run prints for every shipped plan (golden).
func TestDryRun(t *testing.T) {
	var b bytes.Buffer
	for _, p := range ShippedPlans() {
		if err := DryRun(&b, p, 1); err != nil {
			t.Fatal(err)
		}
	}
	golden.Check(t, filepath.Join("testdata", "dryrun.golden"), b.Bytes())
}
