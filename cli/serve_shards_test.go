package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// splitByRun writes the lines of the sample files into n files, each run
// (all its lines) in one of them, as a Collector routing by trace id sends
// each run to one receiver. Lines without a run id go to the first.
func splitByRun(t *testing.T, dir string, n int, files ...string) []string {
	t.Helper()
	outs := make([]*bytes.Buffer, n)
	for i := range outs {
		outs[i] = new(bytes.Buffer)
	}
	shardOf := map[string]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var ev struct {
				RunID string `json:"run_id"`
			}
			_ = json.Unmarshal(sc.Bytes(), &ev) // a line that is not JSON goes to shard 0
			k, ok := shardOf[ev.RunID]
			if !ok {
				k = len(shardOf) % n
				shardOf[ev.RunID] = k
			}
			outs[k].Write(sc.Bytes())
			outs[k].WriteByte('\n')
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	var paths []string
	for i, b := range outs {
		p := filepath.Join(dir, "shard"+string(rune('a'+i))+".jsonl")
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	if len(shardOf) < 2*n {
		t.Fatalf("fixture: %d runs for %d shards", len(shardOf), n)
	}
	return paths
}

// TestShardsReadAsOne: the sample runs split by run over three databases
// read as one (--db repeated, or a glob) give report, compare and history
// output byte-identical to one database holding everything.
func TestShardsReadAsOne(t *testing.T) {
	dir := t.TempDir()
	samples := []string{filepath.Join("..", "sample-traces", "baseline.jsonl"), filepath.Join("..", "sample-traces", "candidate.jsonl")}
	one := filepath.Join(dir, "one.duckdb")
	run(t, append([]string{"ingest", "--db", one, "--threads", "2"}, samples...)...)
	var shards []string
	for i, p := range splitByRun(t, dir, 3, samples...) {
		db := filepath.Join(dir, "shards", "s"+string(rune('0'+i))+".duckdb")
		if err := os.MkdirAll(filepath.Dir(db), 0o755); err != nil {
			t.Fatal(err)
		}
		run(t, "ingest", "--db", db, "--threads", "2", p)
		shards = append(shards, db)
	}
	repeated := []string{"--db", shards[0], "--db", shards[1], "--db", shards[2]}
	glob := []string{"--db", filepath.Join(dir, "shards", "*.duckdb")}
	commands := [][]string{
		{"report", "--format", "json"},
		{"report"},
		{"compare", "--baseline", "baseline", "--candidate", "candidate", "--format", "json"},
		{"history"},
	}
	for _, c := range commands {
		want, wantCode := runCode(append(append([]string{}, c...), "--db", one)...)
		for _, dbs := range [][]string{repeated, glob} {
			got, code := runCode(append(append([]string{}, c...), dbs...)...)
			if code != wantCode || got != want {
				t.Errorf("%s %s: exit %d, want %d; output differs from one database:\n%s\n--- want\n%s",
					strings.Join(c, " "), strings.Join(dbs, " "), code, wantCode, got, want)
			}
		}
		if len(want) < 100 {
			t.Errorf("%s: output too short to compare: %q", strings.Join(c, " "), want)
		}
	}
	if _, code := runCode("report", "--db", filepath.Join(dir, "none-*.duckdb")); code != 2 {
		t.Errorf("a glob matching nothing: exit %d, want 2", code)
	}
}

// runCode runs the command in-process and returns stdout and the exit code.
func runCode(args ...string) (string, int) {
	var out, errb bytes.Buffer
	code := Run(context.Background(), append(args, "--threads", "2"), Streams{Out: &out, Err: &errb})
	if code > 1 {
		return out.String() + errb.String(), code
	}
	return out.String(), code
}
