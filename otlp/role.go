package otlp

import "strings"

// role is what a span is to the contract.
type role int

const (
	roleNone  role = iota // a plain span: HTTP, gRPC, database, ...
	roleGenAI             // a span of an agent framework with no contract event (embeddings, retrieval, ...)
	roleAgent             // invoke_agent, invoke_workflow, OpenInference AGENT, ...: a run
	rolePlan              // plan: a planning stage
	roleModel             // chat, text_completion, OpenInference LLM, ...: a model_call
	roleTool              // execute_tool, OpenInference TOOL, ...: a tool_call
)

// isPlanName reports whether a span name says planning: "plan",
// "planning" or "planner", alone or followed by the agent name, or as the
// first part of a dotted name ("planner.task").
func isPlanName(name string) bool {
	w := strings.ToLower(firstWord(name))
	if head, _, ok := strings.Cut(w, "."); ok {
		w = head
	}
	switch w {
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
