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
		_ = Sniff(input)
		_, _ = Convert(bytes.NewReader(input), Options{Suite: "s"}, io.Discard)
	})
}

// isGoldenFile reports whether a testdata file holds expected output.
func isGoldenFile(path string) bool {
	return strings.HasSuffix(path, ".want.jsonl") || strings.HasSuffix(path, ".got.jsonl")
}
