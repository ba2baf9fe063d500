package otlp

import (
	"cmp"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// answer is a run's final answer as its framework records it on the run's
// root span, with the model's finish reason.
type answer struct {
	text   string
	finish string // normalised: stop, length, content-filter, error, tool-calls, ...
	found  bool   // whether the root span records an answer at all
}

// answerOf reads the final answer from the run's root span: in its own
// family's form first, then in every other family's (a plain root span
// over framework spans records nothing, and a framework may write another's
// attributes). Each family's answer reader says where it looks.
//
// When the root span names no finish reason, the last model span of the run
// that names one gives it (OpenInference puts llm.finish_reason only there).
func answerOf(r *run, models []*span) answer {
	root := r.root
	var a answer
	for _, f := range answerFamilies(root) {
		if a = f.answer(root); a.found {
			break
		}
	}
	if !a.found {
		return a
	}
	if a.finish == "" {
		for i := len(models) - 1; i >= 0; i-- {
			if f := finishOf(models[i]); f != "" {
				a.finish = f
				break
			}
		}
	}
	a.finish = normaliseFinish(a.finish)
	return a
}

// answerFamilies returns the families with an answer reader, the root's
// own first.
func answerFamilies(root *span) []*family {
	var out []*family
	if root.fam != nil && root.fam.answer != nil {
		out = append(out, root.fam)
	}
	for _, f := range families {
		if f.answer != nil && f != root.fam {
			out = append(out, f)
		}
	}
	return out
}

// finishOf reads a model span's finish reason: the first of its family's
// finish keys (then any family's) that it has; of a list, the last value.
func finishOf(s *span) string {
	for _, k := range keysFor(s, fieldFinish) {
		if reasons := attrStrings(s.attrs, k); len(reasons) > 0 {
			return reasons[len(reasons)-1]
		}
	}
	return ""
}

// genAIMessage is one message of gen_ai.output.messages.
type genAIMessage struct {
	Role  string `json:"role"`
	Parts []struct {
		Type    string          `json:"type"`
		Content json.RawMessage `json:"content"`
	} `json:"parts"`
	FinishReason string `json:"finish_reason"`
}

// genAIAnswer reads the last assistant message of gen_ai.output.messages:
// its text parts, joined, and its finish reason.
func genAIAnswer(root *span) answer {
	if !hasAttr(root, "gen_ai.output.messages") {
		return answer{}
	}
	var msgs []genAIMessage
	if json.Unmarshal([]byte(attrStr(root.attrs, "gen_ai.output.messages")), &msgs) != nil {
		return answer{}
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role != "assistant" {
			continue
		}
		var text strings.Builder
		for _, p := range m.Parts {
			var s string
			if p.Type == "text" && json.Unmarshal(p.Content, &s) == nil {
				text.WriteString(s)
			}
		}
		a := answer{text: text.String(), finish: m.FinishReason, found: true}
		if a.finish == "" {
			a.finish = finishOf(root)
		}
		return a
	}
	return answer{}
}

// lcMessage is a chat message in a LangChain/LangGraph state, plain
// ({"role", "content"}) or serialised ({"id": [..., "AIMessage"],
// "kwargs": {...}}).
type lcMessage struct {
	Role         string          `json:"role"`
	Type         string          `json:"type"`
	ID           json.RawMessage `json:"id"`
	Content      json.RawMessage `json:"content"`
	ResponseMeta lcResponseMeta  `json:"response_metadata"`
	Kwargs       *lcMessage      `json:"kwargs"`
}

type lcResponseMeta struct {
	FinishReason string `json:"finish_reason"`
}

// openInferenceAnswer reads OpenInference's output.value on the root span:
// plain text is the answer; a JSON state with "messages" gives its last
// message when the model wrote it; a JSON string is its text.
func openInferenceAnswer(root *span) answer {
	if !hasAttr(root, "output.value") {
		return answer{}
	}
	value := attrStr(root.attrs, "output.value")
	if !strings.Contains(strings.ToLower(attrStr(root.attrs, "output.mime_type")), "json") || !json.Valid([]byte(value)) {
		return answer{text: value, found: true}
	}
	var state struct {
		Messages []lcMessage `json:"messages"`
	}
	if json.Unmarshal([]byte(value), &state) != nil || len(state.Messages) == 0 {
		var s string
		if json.Unmarshal([]byte(value), &s) == nil {
			return answer{text: s, found: true}
		}
		return answer{}
	}
	last := state.Messages[len(state.Messages)-1]
	if !last.fromModel() {
		return answer{}
	}
	return answer{text: last.text(), finish: last.finish(), found: true}
}

// fromModel reports whether the message is the model's (assistant or AI).
func (m lcMessage) fromModel() bool {
	if m.Kwargs != nil {
		var id []string
		if json.Unmarshal(m.ID, &id) == nil && len(id) > 0 {
			return strings.HasPrefix(id[len(id)-1], "AIMessage")
		}
		return m.Kwargs.fromModel()
	}
	switch strings.ToLower(cmp.Or(m.Role, m.Type)) {
	case "assistant", "ai":
		return true
	}
	return false
}

// text returns the message's text content: a string, or its text blocks.
func (m lcMessage) text() string {
	if m.Kwargs != nil {
		return m.Kwargs.text()
	}
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	var b strings.Builder
	if json.Unmarshal(m.Content, &blocks) == nil {
		for _, bl := range blocks {
			if bl.Type == "text" {
				b.WriteString(bl.Text)
			}
		}
	}
	return b.String()
}

// finish returns the message's finish reason from its response metadata.
func (m lcMessage) finish() string {
	if m.Kwargs != nil {
		return m.Kwargs.finish()
	}
	return m.ResponseMeta.FinishReason
}

// normaliseFinish maps the frameworks' and providers' spellings of a finish
// reason to one: stop, length, content-filter, error, tool-calls, or the
// value itself, lower case with '-' for '_'.
func normaliseFinish(f string) string {
	f = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(f)), "_", "-")
	switch f {
	case "stop", "end-turn", "stop-sequence", "complete", "completed", "finished":
		return "stop"
	case "length", "max-tokens", "max-output-tokens":
		return "length"
	case "content-filter", "safety", "recitation", "refusal":
		return "content-filter"
	case "tool-calls", "tool-call", "tool-use", "function-call":
		return "tool-calls"
	}
	return f
}

// visibleChars counts the characters of an answer a user would see.
func visibleChars(text string) int64 {
	return int64(utf8.RuneCountInString(strings.TrimSpace(text)))
}

// hasAttr reports whether the span has the attribute at all.
func hasAttr(s *span, key string) bool {
	_, ok := s.attrs.Get(key)
	return ok
}
