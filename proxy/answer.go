package proxy

import (
	"encoding/json"
	"fmt"
)

// wireError is the error object an agent reads in structuredContent.error
// (or in a JSON-RPC error's data): seed 004's fields plus the call id the
// proxy recorded, so an agent's own log can name the same call.
type wireError struct {
	Code            string `json:"code"`
	Category        string `json:"category"`
	Retryable       bool   `json:"retryable"`
	RetryAfterMs    int64  `json:"retry_after_ms,omitempty"`
	RetryAfter      int64  `json:"retry_after,omitempty"`
	SideEffectState string `json:"side_effect_state"`
	Message         string `json:"message"`
	CallID          string `json:"call_id"`
	TraceID         string `json:"trace_id,omitempty"`
	Circuit         string `json:"circuit,omitempty"`
}

func (c *call) wire(e errInfo) wireError {
	w := wireError{
		Code: e.Code, Category: e.Category, Retryable: e.Retryable, RetryAfterMs: e.RetryAfterMs,
		SideEffectState: e.SideEffect, Message: e.Message, CallID: c.callID, TraceID: c.traceID, Circuit: c.circuit,
	}
	if e.RetryAfterMs > 0 {
		w.RetryAfter = (e.RetryAfterMs + 999) / 1000
	}
	return w
}

type textContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// errorResult is the isError tool result an injected fault answers with.
func (c *call) errorResult(e errInfo) []byte {
	w := c.wire(e)
	return response(c.id, struct {
		Content           []textContent `json:"content"`
		StructuredContent any           `json:"structuredContent"`
		IsError           bool          `json:"isError"`
	}{
		Content:           []textContent{{"text", fmt.Sprintf("%s (%s): %s", e.Category, e.Code, e.Message)}},
		StructuredContent: map[string]wireError{"error": w},
		IsError:           true,
	})
}

// protocolError is the JSON-RPC error a transport-level fault answers with.
func (c *call) protocolError(e errInfo) []byte {
	data, _ := json.Marshal(c.wire(e))
	return errorResponse(c.id, rpcError{Code: -32000, Message: e.Message, Data: data})
}

// serverResult is the part of a tools/call result the proxy judges.
type serverResult struct {
	Content           []json.RawMessage `json:"content"`
	StructuredContent json.RawMessage   `json:"structuredContent"`
	IsError           bool              `json:"isError"`
}

// judge sets the call's status and error from the server's own answer. A
// server that already speaks seed 004 (structuredContent.error with a
// category) is taken at its word; any other error is INTERNAL.
func (c *call) judge(env *envelope) {
	if env.Error != nil {
		c.status = "error"
		c.err = &errInfo{Code: fmt.Sprint(env.Error.Code), Category: "INTERNAL", SideEffect: "unknown", Message: env.Error.Message}
		return
	}
	var r serverResult
	if json.Unmarshal(env.Result, &r) != nil || !r.IsError {
		c.status = "ok"
		return
	}
	c.status = "error"
	var s struct {
		Error *struct {
			Code         string `json:"code"`
			Category     string `json:"category"`
			Retryable    bool   `json:"retryable"`
			RetryAfterMs int64  `json:"retry_after_ms"`
			SideEffect   string `json:"side_effect_state"`
			Message      string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(r.StructuredContent, &s) == nil && s.Error != nil && s.Error.Category != "" {
		e := s.Error
		c.err = &errInfo{e.Code, e.Category, e.Retryable, e.RetryAfterMs, e.SideEffect, e.Message}
		return
	}
	msg := ""
	for _, raw := range r.Content {
		var t textContent
		if json.Unmarshal(raw, &t) == nil && t.Type == "text" {
			msg = t.Text
			break
		}
	}
	c.err = &errInfo{Code: "TOOL_ERROR", Category: "INTERNAL", SideEffect: "unknown", Message: msg}
}

// cutShort is the server's result with only its first keep content items
// (half when keep is 0) and a structuredContent saying so.
func (c *call) cutShort(env *envelope, keep int) ([]byte, error) {
	var r map[string]json.RawMessage
	if err := json.Unmarshal(env.Result, &r); err != nil {
		return nil, err
	}
	var content []json.RawMessage
	if raw, ok := r["content"]; ok {
		if err := json.Unmarshal(raw, &content); err != nil {
			return nil, err
		}
	}
	n := len(content)
	if keep == 0 {
		keep = n / 2
	}
	keep = min(keep, n)
	if content == nil {
		content = []json.RawMessage{}
	}
	r["content"], _ = json.Marshal(content[:keep])
	r["structuredContent"], _ = json.Marshal(map[string]any{"partial": true, "kept": keep, "of": n})
	return response(c.id, r), nil
}
