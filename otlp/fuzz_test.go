package otlp

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzConvert feeds arbitrary input to Convert: it must never panic, and
// whatever it writes must be contract events. The seed corpus is every
// fixture in testdata. Run it with a bound on minimisation, which is slow
// on inputs as large as the fixtures:
//
//	go test ./otlp/ -run '^$' -fuzz FuzzConvert -fuzztime 30s -fuzzminimizetime 200x
func FuzzConvert(f *testing.F) {
	fixtures, err := filepath.Glob("testdata/*.json*")
	if err != nil {
		f.Fatal(err)
	}
	// The real frameworks' telemetry (scripts/otel-fixtures), one trace
	// per line: each line is a seed of its own, small enough to mutate.
	frameworks, err := filepath.Glob("testdata/frameworks/*.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	for _, path := range frameworks {
		if isGoldenFile(path) {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
			f.Add(line)
		}
	}
	for _, path := range fixtures {
		if isGoldenFile(path) {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"","spanId":"","name":"invoke_agent"},{"name":"execute_tool x"}]}]}]}`))
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"spanId":"0000000000000001","parentSpanId":"0000000000000002","name":"invoke_agent a"},{"spanId":"0000000000000002","parentSpanId":"0000000000000001","name":"chat"}]}]}]}`))
	f.Fuzz(func(t *testing.T, input []byte) {
		var out bytes.Buffer
		stats, err := Convert(bytes.NewReader(input), Options{}, &out)
		if err != nil && stats.Runs > 0 {
			t.Fatalf("error %v with %d runs", err, stats.Runs)
		}
		if stats.AgentSpans+stats.NonAgentSpans != stats.Spans {
			t.Fatalf("stats do not add up: %+v", stats)
		}
		if verr := validateEvents(out.Bytes()); verr != nil {
			t.Fatal(verr)
		}
		// Any input may be refused: only a panic fails these two.
		_ = Sniff(input)
		_, _ = Convert(bytes.NewReader(input), Options{Suite: "s"}, io.Discard)
	})
}

// isGoldenFile reports whether a testdata file holds expected output.
func isGoldenFile(path string) bool {
	return strings.HasSuffix(path, ".want.jsonl") || strings.HasSuffix(path, ".got.jsonl")
}

// FuzzFinishTerminal feeds arbitrary answer attributes (the AI SDK's
// ai.response.text, GenAI gen_ai.output.messages, OpenInference
// output.value) to the answer reader: it must never panic, and a terminal
// it derives must be in the contract's enum with a non-negative length.
func FuzzFinishTerminal(f *testing.F) {
	f.Add("ai.response.text", "Done.", "stop", "")
	f.Add("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"Paris"}],"finish_reason":"stop"}]`, "", "application/json")
	f.Add("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":7}]}]`, "length", "")
	f.Add("output.value", `{"messages":[{"lc":1,"id":["langchain_core","messages","AIMessage"],"kwargs":{"content":[{"type":"text","text":"hi"}],"response_metadata":{"finish_reason":"stop"}}}]}`, "", "application/json")
	f.Add("output.value", `{"messages":[{"kwargs":{"kwargs":{"kwargs":{}}}}]}`, "", "application/json")
	f.Add("output.value", `"just a string"`, "STOP", "application/json")
	f.Fuzz(func(t *testing.T, key, value, finish, mime string) {
		root := spanWith(map[string]string{key: value, "output.mime_type": mime, "ai.response.finishReason": finish})
		model := spanWith(map[string]string{"llm.finish_reason": finish})
		ev := finishTerminal(&run{root: root}, []*span{model})
		if ev == nil {
			return
		}
		if !terminalStates[ev.Terminal] || (ev.Reason != "" && !terminalReasons[ev.Reason]) {
			t.Fatalf("terminal %q reason %q outside the contract", ev.Terminal, ev.Reason)
		}
		if ev.VisibleChars != nil && *ev.VisibleChars < 0 {
			t.Fatalf("visible_chars %d", *ev.VisibleChars)
		}
	})
}

// FuzzAddStored feeds arbitrary stored documents to a batch: a broken one
// is an error, never a panic, and whatever is added still maps to contract
// events and stores again.
func FuzzAddStored(f *testing.F) {
	b, err := os.ReadFile("testdata/frameworks/aisdk7.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	first, _, _ := bytes.Cut(b, []byte("\n"))
	f.Add(first)
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"b7ad6b7169203331","name":"ai.toolCall"}]}]}]}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		batch, err := ReadBatch(bytes.NewReader(first))
		if err != nil {
			t.Fatal(err)
		}
		_ = batch.AddStored(doc) // a broken document is refused; what follows checks the rest still maps
		var out bytes.Buffer
		if err := batch.WriteRuns(Options{}, &out); err != nil {
			t.Fatal(err)
		}
		if verr := validateEvents(out.Bytes()); verr != nil {
			t.Fatal(verr)
		}
		if err := batch.EachTraceDoc(func(string, []byte) error { return nil }); err != nil {
			t.Fatal(err)
		}
	})
}
