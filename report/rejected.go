package report

import (
	"fmt"
	"io"

	"github.com/faultlens/faultlens/store"
	"github.com/faultlens/faultlens/textsafe"
)

// RejectedTextWidth is how many characters of a rejected line's text are
// shown; longer texts end in "…".
const RejectedTextWidth = 120

// WriteRejected lists rejected lines as file:line: reason: text, one per
// line, every part made inert for a terminal.
func WriteRejected(w io.Writer, lines []store.RejectedLine) error {
	for _, r := range lines {
		if _, err := fmt.Fprintf(w, "%s:%d: %s: %s\n", textsafe.Terminal(r.Path), r.Line, textsafe.Terminal(r.Reason),
			textsafe.Terminal(truncate(r.Text, RejectedTextWidth))); err != nil {
			return err
		}
	}
	return nil
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
