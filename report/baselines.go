package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/faultlens/faultlens/baselines"
	"github.com/faultlens/faultlens/textsafe"
)

// WriteBaselines lists saved baselines as a table: name, suite, runs,
// created and agents.
func WriteBaselines(w io.Writer, ms []*baselines.Manifest) error {
	var out, tab bytes.Buffer
	tab.WriteString("name\tsuite\truns\tcreated\tagents\t\n")
	for _, m := range ms {
		fmt.Fprintf(&tab, "%s\t%s\t%d\t%s\t%s\t\n", textsafe.Terminal(m.Name), textsafe.Terminal(m.Suite), m.Runs,
			m.CreatedAt.Format(time.RFC3339), textsafe.Terminal(strings.Join(m.Agents, " ")))
	}
	if err := align(&out, tab.Bytes()); err != nil {
		return err
	}
	_, err := w.Write(out.Bytes())
	return err
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
