package otlp

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzConvention feeds arbitrary input to the decoder through Convert,
// seeded with traces that use the convention (a hand-instrumented agent, a
// run written by export --format otlp, the TypeScript SDK's output, a
// framework's spans completed by faultlens.* attributes). It must never panic, its stats
// must add up, every line it writes must be a JSON object whose type and
// run_id are strings (ingest judges the rest, naming the field), and the same
// input must give the same output. Run it with:
//
//	go test ./otlp/ -run '^$' -fuzz FuzzConvention -fuzztime 30s -fuzzminimizetime 200x
func FuzzConvention(f *testing.F) {
	fixtures, err := filepath.Glob("testdata/convention/*.json")
	if err != nil {
		f.Fatal(err)
	}
	for _, path := range fixtures {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"22222222222222222222222222222222","spanId":"1111111111111111","parentSpanId":"1111111111111111","attributes":[{"key":"faultlens.event.type","value":{"stringValue":"stage"}},{"key":"faultlens.event.extra","value":{"stringValue":"{\"a\":{\"b\":NaN}}"}}],"events":[{"name":"faultlens.evidence","attributes":[{"key":"faultlens.event.ts","value":{"doubleValue":1e300}}]}]}]}]}]}`))
	// A framework's spans completed by the convention (the generic path).
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"44444444444444444444444444444444","spanId":"1111111111111111","name":"invoke_agent a","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"invoke_agent"}},{"key":"faultlens.task.evidence_required","value":{"intValue":"1"}}],"events":[{"name":"faultlens.terminal","attributes":[{"key":"faultlens.terminal","value":{"stringValue":"completed"}}]}]},{"traceId":"44444444444444444444444444444444","spanId":"2222222222222222","parentSpanId":"1111111111111111","name":"execute_tool t","attributes":[{"key":"faultlens.tool.side_effect","value":{"stringValue":"write"}}],"events":[{"name":"faultlens.evidence","attributes":[{"key":"faultlens.evidence.id","value":{"stringValue":"e"}}]}]}]}]}]}`))
	f.Fuzz(func(t *testing.T, input []byte) {
		var out bytes.Buffer
		stats, err := Convert(bytes.NewReader(input), Options{}, &out)
		if stats.AgentSpans+stats.NonAgentSpans != stats.Spans {
			t.Fatalf("stats do not add up: %+v", stats)
		}
		if err == nil && (stats.Runs > 0) != (out.Len() > 0) {
			t.Fatalf("%d runs but %d bytes written", stats.Runs, out.Len())
		}
		runs := map[string]bool{}
		for _, line := range bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			var ev map[string]any
			if err := json.Unmarshal(line, &ev); err != nil {
				t.Fatalf("not a JSON object: %s: %v", line, err)
			}
			_, ok1 := ev["type"].(string)
			id, ok2 := ev["run_id"].(string)
			if !ok1 || !ok2 {
				t.Fatalf("type or run_id is not a string: %s", line)
			}
			runs[id] = true
		}
		if len(runs) > stats.Runs {
			t.Fatalf("%d run ids written, %d runs counted", len(runs), stats.Runs)
		}
		var again bytes.Buffer
		if _, err := Convert(bytes.NewReader(input), Options{}, &again); err == nil && !bytes.Equal(again.Bytes(), out.Bytes()) {
			t.Fatal("the same input converted twice gives different output")
		}
	})
}
