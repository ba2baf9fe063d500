package otlp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/faultlens/faultlens/internal/golden"
)

// truth is what scripts/otel-fixtures recorded while it ran a framework:
// the generator's own account, independent of the spans.
type truth struct {
	Framework string     `json:"framework"`
	Version   string     `json:"version"`
	Runs      []truthRun `json:"runs"`
	Totals    struct {
		Runs       int            `json:"runs"`
		ModelCalls int            `json:"model_calls"`
		ToolCalls  int            `json:"tool_calls"`
		PerTool    map[string]int `json:"tool_calls_per_tool"`
		Failures   map[string]int `json:"failures_per_category"`
		Resends    int            `json:"resends"`
		Answers    int            `json:"answers"`
	} `json:"totals"`
}

type truthRun struct {
	Scenario     string      `json:"scenario"`
	ModelCalls   int         `json:"model_calls"`
	Plans        int         `json:"plans"`
	ToolCalls    []truthCall `json:"tool_calls"`
	Answer       string      `json:"answer"`
	FinishReason string      `json:"finish_reason"`
	Resends      []struct {
		Tool   string `json:"tool"`
		After  string `json:"after"`
		Status string `json:"status"`
	} `json:"resends"`
}

// frameworkCases are the committed fixtures of real frameworks' telemetry,
// with the conversion stats each must give.
var frameworkCases = []struct {
	name    string
	stats   Stats
	answers bool // whether the telemetry records the final answer
	// lostFailures: the instrumentation writes no span for a tool call
	// that throws, so the failed calls of the truth (and the links of their
	// re-sends) are not in the telemetry.
	lostFailures bool
}{
	// AI SDK 5: the same ai.* spans as AI SDK 6.
	{"aisdk5", Stats{Lines: 5, SpanLines: 5, Spans: 29, AgentSpans: 29, Runs: 5}, true, false},
	// AI SDK 6: per run one ai.generateText root, its doGenerate and toolCall spans.
	{"aisdk6", Stats{Lines: 5, SpanLines: 5, Spans: 29, AgentSpans: 29, Runs: 5}, true, false},
	// AI SDK 7: invoke_agent, step N (agent_step), chat, execute_tool.
	{"aisdk7", Stats{Lines: 5, SpanLines: 5, Spans: 43, AgentSpans: 43, Runs: 5}, true, false},
	// LangGraph through OpenInference: CHAIN nodes, LLM and TOOL spans.
	{"langgraph", Stats{Lines: 5, SpanLines: 5, Spans: 99, AgentSpans: 99, Runs: 5}, true, false},
	// OpenAI Agents SDK through OpenInference: AGENT, turn CHAINs, LLM
	// (generation) and TOOL spans; the final answer is on no span.
	{"openai-agents", Stats{Lines: 5, SpanLines: 5, Spans: 53, AgentSpans: 53, Runs: 5}, false, false},
	// OpenLLMetry: NAME.workflow root, planner.task, chat spans of its
	// OpenAI instrumentation, NAME.tool spans of its tool decorator, which
	// ends no span when the tool throws.
	// The contrib OpenAI instrumentation's chat spans (older gen_ai.system)
	// under a hand-written loop of invoke_agent, plan and execute_tool spans.
	{"contrib-openai", Stats{Lines: 5, SpanLines: 5, Spans: 39, AgentSpans: 39, Runs: 5}, true, false},
	{"traceloop", Stats{Lines: 5, SpanLines: 5, Spans: 33, AgentSpans: 33, Runs: 5}, true, true},
}

func readTruth(t *testing.T, name string) truth {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "frameworks", name+".truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tr truth
	if err := json.Unmarshal(b, &tr); err != nil {
		t.Fatalf("%s.truth.json: %v", name, err)
	}
	return tr
}

// truthCall is one tool call the generator ran.
type truthCall struct {
	Tool     string `json:"tool"`
	Status   string `json:"status"`
	Category string `json:"category"`
}

// decodedRun is one converted run's events, decoded loosely.
type decodedRun struct {
	models    int
	stages    int
	tools     []map[string]any
	terminals []map[string]any
	agentName string
}

func decodeRuns(t *testing.T, out []byte) []*decodedRun {
	t.Helper()
	var runs []*decodedRun
	byID := map[string]*decodedRun{}
	for i, line := range splitLines(out) {
		var ev map[string]any
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatalf("output line %d: %v", i+1, err)
		}
		id, _ := ev["run_id"].(string)
		r := byID[id]
		if r == nil {
			r = &decodedRun{}
			byID[id] = r
			runs = append(runs, r)
		}
		switch ev["type"] {
		case "run":
			if a, ok := ev["agent"].(map[string]any); ok {
				r.agentName, _ = a["name"].(string)
			}
		case "model_call":
			r.models++
		case "stage":
			r.stages++
		case "tool_call":
			r.tools = append(r.tools, ev)
		case "terminal":
			r.terminals = append(r.terminals, ev)
		}
	}
	return runs
}

