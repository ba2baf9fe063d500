package otlp

import (
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docs/otel-convention.md and its examples name only attributes and span
// events the decoder reads, and its tables name every attribute the
// convention has: a renamed key cannot leave the docs or a copy-pasted
// example behind.
func TestConventionDocMatchesTable(t *testing.T) {
	b, err := os.ReadFile("../docs/otel-convention.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	known := map[string]bool{
		KeyEventType: true, KeyRunID: true, KeyTS: true, KeySeq: true, KeySchemaVersion: true,
		KeyExtra: true, KeyStartedAt: true, KeyEndedAt: true,
		"faultlens.run": true, // the name of an exported run span without a run event
	}
	for typ := range typeFields {
		for _, f := range Fields(typ) {
			known[f.Key] = true
		}
	}
	known[EventPrefix+"evidence"], known[EventPrefix+"terminal"] = true, true
	required := maps.Clone(known)
	for typ := range typeFields {
		// faultlens.<type> carries any event type; only evidence and
		// terminal need their own words.
		known[EventPrefix+typ] = true
	}
	names := regexp.MustCompile(`faultlens\.[a-z_]+(\.[a-z_]+)*`)
	used := map[string]bool{}
	for _, n := range names.FindAllString(doc, -1) {
		if n == "faultlens.event" || strings.HasSuffix(n, ".md") {
			continue
		}
		used[n] = true
		if !known[n] {
			t.Errorf("docs/otel-convention.md names %s, which the convention does not have", n)
		}
	}
	for k := range required {
		if strings.HasPrefix(k, "faultlens.") && !used[k] {
			t.Errorf("docs/otel-convention.md does not document %s", k)
		}
	}
	for _, lang := range []string{"```ts\n", "```python\n"} {
		i := strings.Index(doc, lang)
		if i < 0 {
			t.Fatalf("no %s example", strings.TrimSpace(lang))
		}
		example := doc[i : i+strings.Index(doc[i+3:], "```")]
		for _, want := range []string{KeyEventType, KeyRunID, "faultlens.tool.idempotency_key", "faultlens.recovery_of",
			EventPrefix + "evidence", EventPrefix + "terminal", "gen_ai.tool.call.id"} {
			if !strings.Contains(example, `"`+want+`"`) {
				t.Errorf("the %s example does not use %s", strings.TrimSpace(lang), want)
			}
		}
	}
	if !slices.Contains(names.FindAllString(doc, -1), "faultlens.terminal.chunks_rejected") {
		t.Error("the terminal table lacks chunks_rejected")
	}
}
