package report

import (
	"fmt"
	"io"
	"time"

	"github.com/faultlens/faultlens/store"
	"github.com/faultlens/faultlens/textsafe"
)

// WritePrune says what a prune of the database db dropped (or, dry, would
// drop): each suite with its runs and start, and how the rewrite changed
// the file's size; or that nothing started before cutoff (--older-than age).
func WritePrune(w io.Writer, res store.PruneResult, dryRun bool, db, age string, cutoff time.Time) error {
	if len(res.Suites) == 0 {
		_, err := fmt.Fprintf(w, "nothing older than %s (before %s)\n", age, cutoff.UTC().Format(time.RFC3339))
		return err
	}
	verb := "dropping"
	if dryRun {
		verb = "would drop"
	}
	for _, v := range res.Suites {
		if _, err := fmt.Fprintf(w, "%s suite %s: %d runs, started %s\n", verb, textsafe.Terminal(v.Suite), v.Runs,
			v.Started.UTC().Format(time.RFC3339)); err != nil {
			return err
		}
	}
	if res.Rewritten {
		_, err := fmt.Fprintf(w, "database %s: %d → %d bytes\n", db, res.Before, res.After)
		return err
	}
	return nil
}
