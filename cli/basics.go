package cli

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
)

// sizePattern is what DuckDB's memory_limit accepts: a number and a unit
// (or a percentage of the machine's memory).
var sizePattern = regexp.MustCompile(`(?i)^\s*[0-9]+(\.[0-9]+)?\s*(b|kb|mb|gb|tb|kib|mib|gib|tib|%)\s*$`)

// checkGlobal refuses bad values of the shared flags with our own
// message, before DuckDB parses them into one of its own.
func checkGlobal(g *global) error {
	if g.limits.Threads < 0 {
		return usagef("--threads %d: want a positive number of threads, or 0 for one per CPU", g.limits.Threads)
	}
	if m := g.limits.MemoryLimit; m != "" && !sizePattern.MatchString(m) {
		return usagef("--memory-limit %q (or FAULTLENS_MEMORY_LIMIT): want a size such as 512MB or 2GB", m)
	}
	if g.limits.LockWait < 0 {
		return usagef("--lock-wait %s: want a duration of 0 or more", g.limits.LockWait)
	}
	return nil
}

// rootArgs refuses arguments to the bare command, suggesting the command
// a mistyped name was probably meant to be.
func rootArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.Name())
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return usagef("%s (faultlens --help lists the commands)", msg)
}

// knownList names the suites there are, for an error about one that is
// not: "suites: a, b" or "no suites".
func knownList(what string, names []string) string {
	if len(names) == 0 {
		return "no " + what + "s"
	}
	const most = 20
	tail := ""
	if len(names) > most {
		names, tail = names[:most], fmt.Sprintf(" and %d more", len(names)-most)
	}
	return what + "s: " + strings.Join(names, ", ") + tail
}
