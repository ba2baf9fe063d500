package cli

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/ui"
)

// help runs faultlens with args and returns what it printed.
func help(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := Run(context.Background(), args, Streams{In: strings.NewReader(""), Out: &out, Err: &errb}); code != 0 {
		t.Fatalf("faultlens %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	return out.String()
}

// TestHelpMatchesReadme checks the help texts against the README's
// Commands section: every command it lists exists, ingest --help names
// every input format the README promises, the root help says what the
// bare command does on a terminal, and the README says how to install.
func TestHelpMatchesReadme(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	if !strings.Contains(readme, "go install github.com/faultlens/faultlens@latest") {
		t.Error("README has no go install line")
	}
	start := strings.Index(readme, "## Commands")
	block := readme[start:]
	block = block[strings.Index(block, "```\n")+4:]
	block = block[:strings.Index(block, "```")]
	cmds := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^faultlens ([a-z]+)`).FindAllStringSubmatch(block, -1) {
		cmds[m[1]] = true
	}
	if len(cmds) < 10 {
		t.Fatalf("found only %d commands in the README's Commands section", len(cmds))
	}
	for c := range cmds {
		if out := help(t, c, "--help"); !strings.Contains(out, "Usage:") {
			t.Errorf("faultlens %s --help: %q", c, out)
		}
	}
	ingest := help(t, "ingest", "--help")
	for _, format := range []string{".jsonl", ".ndjson", "gzip", "OTLP/JSON", "Arrow IPC", "directories", "glob"} {
		if !strings.Contains(ingest, format) {
			t.Errorf("ingest --help does not name %s", format)
		}
	}
	uiHelp := help(t, "ui", "--help")
	for _, view := range ui.ViewNames() {
		if !strings.Contains(uiHelp, view) {
			t.Errorf("ui --help does not name the %s view", view)
		}
	}
	if root := help(t, "--help"); !strings.Contains(root, "opens the dashboard on a terminal") {
		t.Errorf("root help does not say the bare command opens the dashboard:\n%s", root)
	}
	if v := help(t, "--version"); !strings.HasPrefix(v, "faultlens ") {
		t.Errorf("--version: %q", v)
	}
}
