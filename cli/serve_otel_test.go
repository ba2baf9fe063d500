package cli

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/faultlens/faultlens/metrics"
)

// TestServeOTelJS sends agent runs with the real OpenTelemetry JS SDK
// exporters (protobuf, then JSON with gzip) to the command running as its
// own process, SIGTERMs it, and checks the served database against the same
// spans serialized by the SDK and read as a file. It needs node and
// scripts/otel-serve-e2e/node_modules (scripts/serve-e2e.sh installs it
// with npm ci); without them it skips, saying so.
func TestServeOTelJS(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH")
	}
	dir, _ := filepath.Abs("../scripts/otel-serve-e2e")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@opentelemetry", "exporter-trace-otlp-proto")); err != nil {
		t.Skip("scripts/otel-serve-e2e/node_modules is not installed: run scripts/serve-e2e.sh (npm ci) once")
	}
	tmp := t.TempDir()
	dbPath, lines := filepath.Join(tmp, "served.duckdb"), filepath.Join(tmp, "spans.jsonl")
	cmd := child("serve", "--db", dbPath, "--listen", "127.0.0.1:0", "--threads", "2")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }() // a no-op once it has exited
	out := bufio.NewReader(stdout)
	url := listening(t, out)
	var log strings.Builder
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(&log, out); close(copied) }() // ends when serve does

	for _, args := range [][]string{
		{"--protocol", "proto", "--first", "0", "--runs", "3"},
		{"--protocol", "json", "--gzip", "--first", "3", "--runs", "3"},
	} {
		emit := exec.Command(node, append([]string{filepath.Join(dir, "emit.mjs"), "--url", url, "--lines", lines}, args...)...)
		if b, err := emit.CombinedOutput(); err != nil {
			t.Fatalf("node emit.mjs %v: %v\n%s", args, err, b)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve exited with %v", err)
	}
	<-copied
	if got := strings.Count(log.String(), " 5 spans  5 events stored + 0 rejected"); got != 6 {
		t.Errorf("%d requests of one run each stored, want 6:\n%s", got, log.String())
	}

	served := run(t, "report", "--db", dbPath, "--format", "json")
	if fromFile := run(t, "report", "--format", "json", lines); served != fromFile {
		t.Fatalf("served database and file differ\nserved:\n%s\nfile:\n%s", served, fromFile)
	}
	var rep metrics.Report
	if err := json.Unmarshal([]byte(served), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Suites) != 1 || rep.Suites[0].Suite != "otel-js-e2e" || rep.Suites[0].Runs != 6 {
		t.Fatalf("suites: %+v", rep.Suites)
	}
	st := rep.Suites[0]
	if d := st.Metrics.DuplicateCall; d.Den != 12 || d.Num != 0 {
		t.Errorf("tool calls: %+v, want 12 and no duplicates", d)
	}
	want := []metrics.RecoveryRow{
		{Category: "TIMEOUT", Tool: "fetch_page", Chains: 6, Failed: 6},
		{Category: "none", Tool: "web_search", Chains: 6, FirstTry: 6},
	}
	if !reflect.DeepEqual(st.Recovery, want) {
		t.Errorf("recovery: %+v\nwant %+v (every fetch_page times out, unretried)", st.Recovery, want)
	}
}
