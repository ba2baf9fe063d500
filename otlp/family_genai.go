package otlp

import "strings"

// genAIFamily is the OpenTelemetry GenAI semantic conventions, as they
// stand (invoke_agent, invoke_workflow, plan, chat, execute_tool spans;
// gen_ai.provider.name, gen_ai.tool.call.arguments) and in their older
// forms (gen_ai.system, gen_ai.usage.prompt_tokens). The AI SDK 7, the
// OpenTelemetry contrib OpenAI instrumentation and Traceloop's model
// instrumentations write them.
var genAIFamily = family{
	name:   "genai",
	marker: genAIMarker,
	byName: genAIByName,
	keys: attrKeys{
		toolName:     []string{"gen_ai.tool.name"},
		callID:       []string{"gen_ai.tool.call.id"},
		args:         []string{"gen_ai.tool.call.arguments"},
		result:       []string{"gen_ai.tool.call.result"},
		provider:     []string{"gen_ai.provider.name", "gen_ai.system"},
		model:        []string{"gen_ai.response.model", "gen_ai.request.model"},
		inputTokens:  []string{"gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens"},
		outputTokens: []string{"gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens"},
		finish:       []string{"gen_ai.response.finish_reasons"},
		agentName:    []string{"gen_ai.agent.name"},
		agentID:      []string{"gen_ai.agent.id"},
		agentVersion: []string{"gen_ai.agent.version"},
		conversation: []string{"gen_ai.conversation.id"},
	},
	spanTool: genAISpanTool,
	answer:   genAIAnswer,
}

// keyOperation decides a GenAI span's role.
const keyOperation = "gen_ai.operation.name"

// operationRoles maps gen_ai.operation.name values (and the first word of
// span names, which the conventions build as "{operation} {target}") to
// roles; other operations (embeddings, retrieval, agent_step, ...) are
// GenAI spans with no event.
var operationRoles = map[string]role{
	"invoke_agent":     roleAgent,
	"invoke_workflow":  roleAgent,
	"plan":             rolePlan,
	"chat":             roleModel,
	"text_completion":  roleModel,
	"generate_content": roleModel,
	"execute_tool":     roleTool,
}

// genAIMarker claims a span by gen_ai.operation.name.
func genAIMarker(s *span) (role, bool) {
	op := strings.ToLower(attrStr(s.attrs, keyOperation))
	if op == "" {
		return roleNone, false
	}
	if r, ok := operationRoles[op]; ok {
		return r, true
	}
	return roleGenAI, true
}

// genAIByName reads a span that sets no operation by its name: "plan …"
// (and "planning", "planner") or "{operation} {target}".
func genAIByName(s *span) (role, bool) {
	if isPlanName(s.name) {
		return rolePlan, true
	}
	r, ok := operationRoles[strings.ToLower(firstWord(s.name))]
	return r, ok
}

// genAISpanTool reads the tool's name from "execute_tool {name}".
func genAISpanTool(name string) string {
	if rest, ok := strings.CutPrefix(name, "execute_tool"); ok && (rest == "" || rest[0] == ' ') {
		return strings.TrimSpace(rest)
	}
	return name
}
