package ui

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/metrics"
)

// Enter on a compare row lists the candidate runs behind it: the masked
// runs for masked_success, and for a latency quantile the runs with a span
// of that stage above the baseline's value, counted here again from the raw
// events.
func TestCompareDrill(t *testing.T) {
	db := sampleDB(t)
	m, _ := settle(t, db, "6")
	rowKeys := func(metric string) []string {
		for i, r := range m.cmp.rows {
			if r.Metric == metric && r.Scenario == "" {
				keys := []string{"6"}
				for range i {
					keys = append(keys, "j")
				}
				return append(keys, "enter")
			}
		}
		t.Fatalf("no row %s in %d rows", metric, len(m.cmp.rows))
		return nil
	}
	m, out := settle(t, db, rowKeys("masked_success")...)
	want := metrics.RunFilter{Quick: "masked", Suite: "candidate"}
	if m.tab != viewRuns || m.runs.filter != want || m.runs.total != 65 {
		t.Fatalf("drill from masked_success: tab %d filter %+v total %d\n%s", m.tab, m.runs.filter, m.runs.total, out)
	}
	m, _ = settle(t, db, "6")
	at := -1
	for i, r := range m.cmp.rows {
		if r.Metric == "latency.stage.evidence.wall.p95" && r.Scenario == "" {
			at = i
		}
	}
	// Against the fault-free baseline the samples are a conformance mix, so
	// this row is exploratory; its drill is the same as a gated row's.
	if at < 0 {
		t.Fatalf("no row latency.stage.evidence.wall.p95 in %d rows", len(m.cmp.rows))
	}
	keys := []string{"6"}
	for range at {
		keys = append(keys, "j")
	}
	m, out = settle(t, db, append(keys, "enter")...)
	f := m.runs.filter
	if !strings.Contains(out, "drill: candidate runs, stage evidence wall > 14.1s  quick all") {
		t.Errorf("the runs view does not say what the drill selected:\n%s", out)
	}
	if f.Slow.Scope != "stage" || f.Slow.Name != "evidence" || f.Slow.Clock != "wall" || f.Slow.OverMs != *m.cmp.rows[at].Base {
		t.Fatalf("latency drill filter %+v", f)
	}
	b := &backend{db: db}
	defer b.close()
	res, err := b.query(context.Background(), `SELECT count(DISTINCT run_id) FROM events
		WHERE type = 'stage' AND stage = 'evidence'
		  AND run_id IN (SELECT run_id FROM events WHERE type = 'run' AND suite = 'candidate')
		  AND (epoch_us(ended_at) - epoch_us(coalesce(enqueued_at, started_at))) / 1000.0 > `+ftoa(f.Slow.OverMs))
	if err != nil {
		t.Fatal(err)
	}
	if got := res.rows[0][0]; got != itoa(m.runs.total) || m.runs.total == 0 {
		t.Fatalf("runs with an evidence stage over %v ms: view %d, raw events %s", f.Slow.OverMs, m.runs.total, got)
	}
	// esc clears the drill's filter, a second esc returns to compare.
	m, _ = settle(t, db, "6", "j", "enter", "esc", "esc")
	if m.tab != viewCompare {
		t.Fatalf("esc esc after a drill: tab %d", m.tab)
	}
}

// The breaker view lists the state changes of the candidate's visit
// breaker; enter opens the run of an event, p pairs it.
func TestBreakerView(t *testing.T) {
	db := sampleDB(t)
	m, out := settle(t, db, "8")
	bt := m.breakers.t
	if bt == nil || len(bt.Lanes) != 1 || bt.Lanes[0].Tool != "visit" || bt.Lanes[0].Suite != "candidate" || bt.TotalEvents != 40 {
		t.Fatalf("breakers: %+v\n%s", bt, out)
	}
	var viol, open, half int64
	for _, s := range bt.Lanes[0].Slices {
		viol, open, half = viol+s.Violations, open+s.Open, half+s.HalfOpen
	}
	// The report counts 12 calls through an open breaker of 17 that saw it open.
	if viol != 12 || open != 17 || half != 5 || !strings.Contains(out, "✗ 02:01:39 candidate  visit        closed → OPEN  error") {
		t.Fatalf("violations %d of %d open calls\n%s", viol, open, out)
	}
	m, _ = settle(t, db, "8", "wait", "j", "j", "j", "j", "enter")
	if m.tab != viewDetail || m.detail.d == nil || m.detail.d.RunID != "candidate-1-00035" {
		t.Fatalf("enter on the fifth event: tab %d detail %+v", m.tab, m.detail.d)
	}
	m, _ = settle(t, db, "8", "wait", "j", "j", "j", "j", "p")
	if m.tab != viewPair || m.pairV.p == nil || m.pairV.p.Cand.RunID != "candidate-1-00035" || m.pairV.p.Base.RunID != "baseline-1-00035" {
		t.Fatalf("p on the fifth event: %+v %v", m.pairV.p, m.pairV.err)
	}
}

