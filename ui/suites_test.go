package ui

import (
	"strings"
	"testing"
)

// The picker lists every suite newest first with its runs; b and c pick,
// enter compares the pair picked (here the samples the other way round).
func TestSuitePicker(t *testing.T) {
	db := sampleDB(t)
	m, out := settle(t, db, "0")
	if len(m.picker.list) != 2 || m.picker.list[0].Suite != "candidate" || m.picker.list[0].Runs != 252 ||
		!strings.Contains(out, "> cand candidate") || !strings.Contains(out, "  base baseline") {
		t.Fatalf("picker: %+v\n%s", m.picker.list, out)
	}
	m, out = settle(t, db, "0", "wait", "b", "j", "c", "enter", "wait")
	if m.sh.opts.Baseline != "candidate" || m.sh.opts.Candidate != "baseline" || m.tab != viewOverview ||
		m.cmp.res == nil || m.cmp.res.Candidate.Suite != "baseline" {
		t.Fatalf("picked candidate as the baseline: opts %q %q tab %d\n%s", m.sh.opts.Baseline, m.sh.opts.Candidate, m.tab, out)
	}
	if !strings.Contains(out, "candidate baseline vs baseline candidate:") {
		t.Fatalf("the overview does not show the pair picked:\n%s", out)
	}
	m, _ = settle(t, db, "0", "wait", "b", "c", "enter")
	if m.tab != viewSuites || m.sh.status != "the baseline and the candidate are the same suite" {
		t.Fatalf("the same suite twice: tab %d status %q", m.tab, m.sh.status)
	}
}

// A suite named that the database does not hold is an error naming the
// ones it holds, not a dashboard of one suite.
func TestUnknownSuite(t *testing.T) {
	db := sampleDB(t)
	_, out := settleWith(t, Options{DB: db, Baseline: "nosuch", Candidate: "candidate"}, 100, 30)
	if !strings.Contains(out, "unknown suite nosuch; the suites there are: candidate (252 runs), baseline (200 runs)") {
		t.Fatalf("unknown suite:\n%s", out)
	}
	// The picker still opens, and picking a known pair loads it.
	m, out := settleWith(t, Options{DB: db, Baseline: "nosuch", Candidate: "candidate"}, 100, 30,
		press("0"), waitMsg{}, press("j"), press("b"), press("k"), press("c"), press("enter"), waitMsg{})
	if m.err != nil || m.sh.opts.Baseline != "baseline" || m.cmp.res == nil {
		t.Fatalf("picking after an unknown suite: err %v\n%s", m.err, out)
	}
}

// The first screen at 80×24 opens with the candidate's verdict: how many
// gates failed and which, and its masked successes.
func TestFirstScreenVerdict(t *testing.T) {
	db := sampleDB(t)
	_, out := settleAt(t, db, 80, 24)
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[1], "candidate candidate vs baseline baseline: 7 of ") ||
		!strings.Contains(lines[1], "gates FAILED: masked_success") {
		t.Fatalf("first line:\n%s", out)
	}
	if !strings.Contains(out, "masked success 65/217 30.0%") {
		t.Fatalf("no masked success on the first screen:\n%s", out)
	}
}
