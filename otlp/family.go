package otlp

import (
	"slices"
	"strings"
)

// family is one instrumentation family's vocabulary: how it marks its
// spans and which attributes carry what the contract needs. Each family is
// defined in a file of its own (family_*.go) and listed in families; the
// mapping reads every field through the span's family, so a new family is
// one such file and its fixtures.
type family struct {
	// name is how the docs and tests name the family.
	name string
	// marker claims a span by an attribute only this family sets and gives
	// its role. Markers are tried first, in the order of families.
	marker func(s *span) (role, bool)
	// byName claims a span by its name alone, for instrumentations that set
	// no marker; tried after every family's marker. nil when none.
	byName func(s *span) (role, bool)
	// keys are the attributes that carry each field, most specific first.
	keys attrKeys
	// spanTool reads a tool's name from its span name, when no attribute
	// gives it ("" when the name says nothing). nil when the name is used
	// as it is.
	spanTool func(name string) string
	// answer reads the run's final answer from its root span; found is
	// false when the root records none in this family's form. nil when the
	// family records no answer.
	answer func(root *span) answer
}

// attrKeys lists, per field the mapping reads, the attributes that carry it.
type attrKeys struct {
	toolName     []string // the tool's name on a tool span
	callID       []string // the model's id of the tool call
	args         []string // the tool call's arguments
	result       []string // the tool call's result (read for nothing yet but listed, see docs/otlp-mapping.md)
	provider     []string // the model's provider on a model span
	model        []string // the model's name
	inputTokens  []string
	outputTokens []string
	finish       []string // a model span's finish reason: a string, or a list whose last value counts
	agentName    []string // the agent's name on the run's spans
	agentID      []string
	agentVersion []string
	conversation []string // the conversation or session id
}

// families are the instrumentation families in the order their markers
// are tried. Traceloop comes first: its decorators' spans may also carry
// GenAI attributes, and its own attributes say more about them.
var families = []*family{&traceloopFamily, &genAIFamily, &openInferenceFamily, &aiSDKFamily}

// general reads the spans no family claims: every family's keys, in the
// order of families, and the general rules of generalRole. Its keys are set
// in init, since the families' readers refer to it.
var general = &family{name: "general", spanTool: generalSpanTool}

func init() { general.keys = unionKeys(families) }

// generalSpanTool reads a tool's name from "execute_tool {name}" or
// "{name}.tool".
func generalSpanTool(name string) string {
	if head, ok := strings.CutSuffix(name, ".tool"); ok && head != "" {
		return head
	}
	return genAISpanTool(name)
}

// classify decides a span's role and the family that reads it: every
// family's marker, then every family's span-name rules, then the general
// rules (generalRole).
func classify(s *span) (role, *family) {
	for _, f := range families {
		if r, ok := f.marker(s); ok {
			return r, f
		}
	}
	for _, f := range families {
		if f.byName == nil {
			continue
		}
		if r, ok := f.byName(s); ok {
			return r, f
		}
	}
	return generalRole(s), general
}

// pick returns the attribute keys of one field.
type pick func(k *attrKeys) []string

// The fields the mapping reads, as picks.
var (
	fieldToolName     pick = func(k *attrKeys) []string { return k.toolName }
	fieldCallID       pick = func(k *attrKeys) []string { return k.callID }
	fieldArgs         pick = func(k *attrKeys) []string { return k.args }
	fieldProvider     pick = func(k *attrKeys) []string { return k.provider }
	fieldModel        pick = func(k *attrKeys) []string { return k.model }
	fieldInputTokens  pick = func(k *attrKeys) []string { return k.inputTokens }
	fieldOutputTokens pick = func(k *attrKeys) []string { return k.outputTokens }
	fieldFinish       pick = func(k *attrKeys) []string { return k.finish }
	fieldAgentName    pick = func(k *attrKeys) []string { return k.agentName }
	fieldAgentID      pick = func(k *attrKeys) []string { return k.agentID }
	fieldAgentVersion pick = func(k *attrKeys) []string { return k.agentVersion }
	fieldConversation pick = func(k *attrKeys) []string { return k.conversation }
)

// keysFor returns the keys of a field for s: its family's, then every
// other family's, so that an attribute of another vocabulary on the span
// (the GenAI token counts on an AI SDK span) is still read.
func keysFor(s *span, p pick) []string {
	f := s.fam
	if f == nil {
		f = general
	}
	own := p(&f.keys)
	if f == general {
		return own
	}
	return append(slices.Clone(own), p(&general.keys)...)
}

// str reads the first non-empty attribute of a field.
func (s *span) str(p pick) string { return attrStr(s.attrs, keysFor(s, p)...) }

// int reads the first integer attribute of a field.
func (s *span) int(p pick) (int64, bool) { return attrInt(s.attrs, keysFor(s, p)...) }

// unionKeys merges the families' keys, field by field, in order, without
// repeats.
func unionKeys(fams []*family) attrKeys {
	var u attrKeys
	fields := func(k *attrKeys) []*[]string {
		return []*[]string{&k.toolName, &k.callID, &k.args, &k.result, &k.provider, &k.model,
			&k.inputTokens, &k.outputTokens, &k.finish, &k.agentName, &k.agentID, &k.agentVersion, &k.conversation}
	}
	dst := fields(&u)
	for _, f := range fams {
		for i, src := range fields(&f.keys) {
			for _, key := range *src {
				if !slices.Contains(*dst[i], key) {
					*dst[i] = append(*dst[i], key)
				}
			}
		}
	}
	return u
}

// generalRole is the last reading of a span no family claims: a tool-like
// kind attribute ("*.span.kind" = tool) or a span name ending in ".tool" or
// "_tool", or a known argument carrier, make a tool span; any gen_ai.*
// attribute a GenAI span with no event; anything else a plain span.
func generalRole(s *span) role {
	for k, v := range s.attrs.All() {
		if strings.HasSuffix(k, "span.kind") && strings.EqualFold(v.AsString(), "tool") {
			return roleTool
		}
	}
	name := strings.ToLower(strings.TrimSpace(s.name))
	if strings.HasSuffix(name, ".tool") || strings.HasSuffix(name, "_tool") {
		return roleTool
	}
	if attrStr(s.attrs, general.keys.args...) != "" && attrStr(s.attrs, general.keys.toolName...) != "" {
		return roleTool
	}
	for k := range s.attrs.All() {
		if strings.HasPrefix(k, "gen_ai.") {
			return roleGenAI
		}
	}
	return roleNone
}
