package otlp

import "strings"

// aiSDKFamily is the Vercel AI SDK's own telemetry (AI SDK 6 and older,
// experimental_telemetry): ai.* spans named after the function called. The
// outer span is the agent loop, doGenerate/doStream one call of the model,
// ai.toolCall one execution of a tool. AI SDK 7 writes the GenAI
// conventions instead (genAIFamily).
var aiSDKFamily = family{
	name:   "aisdk",
	marker: aiSDKMarker,
	byName: aiSDKByName,
	keys: attrKeys{
		toolName: []string{"ai.toolCall.name"},
		callID:   []string{"ai.toolCall.id"},
		// AI SDK 5 and 6 write ai.toolCall.args; later releases
		// ai.toolCall.input.
		args:         []string{"ai.toolCall.args", "ai.toolCall.input"},
		result:       []string{"ai.toolCall.result", "ai.toolCall.output"},
		provider:     []string{"gen_ai.system", "ai.model.provider"},
		model:        []string{"gen_ai.response.model", "gen_ai.request.model", "ai.response.model", "ai.model.id"},
		inputTokens:  []string{"gen_ai.usage.input_tokens", "ai.usage.inputTokens", "ai.usage.promptTokens"},
		outputTokens: []string{"gen_ai.usage.output_tokens", "ai.usage.outputTokens", "ai.usage.completionTokens"},
		finish:       []string{"ai.response.finishReason", "gen_ai.response.finish_reasons"},
		agentName:    []string{"ai.telemetry.functionId"},
	},
	answer: aiSDKAnswer,
}

// keyAIOperation decides an AI SDK span's role.
const keyAIOperation = "ai.operationId"

// aiSDKRoles maps the SDK's span names (also in ai.operationId) to roles.
// Embedding, reranking and other ai.* operations are GenAI spans with no
// event.
var aiSDKRoles = map[string]role{
	"ai.generateText":              roleAgent,
	"ai.streamText":                roleAgent,
	"ai.generateObject":            roleAgent,
	"ai.streamObject":              roleAgent,
	"ai.generateText.doGenerate":   roleModel,
	"ai.streamText.doStream":       roleModel,
	"ai.generateObject.doGenerate": roleModel,
	"ai.streamObject.doStream":     roleModel,
	"ai.toolCall":                  roleTool,
}

// aiSDKMarker claims a span by ai.operationId.
func aiSDKMarker(s *span) (role, bool) {
	op := attrStr(s.attrs, keyAIOperation)
	if op == "" {
		return roleNone, false
	}
	if r, ok := aiSDKRoles[op]; ok {
		return r, true
	}
	return roleGenAI, true
}

// aiSDKByName reads an ai.* span that lost its ai.operationId.
func aiSDKByName(s *span) (role, bool) {
	r, ok := aiSDKRoles[strings.TrimSpace(s.name)]
	return r, ok
}

// aiSDKAnswer reads ai.response.text and ai.response.finishReason.
func aiSDKAnswer(root *span) answer {
	if !hasAttr(root, "ai.response.text") {
		return answer{}
	}
	return answer{text: attrStr(root.attrs, "ai.response.text"), finish: attrStr(root.attrs, "ai.response.finishReason"), found: true}
}
