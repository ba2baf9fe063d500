package ui

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
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

// The latency view's data is its own: until its percentiles are in it
// says it is reading them, and their error stands in their place.
func TestLatencyWaitsForPercentiles(t *testing.T) {
	m := loadedModel(t)
	m = send(m, press("2"))
	if body := ansi.Strip(m.latency.View()); !strings.Contains(body, "reading the latency percentiles…") || m.latency.pending != 2 {
		t.Fatalf("before the answers, %d pending:\n%s", m.latency.pending, body)
	}
	m = send(m, percentilesMsg{seq: m.latency.seq, err: errors.New("no spans")})
	if body := ansi.Strip(m.latency.View()); body != "latency percentiles: no spans" {
		t.Fatalf("after a failed answer:\n%s", body)
	}
	m = send(m, histogramsMsg{seq: m.latency.seq})
	m = send(m, press("1"))
	m = send(m, press("2")) // a failed answer is not asked again on a visit
	if m.latency.pending != 0 {
		t.Fatalf("asked again after a failure: %d pending", m.latency.pending)
	}
}
