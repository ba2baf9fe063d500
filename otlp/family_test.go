package otlp

import (
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

// TestFamilyReading pins, per family, how a span of its instrumentation is
// claimed and read: role, family, tool name and whether its arguments are
// known. The attributes are those each instrumentation writes (read from
// its source: @traceloop/node-server-sdk 0.27.0 and
// @traceloop/instrumentation-langchain 0.27.0 for Traceloop).
func TestFamilyReading(t *testing.T) {
	cases := []struct {
		name     string
		span     string
		attrs    map[string]string
		role     role
		family   string
		tool     string
		argsKnow bool
	}{
		{"traceloop tool decorator", "search.tool",
			map[string]string{"traceloop.span.kind": "tool", "traceloop.entity.name": "search", "traceloop.entity.input": `{"args":[],"kwargs":{"query":"q"}}`},
			roleTool, "traceloop", "search", true},
		// Its LangChain instrumentation names the tool by its class and puts
		// the arguments only in traceloop.entity.input.
		{"traceloop langchain tool", "execute_tool DynamicStructuredTool",
			map[string]string{"traceloop.span.kind": "task", "gen_ai.operation.name": "execute_tool", "gen_ai.provider.name": "langchain",
				"traceloop.entity.name": "DynamicStructuredTool", "traceloop.entity.input": `{"args":["{\"query\":\"q\"}"]}`},
			roleTool, "traceloop", "DynamicStructuredTool", true},
		{"traceloop planner task", "planner.task",
			map[string]string{"traceloop.span.kind": "task", "traceloop.entity.name": "planner"}, rolePlan, "traceloop", "", false},
		{"traceloop other task", "fetch_context.task",
			map[string]string{"traceloop.span.kind": "task", "traceloop.entity.name": "fetch_context"}, roleGenAI, "traceloop", "", false},
		{"traceloop workflow", "support.workflow",
			map[string]string{"traceloop.span.kind": "workflow", "traceloop.entity.name": "support"}, roleAgent, "traceloop", "", false},
		{"genai execute_tool", "execute_tool get_weather",
			map[string]string{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.call.arguments": `{"city":"Paris"}`},
			roleTool, "genai", "get_weather", true},
		{"genai invoke_workflow", "invoke_workflow triage",
			map[string]string{"gen_ai.operation.name": "invoke_workflow"}, roleAgent, "genai", "", false},
		{"genai plan", "plan triage", map[string]string{"gen_ai.operation.name": "plan"}, rolePlan, "genai", "", false},
		{"genai tool without arguments", "execute_tool now",
			map[string]string{"gen_ai.operation.name": "execute_tool"}, roleTool, "genai", "now", false},
		{"openinference tool", "search",
			map[string]string{"openinference.span.kind": "TOOL", "tool.name": "search", "input.value": `{"query":"q"}`},
			roleTool, "openinference", "search", true},
		{"aisdk tool", "ai.toolCall",
			map[string]string{"ai.operationId": "ai.toolCall", "ai.toolCall.name": "weather", "ai.toolCall.args": `{"city":"Oslo"}`},
			roleTool, "aisdk", "weather", true},
		{"aisdk 5+ input", "ai.toolCall",
			map[string]string{"ai.toolCall.name": "weather", "ai.toolCall.input": `{"city":"Oslo"}`},
			roleTool, "aisdk", "weather", true},
		// General rules: no family claims these spans.
		{"general: tool kind", "lookup",
			map[string]string{"myframework.span.kind": "tool", "gen_ai.tool.name": "lookup"}, roleTool, "general", "lookup", false},
		{"general: .tool suffix", "geocode.tool", nil, roleTool, "general", "geocode", false},
		{"traceloop tool without entity name", "search.tool", map[string]string{"traceloop.span.kind": "tool"}, roleTool, "traceloop", "search", false},
		{"general: argument carrier", "run step",
			map[string]string{"tool.name": "calc", "input.value": "2+2"}, roleTool, "general", "calc", true},
		{"general: a GenAI span", "embed", map[string]string{"gen_ai.request.model": "m"}, roleGenAI, "general", "", false},
		{"general: plain", "GET /", map[string]string{"http.request.method": "GET"}, roleNone, "general", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := pcommon.NewMap()
			for k, v := range tc.attrs {
				m.PutStr(k, v)
			}
			s := &span{name: tc.span, attrs: m, resource: pcommon.NewMap()}
			s.role, s.fam = classify(s)
			if s.role != tc.role || s.fam.name != tc.family {
				t.Fatalf("classify = role %d, family %s; want %d, %s", s.role, s.fam.name, tc.role, tc.family)
			}
			if tc.role != roleTool {
				return
			}
			if got := toolName(s); got != tc.tool {
				t.Errorf("tool = %q, want %q", got, tc.tool)
			}
			if got := argsDigest(s) != ""; got != tc.argsKnow {
				t.Errorf("arguments known = %v, want %v", got, tc.argsKnow)
			}
		})
	}
}

// TestFamiliesTable keeps the table honest: every family has a name, a
// marker and at least one key for the fields a tool call needs, and the
// general family reads every family's keys.
func TestFamiliesTable(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range families {
		if f.name == "" || f.marker == nil || seen[f.name] {
			t.Errorf("family %q: a unique name and a marker are required", f.name)
		}
		seen[f.name] = true
		if len(f.keys.toolName)+len(f.keys.args) == 0 {
			t.Errorf("family %s names no tool or argument key", f.name)
		}
		for _, k := range f.keys.args {
			found := false
			for _, g := range general.keys.args {
				found = found || g == k
			}
			if !found {
				t.Errorf("general family lacks %s's argument key %s", f.name, k)
			}
		}
	}
}
