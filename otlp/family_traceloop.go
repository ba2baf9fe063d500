package otlp

import (
	"encoding/json"
	"strings"
)

// traceloopFamily is OpenLLMetry (Traceloop's @traceloop/node-server-sdk and
// traceloop-sdk): its workflow, agent, task and tool decorators name their
// spans "{name}.{kind}" and mark them with traceloop.span.kind, the entity's
// name, input and output. Its model instrumentations (OpenAI, LangChain's
// chat models, ...) write the GenAI conventions and are read as such.
var traceloopFamily = family{
	name:   "traceloop",
	marker: traceloopMarker,
	keys: attrKeys{
		// Under its LangChain instrumentation gen_ai.tool.name is the tool's
		// class (DynamicStructuredTool); the entity name is the tool's own.
		toolName:     []string{"traceloop.entity.name", "gen_ai.tool.name"},
		callID:       []string{"gen_ai.tool.call.id"},
		args:         []string{"traceloop.entity.input", "gen_ai.tool.call.arguments"},
		result:       []string{"traceloop.entity.output"},
		agentName:    []string{"gen_ai.agent.name", "traceloop.workflow.name"},
		conversation: []string{"gen_ai.conversation.id"},
	},
	spanTool: generalSpanTool,
	answer:   traceloopAnswer,
}

// keyTraceloopKind decides a Traceloop decorator span's role.
const keyTraceloopKind = "traceloop.span.kind"

// traceloopMarker claims a span by traceloop.span.kind: a workflow or agent
// is a run, a tool a tool call, a task named planning ("planner.task") a
// planning stage. A task that states a GenAI operation takes its role: the
// LangChain instrumentation marks its tool spans as tasks with
// gen_ai.operation.name execute_tool. Other tasks are GenAI spans with no
// event.
func traceloopMarker(s *span) (role, bool) {
	switch strings.ToLower(attrStr(s.attrs, keyTraceloopKind)) {
	case "":
		return roleNone, false
	case "workflow", "agent":
		return roleAgent, true
	case "tool":
		return roleTool, true
	case "task":
		if r, ok := genAIMarker(s); ok && r != roleGenAI {
			return r, true
		}
		if isPlanName(attrStr(s.attrs, "traceloop.entity.name")) || isPlanName(s.name) {
			return rolePlan, true
		}
	}
	return roleGenAI, true
}

// traceloopAnswer reads the workflow's result, traceloop.entity.output,
// when it is text (a JSON string): what the agent returned. The finish
// reason comes from the last model span (answerOf).
func traceloopAnswer(root *span) answer {
	out := attrStr(root.attrs, "traceloop.entity.output")
	var text string
	if out == "" || json.Unmarshal([]byte(out), &text) != nil {
		return answer{}
	}
	return answer{text: text, found: true}
}
