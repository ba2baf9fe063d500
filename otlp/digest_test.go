package otlp

import (
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

func TestArgsDigest(t *testing.T) {
	digest := func(raw map[string]any) string {
		m := pcommon.NewMap()
		if err := m.FromRaw(raw); err != nil {
			t.Fatal(err)
		}
		return argsDigest(&span{attrs: m})
	}
	// sha256(`{"lat":1,"lon":2}`), first 16 bytes.
	const latLon = "c7cb3ca638b28e19c410622e369f6f8e"
	same := []map[string]any{
		{"gen_ai.tool.call.arguments": `{"lat":1,"lon":2}`},
		{"gen_ai.tool.call.arguments": " {\n \"lon\": 2,\n \"lat\": 1 }\n"},
		{"gen_ai.tool.call.arguments": map[string]any{"lon": 2, "lat": 1}},
		{"input.value": `{"lat":1,"lon":2}`},
		{"tool.parameters": `{"lon":2,"lat":1}`},
		{"gen_ai.tool.call.arguments": "", "input.value": `{"lat":1,"lon":2}`},
	}
	for _, raw := range same {
		if got := digest(raw); got != latLon {
			t.Errorf("argsDigest(%v) = %s, want %s", raw, got, latLon)
		}
	}
	if got := digest(map[string]any{"gen_ai.tool.call.arguments": `{"lat":1,"lon":3}`}); got == latLon {
		t.Errorf("different arguments hash alike")
	}
	if got := digest(map[string]any{"gen_ai.tool.call.arguments": `{"id":12345678901234567890}`}); got != digest(map[string]any{"gen_ai.tool.call.arguments": `{"id": 12345678901234567890}`}) {
		t.Errorf("large numbers are not kept as written")
	}
	if a, b := digest(map[string]any{"gen_ai.tool.call.arguments": "not json"}), digest(map[string]any{"gen_ai.tool.call.arguments": "not json "}); a != b || a == "" {
		t.Errorf("plain text arguments: %q and %q, want one non-empty digest", a, b)
	}
	if got := digest(map[string]any{"gen_ai.tool.name": "x"}); got != "" {
		t.Errorf("no arguments: digest %q, want none", got)
	}
}
