package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestBenchCommand runs "faultlens bench" small and checks the table
// reaches stdout and the progress stderr.
func TestBenchCommand(t *testing.T) {
	var out, errb bytes.Buffer
	code := Run(context.Background(), []string{"bench", "--events", "2000", "--dir", t.TempDir(), "--temp-dir", t.TempDir()}, Streams{Out: &out, Err: &errb})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, s := range []string{"| step ", "| ingest JSONL ", "| full report ", "| view compare input: Evidence ×2 ", "RegisterView"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("stdout lacks %q:\n%s", s, out.String())
		}
	}
	if !strings.Contains(errb.String(), "bench: generating") {
		t.Errorf("stderr lacks progress: %s", errb.String())
	}
}

func TestBenchCommandRejectsFewEvents(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Run(context.Background(), []string{"bench", "--events", "10"}, Streams{Out: &out, Err: &errb}); code != 2 {
		t.Errorf("exit %d, want 2 (usage): %s", code, errb.String())
	}
}
