package otlp

import "strings"

// openInferenceFamily is Arize's OpenInference (its LangChain/LangGraph and
// OpenAI Agents SDK instrumentations among others): openinference.span.kind
// AGENT, CHAIN, LLM, TOOL, and the llm.* and tool.* attributes.
var openInferenceFamily = family{
	name:   "openinference",
	marker: openInferenceMarker,
	keys: attrKeys{
		toolName: []string{"tool.name"},
		callID:   []string{"tool_call.id", "tool.id"},
		// tool.parameters is, by the specification, the parameters'
		// definition; some instrumentations fill it with the arguments, so
		// it is the last resort.
		args:         []string{"input.value", "tool.parameters"},
		result:       []string{"output.value"},
		provider:     []string{"llm.provider", "llm.system"},
		model:        []string{"llm.model_name"},
		inputTokens:  []string{"llm.token_count.prompt"},
		outputTokens: []string{"llm.token_count.completion"},
		finish:       []string{"llm.finish_reason"},
		agentName:    []string{"agent.name"},
		conversation: []string{"session.id"},
	},
	answer: openInferenceAnswer,
}

// keyOpenInfKind decides an OpenInference span's role.
const keyOpenInfKind = "openinference.span.kind"

// openInferenceRoles maps openinference.span.kind values to roles; CHAIN
// spans are planning only when named so (isPlanName), other kinds
// (RETRIEVER, EMBEDDING, CHAIN, ...) GenAI spans with no event.
var openInferenceRoles = map[string]role{
	"AGENT": roleAgent,
	"LLM":   roleModel,
	"TOOL":  roleTool,
}

// openInferenceMarker claims a span by openinference.span.kind.
func openInferenceMarker(s *span) (role, bool) {
	kind := strings.ToUpper(attrStr(s.attrs, keyOpenInfKind))
	if kind == "" {
		return roleNone, false
	}
	if r, ok := openInferenceRoles[kind]; ok {
		return r, true
	}
	if kind == "CHAIN" && isPlanName(s.name) {
		return rolePlan, true
	}
	return roleGenAI, true
}
