package compare

import (
	"strings"
	"testing"

	"github.com/faultlens/faultlens/metrics"
)

// The paired runs section goes before </body>, escapes trace strings and
// marks what differs; without pairs the page is unchanged.
func TestInsertPairsHTML(t *testing.T) {
	page := []byte("<html><body><h1>x</h1></body></html>")
	if got, err := InsertPairsHTML(page, nil); err != nil || string(got) != string(page) {
		t.Fatalf("no pairs: %q %v", got, err)
	}
	tr, fa := true, false
	evil := `<script>alert(1)</script>`
	p := metrics.RunPair{
		Base: &metrics.RunDetail{RunID: "b" + evil, Suite: "base", Success: &tr, AnswerDeliverable: true,
			Timeline: []metrics.Span{{Kind: "stage", Name: "planning", Status: "ok"}}},
		Cand: &metrics.RunDetail{RunID: "c1", Suite: "cand", Scenario: "s" + evil, Success: &fa, Masked: true,
			Timeline: []metrics.Span{{Kind: "stage", Name: "planning", Status: "ok"}, {Kind: "tool_call", Name: "visit", Attempt: 2, Status: "error", Category: "TIMEOUT", Recovery: "retry"}}},
		MatchedBy: "client_message_id", Gates: []string{"deliverable", "success"}, Diverge: 1,
	}
	got, err := InsertPairsHTML(page, []metrics.RunPair{p})
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	for _, want := range []string{
		`<tr class="differs"><td>deliverable</td><td>pass</td><td>FAIL</td></tr>`,
		`<tr class="differs"><td>success</td><td>pass</td><td>FAIL (masked: claimed completed)</td></tr>`,
		`<tr><td>plan</td><td>unknown</td><td>unknown</td></tr>`,
		`<tr class="diverge"><td>▶ step 2</td><td></td><td>tool_call visit#2 error TIMEOUT ↳retry</td></tr>`,
		"&lt;script&gt;",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %s in\n%s", want, s)
		}
	}
	if strings.Contains(s, evil) || !strings.HasSuffix(s, "</table>\n</body></html>") {
		t.Errorf("unescaped or misplaced:\n%s", s)
	}
}
