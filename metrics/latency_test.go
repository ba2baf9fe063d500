package metrics

import "testing"

// Latency percentiles (linear interpolation), max, queue share, and the
// end-to-end run latency.

// qs is a Quantiles literal.
func qs(p50, p90, p95, p99, top float64) Quantiles {
	return Quantiles{P50: f(p50), P90: f(p90), P95: f(p95), P99: f(p99), Max: f(top)}
}

func wantQuantiles(t *testing.T, name string, got, want Quantiles) {
	t.Helper()
	wantFloat(t, name+".p50", got.P50, want.P50)
	wantFloat(t, name+".p90", got.P90, want.P90)
	wantFloat(t, name+".p95", got.P95, want.P95)
	wantFloat(t, name+".p99", got.P99, want.P99)
	wantFloat(t, name+".max", got.Max, want.Max)
}

func TestLatency(t *testing.T) {
	queued := func(st ev, enq int) ev { return st.with("enqueued_at", at(enq)) }
	s := load(t, jsonl(
		runEv("r1"),
		stageEv("r1", "p1", "planning", "ok", 0, 100),                                                       // queue 0 (no enqueued_at), exec 100, wall 100
		queued(stageEv("r1", "p2", "planning", "ok", 100, 300), 0),                                          // queue 100, exec 200, wall 300
		stageEv("r1", "g", "generation", "ok", 0, 0).with("started_at", atUS(1000), "ended_at", atUS(1800)), // 0.8 ms
		callEv("r1", "c1", "a1", "search", "ok", 0, 10),
		callEv("r1", "c2", "a2", "visit", "ok", 40, 100).with("enqueued_at", at(0)), // queue 40, exec 60
		termEv("r1", "completed", 1000),
		runEv("r2"),
		queued(stageEv("r2", "p3", "planning", "ok", 0, 300), 0),   // queue 0, exec 300, wall 300
		queued(stageEv("r2", "p4", "planning", "ok", 300, 700), 0), // queue 300, exec 400, wall 700
		callEv("r2", "c1", "a1", "search", "error", 100, 130),
		termEv("r2", "completed", 3000),
		termEv("r2", "failed", 5000), // not the claimed terminal
		runEv("r3"),                  // no terminal: no end-to-end time
		stageEv("r3", "p", "planning", "ok", 0, 0).with("started_at", at(0), "ended_at", at(400)),
		runEv("r4").with("suite", "other"),
		stageEv("r4", "p", "planning", "ok", 0, 9000),
		termEv("r4", "completed", 9000),
	))
	st := suiteOf(t, report(t, s), "s")
	type want struct {
		scope, name       string
		n                 int64
		queue, exec, wall Quantiles
		share             *float64
	}
	none := Quantiles{}
	wants := []want{
		{"stage", "planning", 5,
			qs(0, 220, 260, 292, 300), qs(300, 400, 400, 400, 400), qs(300, 580, 640, 688, 700), f(400.0 / 1800)},
		{"stage", "generation", 1, qs(0, 0, 0, 0, 0), qs(0.8, 0.8, 0.8, 0.8, 0.8), qs(0.8, 0.8, 0.8, 0.8, 0.8), f(0)},
		{"tool", "search", 2, qs(0, 0, 0, 0, 0), qs(20, 28, 29, 29.8, 30), qs(20, 28, 29, 29.8, 30), f(0)},
		{"tool", "visit", 1, qs(40, 40, 40, 40, 40), qs(60, 60, 60, 60, 60), qs(100, 100, 100, 100, 100), f(0.4)},
		{"run", "end_to_end", 2, none, none, qs(2000, 2800, 2900, 2980, 3000), nil},
	}
	if len(st.Latency) != len(wants) {
		t.Fatalf("latency has %d rows, want %d: %+v", len(st.Latency), len(wants), st.Latency)
	}
	for i, w := range wants {
		got := st.Latency[i]
		if got.Scope != w.scope || got.Name != w.name || got.N != w.n {
			t.Errorf("row %d = %s/%s n=%d, want %s/%s n=%d", i, got.Scope, got.Name, got.N, w.scope, w.name, w.n)
			continue
		}
		name := w.scope + "/" + w.name
		wantQuantiles(t, name+" queue", got.QueueMs, w.queue)
		wantQuantiles(t, name+" exec", got.ExecMs, w.exec)
		wantQuantiles(t, name+" wall", got.WallMs, w.wall)
		wantFloat(t, name+" queue_share", got.QueueShare, w.share)
	}
	other := suiteOf(t, report(t, s), "other")
	if len(other.Latency) != 2 || other.Latency[1].Name != "end_to_end" {
		t.Fatalf("other suite latency = %+v", other.Latency)
	}
	wantQuantiles(t, "other planning exec", other.Latency[0].ExecMs, qs(9000, 9000, 9000, 9000, 9000))
	wantQuantiles(t, "other end_to_end", other.Latency[1].WallMs, qs(9000, 9000, 9000, 9000, 9000))
}

// The contract's example: 100, 200, 300, 400 give p50 250, p90 370,
// p95 385, p99 397 and max 400.
func TestLatencyInterpolation(t *testing.T) {
	var evs []ev
	for i, ms := range []int{300, 100, 400, 200} {
		run := string(rune('a' + i))
		evs = append(evs, runEv(run),
			stageEv(run, "p", "planning", "ok", 0, ms).with("enqueued_at", at(-ms/4)),
			callEv(run, "c", "a", "visit", "ok", 0, ms),
			termEv(run, "completed", ms))
	}
	st := suiteOf(t, report(t, load(t, jsonl(evs...))), "s")
	if len(st.Latency) != 3 {
		t.Fatalf("latency has %d rows, want 3", len(st.Latency))
	}
	want := qs(250, 370, 385, 397, 400)
	for _, row := range st.Latency {
		switch row.Scope {
		case "stage":
			wantQuantiles(t, "stage exec", row.ExecMs, want)
			wantQuantiles(t, "stage queue", row.QueueMs, qs(62.5, 92.5, 96.25, 99.25, 100))
			wantQuantiles(t, "stage wall", row.WallMs, qs(312.5, 462.5, 481.25, 496.25, 500))
			wantFloat(t, "stage queue_share", row.QueueShare, f(0.2))
		case "tool":
			wantQuantiles(t, "tool wall", row.WallMs, want)
			wantFloat(t, "tool queue_share", row.QueueShare, f(0))
		case "run":
			wantQuantiles(t, "end_to_end", row.WallMs, want)
			wantQuantiles(t, "end_to_end exec", row.ExecMs, Quantiles{})
			wantFloat(t, "end_to_end queue_share", row.QueueShare, nil)
		}
	}
}
