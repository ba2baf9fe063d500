package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/faultlens/faultlens/metrics"
)

// The latency view puts each stage and tool of the baseline beside the
// candidate with the change of p95; every row has its own scale, so the
// python queue outlier (p95 wall 361.4 s) leaves the planning bars whole.
func TestLatencySideBySide(t *testing.T) {
	db := sampleDB(t)
	m, _ := settle(t, db, "2")
	body := ansi.Strip(m.latency.View())
	for _, want := range []string{
		"stage planning      baseline  │░█████████  │   2710ms   6124ms     0%",
		"                    candidate │░███████████│   2919ms   7349ms     0%   +1225ms",
		"                    candidate │░░░░░░░░░░░█│   3378ms   361.4s    91%   +352.4s ◀ QUEUED > EXECUTED",
		"tool  browser       baseline  (not run)",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("missing %q in\n%s", want, body)
		}
	}
	if n := strings.Count(body, "QUEUED > EXECUTED"); n != 1 {
		t.Errorf("%d rows flagged QUEUED > EXECUTED, want 1 (python in the candidate)", n)
	}
	// The viewport stops at the last line and says where it is.
	keys := []string{"2", "wait"} // the histograms first: they lengthen the body
	for range 12 {
		keys = append(keys, "f")
	}
	m, out := settle(t, db, append(keys, "k")...)
	lines := strings.Count(body, "\n") + 1
	if want := lines - m.sh.bodyHeight() - 1; m.latency.y != want {
		t.Errorf("scroll after paging past the end and one up: %d, want %d", m.latency.y, want)
	}
	if !strings.Contains(out, "of 91 (") {
		t.Errorf("no position indicator:\n%s", out)
	}
}

// The latency view's percentiles are the report's, drawn at once; its one
// request is the histograms, whose section says it is reading them until
// they are in, and their error stands in their place.
func TestLatencyWaitsForHistograms(t *testing.T) {
	m := New(context.Background(), Options{})
	ov := twoSuites()
	ov.report.Suites[0].Latency = []metrics.LatencyRow{{Scope: "stage", Name: "planning", N: 3}}
	m = send(m, loadedMsg{seq: 1, ov: ov})
	m = send(m, press("2"))
	body := ansi.Strip(m.latency.View())
	if !strings.Contains(body, "stage planning      baseline  │") || !strings.Contains(body, "                    candidate (not run)") {
		t.Fatalf("the report's percentiles are not drawn:\n%s", body)
	}
	if !strings.Contains(body, "reading the wall-time distribution…") || !m.latency.asked || m.latency.answered {
		t.Fatalf("before the answer (asked %v, answered %v):\n%s", m.latency.asked, m.latency.answered, body)
	}
	seq := m.latency.seq
	m = send(m, histogramsMsg{seq: seq, err: errors.New("no spans")})
	if body := ansi.Strip(m.latency.View()); !strings.Contains(body, "\nwall-time distribution: no spans\n") || strings.Contains(body, "reading") {
		t.Fatalf("after a failed answer:\n%s", body)
	}
	inFlight := m.sh.loading // the other views' requests on the facts
	m = send(m, press("1"))
	m = send(m, press("2")) // a failed answer is not asked again on a visit
	if m.latency.seq != seq || m.sh.loading != inFlight {
		t.Fatalf("asked again after a failure: seq %d (was %d), %d loading (was %d)", m.latency.seq, seq, m.sh.loading, inFlight)
	}
}
