package ui

import (
	"strings"
	"testing"

	"github.com/faultlens/faultlens/compare"
)

// drill and metricName read metric keys that come from a comparison (and,
// through saved baselines and gates files, from outside): any key must
// neither panic nor lose the parts that tell two latency rows apart.
func FuzzMetricKeys(f *testing.F) {
	for _, s := range []string{"latency.stage.planning.exec.p95", "latency.tool.a.b.wall.p50", "success", "latency.", "latency..", "", "latency.run.end_to_end.wall.p95"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		base := 1.5
		fl, ok := drill(compare.Row{Metric: key, Kind: "latency", Base: &base}, "cand")
		if fl.Suite != "cand" {
			t.Fatalf("%q: drill lost the suite", key)
		}
		if ok && (fl.Slow.OverMs != base || fl.Slow.Scope == "" || !strings.HasPrefix(key, "latency.")) {
			t.Fatalf("%q: drill %+v", key, fl)
		}
		short := metricName(key, true)
		if !strings.HasPrefix(key, "latency.") && short != key {
			t.Fatalf("%q abbreviated to %q", key, short)
		}
		if p := strings.Split(key, "."); strings.HasPrefix(key, "latency.") && len(p) >= 5 {
			sp := strings.Split(short, ".")
			if len(sp) != len(p) || sp[len(sp)-1] != p[len(p)-1] || strings.Join(sp[1:len(sp)-2], ".") != strings.Join(p[1:len(p)-2], ".") {
				t.Fatalf("%q abbreviated to %q: a distinguishing part changed", key, short)
			}
			// The clock is its letter from the legend, anything else itself.
			if c, a := p[len(p)-2], sp[len(sp)-2]; a != c && a != clockAbbrev[c] {
				t.Fatalf("%q abbreviated to %q: part %q became %q", key, short, c, a)
			}
		}
		// Wrapped to any width, a name (made safe, as the view shows it)
		// loses nothing and no line is wider.
		name := safe(key)
		for _, w := range []int{1, 7, 35} {
			lines := wrapName(name, w)
			for _, l := range lines {
				if n := len([]rune(l)); n > w && w > 0 {
					t.Fatalf("%q wrapped to %d: line %q is %d wide", key, w, l, n)
				}
			}
			if got := strings.Join(lines, ""); got != name {
				t.Fatalf("%q wrapped to %d joins to %q", key, w, got)
			}
		}
	})
}

// The drill of each kind of row: rates map to their filter, latency rows
// to the spans above the baseline's value, scenario rows to the scenario.
func TestDrill(t *testing.T) {
	b := 8965.0
	f, ok := drill(compare.Row{Metric: "latency.tool.python.wall.p95", Kind: "latency", Base: &b}, "candidate")
	if !ok || f.Slow.Scope != "tool" || f.Slow.Name != "python" || f.Slow.Clock != "wall" || f.Slow.OverMs != 8965 || f.Suite != "candidate" {
		t.Fatalf("latency drill %+v", f)
	}
	f, ok = drill(compare.Row{Metric: "breaker_violation", Kind: "rate"}, "candidate")
	if !ok || f.Quick != "breaker" {
		t.Fatalf("breaker drill %+v", f)
	}
	f, ok = drill(compare.Row{Metric: "claimed_completed", Kind: "rate"}, "candidate")
	if ok || f.Suite != "candidate" || f.Quick != "" {
		t.Fatalf("claimed_completed has no narrowing filter: %+v %v", f, ok)
	}
	f, ok = drill(compare.Row{Metric: "claimed_completed", Kind: "rate", Scenario: "state.cancel"}, "candidate")
	if !ok || f.Scenario != "state.cancel" {
		t.Fatalf("scenario row drill %+v", f)
	}
	if got := metricName("latency.stage.planning.exec.p95", true); got != "lat.stage.planning.x.p95" {
		t.Fatalf("abbreviation %q", got)
	}
}
