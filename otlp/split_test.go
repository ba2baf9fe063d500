package otlp_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/internal/testdb"
	"github.com/faultlens/faultlens/metrics"
)

// TestTraceSplitAcrossFiles ingests each framework fixture with every trace
// split in two, one half per file, as a batching exporter sends a trace:
// the report must be the one of the whole file, and the files' events must
// add up to the whole file's. Both orders of arrival are tried, and a split
// in three where the first file holds only leaf spans that form no run.
func TestTraceSplitAcrossFiles(t *testing.T) {
	for _, name := range []string{"aisdk6", "aisdk7", "langgraph", "openai-agents"} {
		whole := filepath.Join("testdata", "frameworks", name+".jsonl")
		want, wantRes := ingestAll(t, whole)
		for _, split := range []struct {
			name  string
			parts []float64 // cut points, as fractions of each trace's spans in export order
			rev   bool
		}{
			{"halves", []float64{0.5}, false},
			{"halves, root first", []float64{0.5}, true},
			{"thirds, leaves first", []float64{0.1, 0.6}, false},
		} {
			t.Run(name+"/"+split.name, func(t *testing.T) {
				paths := splitFixture(t, whole, split.parts, split.rev)
				got, res := ingestAll(t, paths...)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("report of the split trace differs from the whole file's:\n got %+v\nwant %+v", got, want)
				}
				var events, lines int64
				for _, r := range res {
					events += r.Events
					lines += r.Lines
				}
				if events != wantRes[0].Events || lines != int64(len(paths))*wantRes[0].Lines {
					t.Errorf("files give %d events over %d lines, want %d events (the whole file's)", events, lines, wantRes[0].Events)
				}
			})
		}
	}
}

// splitFixture writes each line's spans (one trace per line) cut at the
// given fractions into one file per part, in export order, or reversed.
func splitFixture(t *testing.T, path string, cuts []float64, rev bool) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	parts := make([]bytes.Buffer, len(cuts)+1)
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(line)
		if err != nil {
			t.Fatal(err)
		}
		var all []ptrace.Span
		rs := td.ResourceSpans().At(0)
		for i := range rs.ScopeSpans().Len() {
			for j := range rs.ScopeSpans().At(i).Spans().Len() {
				all = append(all, rs.ScopeSpans().At(i).Spans().At(j))
			}
		}
		start := 0
		for p := range parts {
			end := len(all)
			if p < len(cuts) {
				end = int(cuts[p] * float64(len(all)))
			}
			out := ptrace.NewTraces()
			ors := out.ResourceSpans().AppendEmpty()
			rs.Resource().CopyTo(ors.Resource())
			oss := ors.ScopeSpans().AppendEmpty()
			rs.ScopeSpans().At(0).Scope().CopyTo(oss.Scope())
			for _, s := range all[start:end] {
				s.CopyTo(oss.Spans().AppendEmpty())
			}
			start = end
			doc, err := (&ptrace.JSONMarshaler{}).MarshalTraces(out)
			if err != nil {
				t.Fatal(err)
			}
			parts[p].Write(doc)
			parts[p].WriteByte('\n')
		}
	}
	dir := t.TempDir()
	var paths []string
	for i := range parts {
		p := filepath.Join(dir, "part"+string(rune('1'+i))+".jsonl")
		if err := os.WriteFile(p, parts[i].Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	if rev {
		for i, j := 0, len(paths)-1; i < j; i, j = i+1, j-1 {
			paths[i], paths[j] = paths[j], paths[i]
		}
	}
	return paths
}

// ingestAll ingests the files one call each (as separate nights, or
// separate requests would) and returns the report and the files' results.
func ingestAll(t *testing.T, paths ...string) (*metrics.Report, []ingest.FileResult) {
	t.Helper()
	db := testdb.Store(t)
	var all []ingest.FileResult
	for _, p := range paths {
		rs := testdb.Ingest(t, db, p)
		testdb.Clean(t, rs)
		all = append(all, rs...)
	}
	return reportOf(t, db), all
}
