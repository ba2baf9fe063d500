package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The errors view puts the baseline's chains and counters beside the
// candidate's with the change.
func TestErrorsSideBySide(t *testing.T) {
	db := sampleDB(t)
	m, _ := settle(t, db, "3")
	body := ansi.Strip(m.errs.View())
	for _, want := range []string{
		"TRANSIENT          28    0   28    0    0    0 │    33    0   27    0    0    6 │     +6",
		"UNKNOWN_OUTCOME     0    0    0    0    0    0 │     9    0    4    5    0    0 │     +0",
		"invalid retries               0/28 0.0%    109/222 49.1%   +49.1pp ◀",
		"breaker                           0/0 –      12/17 70.6%         – ◀",
		"  not_retryable               0/28 0.0%     92/222 41.4%   +41.4pp ◀",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("missing %q in\n%s", want, body)
		}
	}
}
