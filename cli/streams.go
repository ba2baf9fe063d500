package cli

import (
	"fmt"

	"github.com/spf13/cobra"
)

// notef writes a notice or a progress line to stderr. A stderr that cannot
// be written to has nowhere left to report that, so its error is dropped.
func (s Streams) notef(format string, args ...any) {
	_, _ = fmt.Fprintf(s.Err, format, args...)
}

// waitNotice is the store's lock-wait message as the commands print it.
func (s Streams) waitNotice(msg string) { s.notef("faultlens: %s\n", msg) }

// requireFlags marks flags of cmd required. An error means a name no flag
// of cmd has: a programming error, which the tests of every command catch.
func requireFlags(cmd *cobra.Command, names ...string) {
	for _, n := range names {
		if err := cmd.MarkFlagRequired(n); err != nil {
			panic(err)
		}
	}
}
