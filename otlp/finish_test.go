package otlp

import (
	"strconv"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

// spanWith builds a span with string attributes.
func spanWith(attrs map[string]string) *span {
	m := pcommon.NewMap()
	for k, v := range attrs {
		m.PutStr(k, v)
	}
	return &span{attrs: m, resource: pcommon.NewMap()}
}

func TestFinishTerminal(t *testing.T) {
	lcState := `{"messages":[{"lc":1,"type":"constructor","id":["langchain_core","messages","HumanMessage"],"kwargs":{"content":"hi"}},` +
		`{"lc":1,"type":"constructor","id":["langchain_core","messages","AIMessage"],"kwargs":{"content":"Hello, wörld","response_metadata":{"finish_reason":"stop"}}}]}`
	cases := []struct {
		name       string
		root       map[string]string
		rootFailed bool
		model      map[string]string // the run's last model span
		want       string            // terminal/reason/visible_chars/finish, or "none"
	}{
		{"AI SDK 6 stop", map[string]string{"ai.response.text": "Done.", "ai.response.finishReason": "stop"}, false, nil, "completed/ok/5/stop"},
		{"AI SDK 6 length", map[string]string{"ai.response.text": "Half an ans", "ai.response.finishReason": "length"}, false, nil, "partial/budget_exhausted/11/length"},
		{"AI SDK 6 stopped on tool calls", map[string]string{"ai.response.text": "", "ai.response.finishReason": "tool-calls"}, false, nil, "none"},
		{"GenAI output messages", map[string]string{"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"Paris: 12 °C"},{"type":"tool_call","id":"c1"}],"finish_reason":"stop"}]`}, false, nil, "completed/ok/12/stop"},
		{"GenAI finish reasons attribute", map[string]string{"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"No."}]}]`}, false, map[string]string{"llm.finish_reason": "content_filter"}, "failed/safety_refusal/3/content-filter"},
		{"Anthropic end_turn", map[string]string{"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"ok"}],"finish_reason":"end_turn"}]`}, false, nil, "completed/ok/2/stop"},
		{"empty answer with stop", map[string]string{"ai.response.text": "  ", "ai.response.finishReason": "stop"}, false, nil, "completed/empty_completion/0/stop"},
		{"LangGraph state", map[string]string{"output.value": lcState, "output.mime_type": "application/json"}, false, nil, "completed/ok/12/stop"},
		{"LangGraph state ending on a tool message", map[string]string{"output.value": `{"messages":[{"role":"tool","content":"x"}]}`, "output.mime_type": "application/json"}, false, nil, "none"},
		{"OpenInference text, finish from the model span", map[string]string{"output.value": "The answer", "output.mime_type": "text/plain"}, false, map[string]string{"llm.finish_reason": "STOP"}, "completed/ok/10/stop"},
		{"OpenInference text without any finish reason", map[string]string{"output.value": "The answer"}, false, nil, "none"},
		{"error finish", map[string]string{"ai.response.text": "", "ai.response.finishReason": "error"}, false, nil, "failed//0/error"},
		{"root failed without an answer", map[string]string{}, true, nil, "failed///"},
		{"no answer at all", map[string]string{}, false, nil, "none"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := spanWith(tc.root)
			root.failed = tc.rootFailed
			var models []*span
			if tc.model != nil {
				models = append(models, spanWith(tc.model))
			}
			ev := finishTerminal(&run{root: root}, models)
			got := "none"
			if ev != nil {
				chars := ""
				if ev.VisibleChars != nil {
					chars = formatInt(*ev.VisibleChars)
				}
				got = ev.Terminal + "/" + ev.Reason + "/" + chars + "/" + ev.FinishReason
			}
			if got != tc.want {
				t.Errorf("terminal = %s, want %s", got, tc.want)
			}
		})
	}
}

// TestTerminalSpanEventWins checks that a faultlens.terminal span event
// (the convention) is the run's only terminal: the framework's finish then
// gives none.
func TestTerminalSpanEventWins(t *testing.T) {
	in := `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"b7ad6b7169203331","name":"ai.generateText","startTimeUnixNano":"1764295200000000000","endTimeUnixNano":"1764295210000000000","attributes":[` +
		`{"key":"ai.response.text","value":{"stringValue":"Done."}},{"key":"ai.response.finishReason","value":{"stringValue":"stop"}}],` +
		`"events":[{"timeUnixNano":"1764295209000000000","name":"faultlens.terminal","attributes":[{"key":"faultlens.terminal","value":{"stringValue":"partial"}}]}]},` +
		`{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"00f067aa0ba902b7","parentSpanId":"b7ad6b7169203331","name":"ai.toolCall","startTimeUnixNano":"1764295201000000000","endTimeUnixNano":"1764295202000000000","attributes":[{"key":"ai.toolCall.name","value":{"stringValue":"search"}}]}]}]}]}`
	var out strings.Builder
	if _, err := Convert(strings.NewReader(in), Options{}, &out); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), `"type":"terminal"`); n != 1 {
		t.Fatalf("%d terminals, want the stated one only:\n%s", n, out.String())
	}
	if !strings.Contains(out.String(), `"terminal":"partial"`) || strings.Contains(out.String(), "finish_reason") {
		t.Errorf("terminal is not the stated partial:\n%s", out.String())
	}
}

// TestStatedTerminalWins checks that faultlens.terminal on the root span
// takes precedence over the framework's answer.
func TestStatedTerminalWins(t *testing.T) {
	in := `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"b7ad6b7169203331","name":"ai.generateText","startTimeUnixNano":"1764295200000000000","endTimeUnixNano":"1764295210000000000","attributes":[` +
		`{"key":"ai.response.text","value":{"stringValue":"Done."}},{"key":"ai.response.finishReason","value":{"stringValue":"stop"}},{"key":"faultlens.terminal","value":{"stringValue":"partial"}}]},` +
		`{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"00f067aa0ba902b7","parentSpanId":"b7ad6b7169203331","name":"ai.toolCall","startTimeUnixNano":"1764295201000000000","endTimeUnixNano":"1764295202000000000","attributes":[{"key":"ai.toolCall.name","value":{"stringValue":"search"}}]}]}]}]}`
	var out strings.Builder
	if _, err := Convert(strings.NewReader(in), Options{}, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	last := lines[len(lines)-1]
	if !strings.Contains(last, `"type":"terminal"`) || !strings.Contains(last, `"terminal":"partial"`) || strings.Contains(last, "finish_reason") {
		t.Errorf("terminal = %s, want the stated partial", last)
	}
	if !strings.Contains(out.String(), `"tool":"search"`) {
		t.Errorf("the ai.toolCall span is not a tool call:\n%s", out.String())
	}
}

func formatInt(n int64) string { return strconv.FormatInt(n, 10) }
