package otlp

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSniff(t *testing.T) {
	cases := map[string]bool{
		`{"resourceSpans":[`:                          true,
		`{"resourceMetrics":[{"resource":{}}]}`:       true,
		`{"resourceLogs":[]}`:                         true,
		`{"resource_spans":[]}`:                       true,
		"\xEF\xBB\xBF  \n{\n  \"resourceSpans\": [\n": true,
		`{"schemaUrl":"x","resourceSpans":[]}`:        true,
		`{"type":"run","run_id":"r1"}`:                false,
		`{"type":"tool_call","resourceSpans":1}`:      true,
		`{"partial":"unterminated`:                    false,
		`[{"resourceSpans":[]}]`:                      false,
		`resourceSpans`:                               false,
		``:                                            false,
		`{}`:                                          false,
	}
	for prefix, want := range cases {
		if got := Sniff([]byte(prefix)); got != want {
			t.Errorf("Sniff(%q) = %v, want %v", prefix, got, want)
		}
	}
}

func TestSniffFixtures(t *testing.T) {
	for _, tc := range goldenCases {
		for path, want := range map[string]bool{tc.fixture: true, tc.golden: false} {
			b, err := os.ReadFile(filepath.Join("testdata", path))
			if err != nil {
				t.Fatal(err)
			}
			if got := Sniff(b[:min(len(b), 4096)]); got != want && len(b) > 0 {
				t.Errorf("Sniff(%s) = %v, want %v", path, got, want)
			}
		}
	}
}
