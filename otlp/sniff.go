package otlp

import (
	"bytes"
	"encoding/json"
	"slices"
)

// Sniff reports whether a file that starts with prefix looks like OTLP/JSON:
// its first JSON value is an object with a resourceSpans, resourceMetrics or
// resourceLogs key (or their snake_case forms) among the keys that prefix
// holds in full. It is cheap and reads nothing beyond prefix, so an ingest
// layer can route .json and .jsonl files with a few kilobytes of each; a
// native contract line ({"type": ...}) is not OTLP.
func Sniff(prefix []byte) bool {
	prefix = bytes.TrimPrefix(prefix, utf8BOM)
	dec := json.NewDecoder(bytes.NewReader(prefix))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		key, _ := tok.(string)
		if slices.Contains(spanKeys, key) || slices.Contains(metricKeys, key) || slices.Contains(logKeys, key) {
			return true
		}
		if err := dec.Decode(new(json.RawMessage)); err != nil {
			return false
		}
	}
	return false
}
