package metrics

import (
	"context"
	"testing"
)

// The runs page filters a compare row drills to: a suite, a span slower
// than a threshold on one clock, and the drill-only quick filters.
func TestRunsPageDrillFilters(t *testing.T) {
	s := load(t, jsonl(
		runEv("r1").with("suite", "base"),
		callEv("r1", "c1", "a1", "python", "ok", 0, 100).with("enqueued_at", at(-5000)),
		termEv("r1", "completed", 200),
		runEv("r2").with("suite", "cand"),
		callEv("r2", "c2", "a1", "python", "ok", 0, 3000),
		callEv("r2", "c3", "a2", "visit", "error", 3000, 3100).with("circuit", "open"),
		termEv("r2", "completed", 3200),
		runEv("r3").with("suite", "cand"),
		callEv("r3", "c4", "a1", "python", "ok", 0, 50),
		callEv("r3", "c5", "a2", "search", "ok", 50, 60).with("args_digest", "d"),
		callEv("r3", "c6", "a3", "search", "ok", 60, 70).with("args_digest", "d"),
		termEv("r3", "completed", 100),
	))
	ctx := context.Background()
	ids := func(f RunFilter) []string {
		t.Helper()
		rows, total, err := s.RunsPage(ctx, f, RunSort{}, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rows {
			out = append(out, r.RunID)
		}
		if int(total) != len(out) {
			t.Fatalf("total %d for %d rows", total, len(out))
		}
		return out
	}
	for _, c := range []struct {
		name string
		f    RunFilter
		want string
	}{
		{"suite", RunFilter{Suite: "cand"}, "r2 r3"},
		{"python exec over 1 s", RunFilter{Slow: SlowSpan{Scope: "tool", Name: "python", Clock: "exec", OverMs: 1000}}, "r2"},
		{"python queue over 1 s", RunFilter{Slow: SlowSpan{Scope: "tool", Name: "python", Clock: "queue", OverMs: 1000}}, "r1"},
		{"python wall over 3 s", RunFilter{Slow: SlowSpan{Scope: "tool", Name: "python", Clock: "wall", OverMs: 3000}}, "r1"},
		{"breaker", RunFilter{Quick: "breaker"}, "r2"},
		{"duplicate", RunFilter{Quick: "duplicate"}, "r3"},
		{"suite and slow", RunFilter{Suite: "base", Slow: SlowSpan{Scope: "tool", Name: "python", Clock: "exec", OverMs: 1000}}, ""},
	} {
		got := ""
		for i, id := range ids(c.f) {
			if i > 0 {
				got += " "
			}
			got += id
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