// p on a run pairs it with its twin; esc returns to where it came from.
func TestPairView(t *testing.T) {
	db := sampleDB(t)
	m, out := settle(t, db, "6", "p") // the first compare row is masked_success
	if m.cmp.rows[0].Metric != "masked_success" {
		t.Fatalf("first compare row %s", m.cmp.rows[0].Metric)
	}
	p := m.pairV.p
	if p == nil || p.Cand.RunID != "candidate-1-00005" || p.Base.RunID != "baseline-1-00005" || p.Diverge != 4 ||
		strings.Join(p.Gates, ",") != "evidence,success" {
		t.Fatalf("pair of the first masked run: %+v\n%s", p, out)
	}
	if !strings.Contains(out, "▶  5 T visit") || !strings.Contains(out, "≠ success      FAIL  MASKED") {
		t.Fatalf("divergence or gate marks missing:\n%s", out)
	}
	m, _ = settle(t, db, "6", "p", "esc")
	if m.tab != viewCompare {
		t.Fatalf("esc from the pair: tab %d", m.tab)
	}
	m, _ = settle(t, db, "4", "enter", "wait", "p")
	if m.pairV.p == nil || m.pairV.p.Base.RunID != "baseline-1-00000" || m.pairV.p.Cand.RunID != "candidate-1-00000" {
		t.Fatalf("p from the detail: %+v %v", m.pairV.p, m.pairV.err)
	}
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
func itoa(n int64) string   { return strconv.FormatInt(n, 10) }

// The pair view aligns the steps: the two runs' timelines have the same
// number of lines, gaps (·) where one run took a step the other did not,
// and ≠ on the steps that differ.
func TestPairAligned(t *testing.T) {
	db := sampleDB(t)
	m, out := settle(t, db, "6", "p")
	p := m.pairV.p
	if p == nil || len(p.Steps) < max(len(p.Base.Timeline), len(p.Cand.Timeline)) || p.FirstDiff != 4 {
		t.Fatalf("pair steps: %+v", p)
	}
	gaps, differs := 0, 0
	for _, s := range p.Steps {
		if s.Base < 0 || s.Cand < 0 {
			gaps++
		}
		if s.Differs {
			differs++
		}
	}
	if differs == 0 || strings.Count(out, "≠ ")+strings.Count(out, "▶ ") < 2 {
		t.Fatalf("no ≠ on the aligned steps (%d differ, %d gaps):\n%s", differs, gaps, out)
	}
}

// ] and [ move a cursor over the run's calls, enter shows every field of
// the call, esc closes it before it goes back.
func TestDetailCallCursor(t *testing.T) {
	db := sampleDB(t)
	m, out := settle(t, db, "4", "enter", "wait", "]", "]", "enter")
	if m.tab != viewDetail || m.detail.call != 1 || !m.detail.shown || !strings.Contains(out, "Step 2 (esc closes)") ||
		!strings.Contains(out, " name                  "+m.detail.d.Timeline[1].Name) {
		t.Fatalf("] ] enter: call %d shown %v\n%s", m.detail.call, m.detail.shown, out)
	}
	if !strings.Contains(out, "> M ") && !strings.Contains(out, "> S ") && !strings.Contains(out, "> T ") {
		t.Fatalf("no cursor on the call:\n%s", out)
	}
	m, _ = settle(t, db, "4", "enter", "wait", "]", "enter", "esc")
	if m.tab != viewDetail || m.detail.shown {
		t.Fatalf("esc on the call's fields: tab %d shown %v", m.tab, m.detail.shown)
	}
	m, _ = settle(t, db, "4", "enter", "wait", "]", "enter", "esc", "esc")
	if m.tab != viewRuns {
		t.Fatalf("esc esc: tab %d", m.tab)
	}
}
