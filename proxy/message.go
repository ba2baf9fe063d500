package proxy

import (
	"bytes"
	"encoding/json"
	"regexp"
)

// envelope is the part of a JSON-RPC message the proxy looks at. The
// message itself is forwarded as the bytes it arrived as; the envelope only
// decides what to do with it.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// parseEnvelope reads a message's envelope; ok is false for a batch (an
// array), for a line that is not a JSON object and for a message without
// method or id, which all pass through untouched.
func parseEnvelope(line []byte) (envelope, bool) {
	var e envelope
	t := bytes.TrimSpace(line)
	if len(t) == 0 || t[0] != '{' {
		return e, false
	}
	if err := json.Unmarshal(t, &e); err != nil {
		return e, false
	}
	if isNull(e.ID) {
		e.ID = nil
	}
	return e, e.Method != "" || e.ID != nil
}

func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(bytes.TrimSpace(raw)) == "null"
}

// isRequest says the message is a request (it has a method and an id).
func (e *envelope) isRequest() bool { return e.Method != "" && e.ID != nil }

// isResponse says the message answers a request (an id, no method).
func (e *envelope) isResponse() bool { return e.Method == "" && e.ID != nil }

// idKey is the request id as a map key: its JSON text, so 1 and "1" differ.
func idKey(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// callParams are the params of tools/call.
type callParams struct {
	Name      string                     `json:"name"`
	Arguments json.RawMessage            `json:"arguments"`
	Meta      map[string]json.RawMessage `json:"_meta"`
	// InputResponses and RequestState continue a multi round-trip call.
	InputResponses json.RawMessage `json:"inputResponses"`
	RequestState   string          `json:"requestState"`
}

var traceparent = regexp.MustCompile(`^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$`)

// traceID is the trace id of a W3C traceparent in _meta, or "".
func (c *callParams) traceID() string {
	v := c.metaString("traceparent")
	m := traceparent.FindStringSubmatch(v)
	if m == nil || m[1] == "00000000000000000000000000000000" {
		return ""
	}
	return m[1]
}

func (c *callParams) metaString(key string) string {
	raw, ok := c.Meta[key]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// response builds a JSON-RPC response to id with result.
func response(id json.RawMessage, result any) []byte {
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, result})
	return b
}

// errorResponse builds a JSON-RPC error response to id.
func errorResponse(id json.RawMessage, e rpcError) []byte {
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", id, e})
	return b
}

// withID returns msg with its id replaced (the re-sent initialize of a
// restarted server gets the proxy's own id).
func withID(msg []byte, id string) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(msg, &m); err != nil {
		return nil, err
	}
	m["id"], _ = json.Marshal(id)
	return json.Marshal(m)
}
