package report

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/internal/golden"
	"github.com/faultlens/faultlens/internal/testdb"
	"github.com/faultlens/faultlens/metrics"
)

// plainAgentRuns are five runs as a plain OpenTelemetry agent leaves them:
// a tool call and an answer that says "stop", no planning stage, no task.
// Nothing refutes the claims and nothing backs them.
func plainAgentRuns() string {
	var b strings.Builder
	for i := range 5 {
		id := fmt.Sprintf("otel-%d", i)
		fmt.Fprintf(&b, `{"type":"run","run_id":%q,"ts":"2026-11-28T02:00:00Z","suite":"otel","started_at":"2026-11-28T02:00:00Z"}`+"\n", id)
		fmt.Fprintf(&b, `{"type":"tool_call","run_id":%q,"ts":"2026-11-28T02:00:01Z","call_id":"c1","action_id":"a1","tool":"search",`+
			`"started_at":"2026-11-28T02:00:00.500Z","ended_at":"2026-11-28T02:00:01Z","status":"ok"}`+"\n", id)
		fmt.Fprintf(&b, `{"type":"terminal","run_id":%q,"ts":"2026-11-28T02:00:02Z","terminal":"completed","visible_chars":42}`+"\n", id)
	}
	return b.String()
}

// zeroPct finds a 0.0 % (and not the end of 100.0 %).
var zeroPct = regexp.MustCompile(`(^|[^0-9])0\.0%`)

// The plain agent's claims are unverified, not masked, in every format;
// the funnel rates no run could judge read as unknown with the reason.
func TestGoldenUnverified(t *testing.T) {
	s := testdb.Session(t, testdb.Load(t, testdb.Files(t, plainAgentRuns())...), metrics.Open)
	rep, err := s.Report(context.Background(), metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := rep.Suites[0].Metrics
	if m.MaskedSuccess.Num != 0 || m.UnverifiedCompletion.Num != 5 || m.UnverifiedCompletion.Den != 5 {
		t.Fatalf("masked %+v, unverified %+v; want 0/5 and 5/5", m.MaskedSuccess, m.UnverifiedCompletion)
	}
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, rep, format, Options{}); err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(b.String(), "\n") {
				if zeroPct.MatchString(line) && (strings.Contains(line, "plan valid") || strings.Contains(line, "success (")) &&
					format != "json" && format != "csv" {
					t.Errorf("%s report shows a rate no run could judge as 0.0%%: %s", format, line)
				}
			}
			golden.Check(t, filepath.Join("testdata", "unverified."+format+".golden"), b.Bytes())
		})
	}
}
