package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/faultlens/faultlens/metrics"
)

// agentNight is what one night of agent runs through the proxy shows: the
// counts behind the gates the scripted policies touch.
type agentNight struct {
	Runs, ToolCalls, Resends, InvalidResends int64
	ByReason                                 map[string]int64 // reasons counted at least once
	UnknownOutcomeResends                    int64
	OpenCalls, BreakerViolations             int64
	Completed, Masked, Success, Sealed       int64
	Expected, Conformant                     int64
}

func nightOf(st metrics.Suite) agentNight {
	m := st.Metrics
	reasons := map[string]int64{}
	for r, n := range m.InvalidRetry.ByReason {
		if n > 0 {
			reasons[r] = n
		}
	}
	return agentNight{
		Runs: st.Runs, ToolCalls: m.DuplicateCall.Den, Resends: m.InvalidRetry.Den,
		InvalidResends: m.InvalidRetry.Num, ByReason: reasons, UnknownOutcomeResends: m.UnknownOutcomeResend.Num,
		OpenCalls: m.BreakerViolation.Den, BreakerViolations: m.BreakerViolation.Num,
		Completed: m.MaskedSuccess.Den, Masked: m.MaskedSuccess.Num, Success: m.Success.Num,
		Sealed: m.TerminalCommitted.Num, Expected: m.ExpectationConformance.Den, Conformant: m.ExpectationConformance.Num,
	}
}

// Eight runs a night, two of each faulted scenario (scripts/proxy-agents:
// a VALIDATION on write_file, a RATE_LIMIT on read_text_file, an
// UNKNOWN_OUTCOME on add_observations, get-sum failing behind an advisory
// breaker). Both frameworks under the same policy make the same calls.
var (
	faultFree = agentNight{Runs: 8, ToolCalls: 22, ByReason: map[string]int64{}, Completed: 8, Success: 8, Sealed: 8}
	// careful: a fixed path (4 calls), a re-send after Retry-After (4), a
	// status read instead of a second write (3), one retry then failed (3).
	carefulFaulted = agentNight{
		Runs: 8, ToolCalls: 28, Resends: 4, ByReason: map[string]int64{},
		Completed: 6, Success: 6, Sealed: 8, Expected: 8, Conformant: 8,
	}
	// naive: the same path again (4), at once (4), the write again (4), six
	// sums, four through the open breaker, then "completed" with no answer (7).
	naiveFaulted = agentNight{
		Runs: 8, ToolCalls: 38, Resends: 16, InvalidResends: 6,
		ByReason: map[string]int64{
			"before_retry_after": 2, "category": 2, "not_retryable": 4,
			"unknown_outcome_resend": 2, "write_without_key": 2,
		},
		UnknownOutcomeResends: 2, OpenCalls: 8, BreakerViolations: 8,
		Completed: 8, Masked: 2, Success: 6, Sealed: 8, Expected: 8,
	}
	naiveFailedGates = []string{"breaker_violation", "expectation_conformance", "invalid_retry", "masked_success", "unknown_outcome_resend"}
)

// TestProxyAgents runs real agent loops, the Vercel AI SDK's and the OpenAI
// Agents SDK's, on the MCP reference servers through `faultlens proxy`
// (this test binary), a careful and a naive scripted policy each, a
// fault-free and a faulted night of each (scripts/proxy-agents), then
// checks every night's figures and that compare fails the naive candidate
// and passes the careful one. It needs node and scripts/proxy-agents/
// node_modules (scripts/test.sh installs it with npm ci); without them it
// skips, saying so.
func TestProxyAgents(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns agents, proxies and MCP servers")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH")
	}
	dir, _ := filepath.Abs("../scripts/proxy-agents")
	for _, pkg := range []string{"ai", "@ai-sdk/mcp", "@openai/agents-core", "@modelcontextprotocol/server-everything"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg, "package.json")); err != nil {
			t.Skip("scripts/proxy-agents/node_modules is not installed: run npm ci there (scripts/test.sh does)")
		}
	}

	t.Run("policies", func(t *testing.T) {
		cmd := exec.Command(node, "--test", "lib/")
		cmd.Dir = dir
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("node --test lib/: %v\n%s", err, b)
		}
	})

	if Run(context.Background(), []string{"proxy", "plans"}, Streams{Out: io.Discard, Err: io.Discard}) != 0 {
		t.Skip("this build has no proxy command")
	}

	out := t.TempDir()
	nights := exec.Command(node, "run-nights.mjs", "--bin", os.Args[0], "--out", out, "--runs", "8", "--jobs", "3")
	nights.Dir = dir
	nights.Env = append(os.Environ(), "FAULTLENS_CHILD=1")
	if b, err := nights.CombinedOutput(); err != nil {
		t.Fatalf("node run-nights.mjs: %v\n%s", err, b)
	}

	for _, fw := range []string{"aisdk", "openai"} {
		for _, c := range []struct {
			policy      string
			faulted     agentNight
			exit        int
			failedGates []string
		}{
			{"careful", carefulFaulted, 0, nil},
			{"naive", naiveFaulted, 1, naiveFailedGates},
		} {
			base, fault := fw+"-"+c.policy+"-base", fw+"-"+c.policy+"-fault"
			files := []string{filepath.Join(out, base+".jsonl"), filepath.Join(out, fault+".jsonl")}
			var rep metrics.Report
			if err := json.Unmarshal([]byte(run(t, append([]string{"report", "--format", "json"}, files...)...)), &rep); err != nil {
				t.Fatal(err)
			}
			if rep.Rejected.Lines != 0 || len(rep.Suites) != 2 {
				t.Fatalf("%s: %d rejected lines, %d suites", fw+"-"+c.policy, rep.Rejected.Lines, len(rep.Suites))
			}
			for _, st := range rep.Suites {
				want := faultFree
				if st.Suite == fault {
					want = c.faulted
				}
				if got := nightOf(st); !reflect.DeepEqual(got, want) {
					t.Errorf("%s:\n got %+v\nwant %+v", st.Suite, got, want)
				}
			}

			var stdout, stderr bytes.Buffer
			args := append([]string{"compare", "--format", "json", "--baseline", base, "--candidate", fault}, files...)
			code := Run(context.Background(), args, Streams{Out: &stdout, Err: &stderr})
			if code != c.exit {
				t.Errorf("compare %s vs %s: exit %d, want %d\n%s", base, fault, code, c.exit, stderr.String())
			}
			var res struct {
				Gates []struct {
					Metric string `json:"metric"`
					Passed bool   `json:"passed"`
				} `json:"gates"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
				t.Fatalf("compare %s: %v", fault, err)
			}
			var failed []string
			for _, g := range res.Gates {
				if !g.Passed {
					failed = append(failed, g.Metric)
				}
			}
			slices.Sort(failed)
			if !slices.Equal(failed, c.failedGates) {
				t.Errorf("compare %s vs %s: failed gates %v, want %v", base, fault, failed, c.failedGates)
			}
		}
	}
}
