package otlp

import (
	"strings"
)

// role is what a span is to the contract.
type role int

const (
	roleNone  role = iota // a plain span: HTTP, gRPC, database, ...
	roleGenAI             // a GenAI or OpenInference span with no contract event (embeddings, retrieval, ...)
	roleAgent             // invoke_agent, invoke_workflow, OpenInference AGENT: a run
	rolePlan              // plan: a planning stage
	roleModel             // chat, text_completion, generate_content, OpenInference LLM: a model_call
	roleTool              // execute_tool, OpenInference TOOL: a tool_call
)

// Attribute keys of the OpenTelemetry GenAI conventions and OpenInference
// that decide a span's role.
const (
	keyOperation   = "gen_ai.operation.name"
	keyOpenInfKind = "openinference.span.kind"
	keyAIOperation = "ai.operationId"
)

// aiSDKRoles maps the Vercel AI SDK's own span names (AI SDK 6 and older,
// also in ai.operationId) to roles. The SDK names its spans after the
// function called: the outer span is the agent loop, doGenerate/doStream is
// one call of the model, ai.toolCall one execution of a tool. Embedding,
// reranking and object spans are GenAI spans with no contract event.
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

// operationRoles maps gen_ai.operation.name values (and the first word of
// span names, which the conventions build as "{operation} {target}") to roles.
var operationRoles = map[string]role{
	"invoke_agent":     roleAgent,
	"invoke_workflow":  roleAgent,
	"plan":             rolePlan,
	"chat":             roleModel,
	"text_completion":  roleModel,
	"generate_content": roleModel,
	"execute_tool":     roleTool,
}

// openInferenceRoles maps openinference.span.kind values to roles; CHAIN
// spans are planning only when named so (see isPlanName).
var openInferenceRoles = map[string]role{
	"AGENT": roleAgent,
	"LLM":   roleModel,
	"TOOL":  roleTool,
}

// classify decides a span's role: gen_ai.operation.name first, then
// openinference.span.kind, then the AI SDK's ai.operationId, then the span
// name for instrumentations that set none of these attributes.
func classify(s *span) role {
	if op := strings.ToLower(attrStr(s.attrs, keyOperation)); op != "" {
		if r, ok := operationRoles[op]; ok {
			return r
		}
		return roleGenAI
	}
	if kind := strings.ToUpper(attrStr(s.attrs, keyOpenInfKind)); kind != "" {
		if r, ok := openInferenceRoles[kind]; ok {
			return r
		}
		if kind == "CHAIN" && isPlanName(s.name) {
			return rolePlan
		}
		return roleGenAI
	}
	if op := attrStr(s.attrs, keyAIOperation); op != "" {
		if r, ok := aiSDKRoles[op]; ok {
			return r
		}
		return roleGenAI
	}
	if r, ok := aiSDKRoles[strings.TrimSpace(s.name)]; ok {
		return r
	}
	if isPlanName(s.name) {
		return rolePlan
	}
	if r, ok := operationRoles[strings.ToLower(firstWord(s.name))]; ok {
		return r
	}
	for k := range s.attrs.All() {
		if strings.HasPrefix(k, "gen_ai.") {
			return roleGenAI
		}
	}
	return roleNone
}

// isPlanName reports whether a span name says planning: "plan",
// "planning" or "planner", alone or followed by the agent name.
func isPlanName(name string) bool {
	switch strings.ToLower(firstWord(name)) {
	case "plan", "planning", "planner":
		return true
	}
	return false
}

// firstWord returns name up to its first space.
func firstWord(name string) string {
	w, _, _ := strings.Cut(strings.TrimSpace(name), " ")
	return w
}
