package otlp

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// TestFrameworkLinksIgnoreArrival converts each framework fixture with its
// spans shuffled (within and across requests, as exporters batch them) and
// their times jittered by up to 3 ms, and checks the runs against the
// truth again: the re-send links and tool calls must not depend on the
// order in which spans arrive nor on ties and jitter of their times.
func TestFrameworkLinksIgnoreArrival(t *testing.T) {
	for _, fc := range frameworkCases {
		t.Run(fc.name, func(t *testing.T) {
			tr := readTruth(t, fc.name)
			if fc.lostFailures {
				tr = withoutFailures(tr)
			}
			rng := rand.New(rand.NewPCG(7, uint64(len(fc.name))))
			for round := range 5 {
				in := shuffledFixture(t, filepath.Join("testdata", "frameworks", fc.name+".jsonl"), rng)
				var out bytes.Buffer
				if _, err := Convert(bytes.NewReader(in), Options{}, &out); err != nil {
					t.Fatal(err)
				}
				runs := byTruthOrder(t, decodeRuns(t, out.Bytes()), len(tr.Runs))
				for i, want := range tr.Runs {
					checkRunAgainstTruth(t, want, runs[i], fc.answers)
				}
				if t.Failed() {
					t.Fatalf("round %d", round)
				}
			}
		})
	}
}

// shuffledFixture reads a fixture's spans into one request, in a random
// order, each span's start moved back and end moved on by 0 to 3 ms.
func shuffledFixture(t *testing.T, path string, rng *rand.Rand) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	type item struct {
		res   pcommon.Resource
		scope pcommon.InstrumentationScope
		span  ptrace.Span
	}
	var items []item
	for _, line := range splitLines(b) {
		td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(line)
		if err != nil {
			t.Fatal(err)
		}
		for i := range td.ResourceSpans().Len() {
			rs := td.ResourceSpans().At(i)
			for j := range rs.ScopeSpans().Len() {
				ss := rs.ScopeSpans().At(j)
				for k := range ss.Spans().Len() {
					items = append(items, item{rs.Resource(), ss.Scope(), ss.Spans().At(k)})
				}
			}
		}
	}
	rng.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	td := ptrace.NewTraces()
	for _, it := range items {
		rs := td.ResourceSpans().AppendEmpty()
		it.res.CopyTo(rs.Resource())
		ss := rs.ScopeSpans().AppendEmpty()
		it.scope.CopyTo(ss.Scope())
		sp := ss.Spans().AppendEmpty()
		it.span.CopyTo(sp)
		jitter := func() time.Duration { return time.Duration(rng.IntN(4)) * time.Millisecond }
		sp.SetStartTimestamp(pcommon.NewTimestampFromTime(sp.StartTimestamp().AsTime().Add(-jitter())))
		sp.SetEndTimestamp(pcommon.NewTimestampFromTime(sp.EndTimestamp().AsTime().Add(jitter())))
	}
	out, err := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// byTruthOrder checks the run count; runs are ordered by their root's
// start, which jitter of up to 3 ms cannot reorder (runs are seconds apart).
func byTruthOrder(t *testing.T, runs []*decodedRun, n int) []*decodedRun {
	t.Helper()
	if len(runs) != n {
		t.Fatalf("%d runs, truth has %d", len(runs), n)
	}
	return runs
}
