package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/faultlens/faultlens/baselines"
	"github.com/faultlens/faultlens/textsafe"
)

// WriteBaselines lists saved baselines as a table: name, suite, runs,
// created and agents.
func WriteBaselines(w io.Writer, ms []*baselines.Manifest) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "name\tsuite\truns\tcreated\tagents\t")
	for _, m := range ms {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t\n", textsafe.Terminal(m.Name), textsafe.Terminal(m.Suite), m.Runs,
			m.CreatedAt.Format(time.RFC3339), textsafe.Terminal(strings.Join(m.Agents, " ")))
	}
	return tw.Flush()
}

// WriteManifest prints a baseline's manifest as indented JSON, made inert
// for a terminal (it holds suite and agent names from traces).
func WriteManifest(w io.Writer, m *baselines.Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, textsafe.TerminalMultiline(string(b)))
	return err
}