func TestFrameworkFixturesMatchTruth(t *testing.T) {
	for _, fc := range frameworkCases {
		t.Run(fc.name, func(t *testing.T) {
			tr := readTruth(t, fc.name)
			if fc.lostFailures {
				tr = withoutFailures(tr)
			}
			out, stats, err := convertFile(t, filepath.Join("testdata", "frameworks", fc.name+".jsonl"), Options{})
			checkErr(t, err, "")
			checkStats(t, stats, fc.stats)
			golden.Check(t, filepath.Join("testdata", "frameworks", fc.name+".want.jsonl"), out)
			checkContract(t, out)
			runs := decodeRuns(t, out)
			if len(runs) != len(tr.Runs) || len(runs) != tr.Totals.Runs {
				t.Fatalf("%d runs, truth has %d", len(runs), len(tr.Runs))
			}
			perTool, failures, resends, answers := map[string]int{}, map[string]int{}, 0, 0
			for i, want := range tr.Runs {
				got := runs[i]
				checkRunAgainstTruth(t, want, got, fc.answers)
				for _, c := range got.tools {
					perTool[c["tool"].(string)]++
					if e, ok := c["error"].(map[string]any); ok {
						failures[e["category"].(string)]++
					}
					if c["recovery"] == "retry" {
						resends++
					}
				}
				if len(got.terminals) == 1 && got.terminals[0]["reason"] == "ok" {
					answers++
				}
			}
			if !reflect.DeepEqual(perTool, tr.Totals.PerTool) {
				t.Errorf("tool calls per tool = %v, truth %v", perTool, tr.Totals.PerTool)
			}
			if !reflect.DeepEqual(failures, tr.Totals.Failures) {
				t.Errorf("failures per category = %v, truth %v", failures, tr.Totals.Failures)
			}
			wantAnswers := tr.Totals.Answers
			if !fc.answers {
				wantAnswers = 0
			}
			if resends != tr.Totals.Resends || answers != wantAnswers {
				t.Errorf("re-sends %d, answers %d; truth %d, %d", resends, answers, tr.Totals.Resends, wantAnswers)
			}
		})
	}
}

// withoutFailures is the truth as telemetry that drops failed tool calls
// records it: the successful calls only, no failures, and no re-sends (each
// re-sent call's failed attempt is gone, so nothing links it).
func withoutFailures(tr truth) truth {
	tr.Totals.Failures = map[string]int{}
	tr.Totals.Resends = 0
	tr.Totals.PerTool = map[string]int{}
	runs := make([]truthRun, len(tr.Runs))
	for i, r := range tr.Runs {
		r.ToolCalls = slices.DeleteFunc(slices.Clone(r.ToolCalls), func(c truthCall) bool { return c.Status != "ok" })
		for _, c := range r.ToolCalls {
			tr.Totals.PerTool[c.Tool]++
		}
		r.Resends = nil
		runs[i] = r
	}
	tr.Runs = runs
	return tr
}

// checkRunAgainstTruth compares one run: its model calls and planning
// stages, its tool calls in order (tool, status, category), its re-sends,
// and its terminal.
func checkRunAgainstTruth(t *testing.T, want truthRun, got *decodedRun, answers bool) {
	t.Helper()
	if got.models != want.ModelCalls || got.stages != want.Plans {
		t.Errorf("%s: %d model calls, %d planning stages; truth %d, %d", want.Scenario, got.models, got.stages, want.ModelCalls, want.Plans)
	}
	var gotCalls, wantCalls []string
	byID := map[string]map[string]any{}
	var gotResends, wantResends []string
	for _, c := range got.tools {
		cat := ""
		if e, ok := c["error"].(map[string]any); ok {
			cat, _ = e["category"].(string)
		}
		gotCalls = append(gotCalls, fmt.Sprintf("%s %s %s", c["tool"], c["status"], cat))
		byID[c["call_id"].(string)] = c
		if of, ok := c["recovery_of"].(string); ok && c["recovery"] == "retry" {
			prev := byID[of]
			if prev == nil {
				t.Errorf("%s: recovery_of %s names no earlier call", want.Scenario, of)
				continue
			}
			gotResends = append(gotResends, fmt.Sprintf("%s after %s: %s", c["tool"], prev["error"].(map[string]any)["category"], c["status"]))
		}
	}
	for _, c := range want.ToolCalls {
		wantCalls = append(wantCalls, fmt.Sprintf("%s %s %s", c.Tool, c.Status, c.Category))
	}
	for _, r := range want.Resends {
		wantResends = append(wantResends, fmt.Sprintf("%s after %s: %s", r.Tool, r.After, r.Status))
	}
	// Parallel calls of one step start at the same (fake) instant, and the
	// order among them is the exporter's: compare the calls as a multiset;
	// the re-send links below check the order that matters.
	slices.Sort(gotCalls)
	slices.Sort(wantCalls)
	if !reflect.DeepEqual(gotCalls, wantCalls) {
		t.Errorf("%s: tool calls\n got %q\nwant %q", want.Scenario, gotCalls, wantCalls)
	}
	if !reflect.DeepEqual(gotResends, wantResends) {
		t.Errorf("%s: re-sends\n got %q\nwant %q", want.Scenario, gotResends, wantResends)
	}
	if !answers {
		if len(got.terminals) != 0 {
			t.Errorf("%s: terminal %v from telemetry that records no answer", want.Scenario, got.terminals)
		}
		return
	}
	if len(got.terminals) != 1 {
		t.Fatalf("%s: %d terminals, want 1", want.Scenario, len(got.terminals))
	}
	term := got.terminals[0]
	wantChars := float64(utf8.RuneCountInString(want.Answer))
	if want.FinishReason != "stop" || term["terminal"] != "completed" || term["reason"] != "ok" ||
		term["visible_chars"] != wantChars || term["finish_reason"] != "stop" {
		t.Errorf("%s: terminal %v, want completed/ok with %v visible chars (truth finish %q)", want.Scenario, term, wantChars, want.FinishReason)
	}
}

// splitLines returns the non-empty lines of out.
func splitLines(out []byte) [][]byte {
	var lines [][]byte
	for _, l := range bytes.Split(out, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			lines = append(lines, l)
		}
	}
	return lines
}
