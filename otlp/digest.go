package otlp

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

// argsDigest hashes a tool call's normalised arguments, read through the
// span's family (its args keys, most specific first, then every other
// family's): the hex of the first 16 bytes of their SHA-256, or "" when the
// span records no arguments, which leaves them unknown. Arguments given as a
// JSON string and as a structured attribute hash alike when they hold the
// same JSON (object keys sorted, numbers kept as written).
func argsDigest(s *span) string {
	for _, k := range keysFor(s, fieldArgs) {
		v, ok := s.attrs.Get(k)
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
