package cli

import (
	"bufio"
	"io"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestProxyOTLP: --otlp sends the session's events to faultlens serve as
// faultlens.* spans, and the served database reports exactly what the
// proxy's JSON Lines report.
func TestProxyOTLP(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	served := filepath.Join(dir, "served.duckdb")
	cmd := child("serve", "--db", served, "--listen", "127.0.0.1:0", "--threads", "2")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	out := bufio.NewReader(stdout)
	url := listening(t, out)
	go func() { _, _ = io.Copy(io.Discard, out) }()

	proxyRun(t, dir, "otlp-unknown", "state.unknown_write_outcome", "", func(a *rawAgent) {
		a.call("send_message", `{"to":"ops","text":"hi"}`)
		a.call("send_message", `{"to":"ops","text":"hi"}`)
		a.call("message_status", `{"to":"ops"}`)
	}, "--otlp", url)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve: %v", err)
	}
	fromFile := run(t, "report", "--format", "json", filepath.Join(dir, "events.jsonl"))
	fromServe := run(t, "report", "--format", "json", "--db", served)
	if fromServe != fromFile {
		t.Errorf("served:\n%s\nfrom the JSON Lines:\n%s", fromServe, fromFile)
	}
	if !strings.Contains(fromFile, `"unknown_outcome_resend": 1`) {
		t.Errorf("the report does not show the run's re-send:\n%s", fromFile)
	}
}
