package otlp

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

// argsKeys are the attributes that may hold a tool call's arguments, most
// specific first: the GenAI convention, the AI SDK's ai.toolCall.args
// (AI SDK 6 and older), OpenInference's input.value on a
// TOOL span, and OpenInference's tool.parameters, which some
// instrumentations fill with the arguments (the specification calls it the
// parameters' definition, so it is the last resort).
var argsKeys = []string{"gen_ai.tool.call.arguments", "ai.toolCall.args", "input.value", "tool.parameters"}

// argsDigest hashes a tool call's normalised arguments: the hex of the first
// 16 bytes of their SHA-256, or "" when the span records no arguments.
// Arguments given as a JSON string and as a structured attribute hash alike
// when they hold the same JSON (object keys sorted, numbers kept as written).
func argsDigest(attrs pcommon.Map) string {
	for _, k := range argsKeys {
		v, ok := attrs.Get(k)
		if !ok {
			continue
		}
		if b := normaliseArgs(v); len(b) > 0 {
			sum := sha256.Sum256(b)
			return hex.EncodeToString(sum[:16])
		}
	}
	return ""
}

// normaliseArgs renders an arguments attribute as canonical bytes.
func normaliseArgs(v pcommon.Value) []byte {
	switch v.Type() {
	case pcommon.ValueTypeMap, pcommon.ValueTypeSlice:
		return canonicalJSON(v.AsRaw())
	case pcommon.ValueTypeStr:
		s := bytes.TrimSpace([]byte(v.Str()))
		if !json.Valid(s) {
			return s
		}
		dec := json.NewDecoder(bytes.NewReader(s))
		dec.UseNumber()
		var x any
		if dec.Decode(&x) == nil {
			if b := canonicalJSON(x); b != nil {
				return b
			}
		}
		return s
	}
	return []byte(v.AsString())
}

// canonicalJSON marshals a decoded JSON value; encoding/json sorts map keys.
func canonicalJSON(x any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return nil
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
