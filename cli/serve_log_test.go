package cli

import (
	"bytes"
	"errors"
	"testing"
)

// flakyWriter fails its writes while broken is set.
type flakyWriter struct {
	buf    bytes.Buffer
	broken error
}

func (w *flakyWriter) Write(p []byte) (int, error) {
	if w.broken != nil {
		return 0, w.broken
	}
	return w.buf.Write(p)
}

// TestServeLogKeepsFirstError: serve's log does not stop at a failed line
// (requests are still stored and acknowledged), but the first failure is
// what serve returns when it stops, so a lost log is not silent.
func TestServeLogKeepsFirstError(t *testing.T) {
	w := &flakyWriter{}
	log := &lockedWriter{w: w}
	log.printf("one %d\n", 1)
	if err := log.failed(); err != nil {
		t.Fatalf("after a good line: %v", err)
	}
	full, closed := errors.New("disk full"), errors.New("pipe closed")
	w.broken = full
	log.printf("two\n")
	w.broken = closed
	log.printf("three\n")
	w.broken = nil
	log.printf("four\n")
	if got := w.buf.String(); got != "one 1\nfour\n" {
		t.Errorf("log holds %q, want the lines written while the writer worked", got)
	}
	err := log.failed()
	if !errors.Is(err, full) || err.Error() != "write the serve log: disk full" {
		t.Errorf("failed() = %v, want the first write error, wrapped", err)
	}
}
