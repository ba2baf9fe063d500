package otlp

import "testing"

// TestClassifyAISDK pins the roles of the Vercel AI SDK's own span names,
// by ai.operationId and, without it, by span name; other ai.* operations
// are GenAI spans with no event, and GenAI attributes still come first.
func TestClassifyAISDK(t *testing.T) {
	cases := []struct {
		name  string
		attrs map[string]string
		want  role
	}{
		{"ai.generateText", map[string]string{"ai.operationId": "ai.generateText"}, roleAgent},
		{"ai.streamText", map[string]string{"ai.operationId": "ai.streamText"}, roleAgent},
		{"ai.streamText.doStream", map[string]string{"ai.operationId": "ai.streamText.doStream"}, roleModel},
		{"ai.generateObject.doGenerate", map[string]string{"ai.operationId": "ai.generateObject.doGenerate"}, roleModel},
		{"ai.toolCall", map[string]string{"ai.operationId": "ai.toolCall"}, roleTool},
		{"ai.embed", map[string]string{"ai.operationId": "ai.embed"}, roleGenAI},
		{"ai.toolCall", nil, roleTool},
		{"ai.streamObject", nil, roleAgent},
		{"ai.somethingNew", nil, roleNone},
		{"my span", map[string]string{"ai.operationId": "ai.toolCall", "gen_ai.operation.name": "chat"}, roleModel},
	}
	for _, tc := range cases {
		s := spanWith(tc.attrs)
		s.name = tc.name
		if got, _ := classify(s); got != tc.want {
			t.Errorf("classify(%q, %v) = %d, want %d", tc.name, tc.attrs, got, tc.want)
		}
	}
}
