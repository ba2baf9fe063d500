// Package report renders a metrics.Report for people (text, Markdown, a
// self-contained HTML document) and for machines (JSON, CSV). Strings that
// come from traces (suite, scenario, tool and category names, rejection
// reasons) are untrusted and pass through package textsafe before they are
// written.
package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/faultlens/faultlens/metrics"
)

// Formats lists the formats Write accepts.
var Formats = []string{"text", "json", "markdown", "csv", "html"}

// Options shape the human formats.
type Options struct {
	// Color enables ANSI colour in the text format (only on a terminal, and
	// never when NO_COLOR is set; the caller decides).
	Color bool
}

// Write renders rep in the named format.
func Write(w io.Writer, rep *metrics.Report, format string, opts Options) error {
	switch format {
	case "json":
		return JSON(w, rep)
	case "text":
		return Text(w, rep, opts)
	case "markdown", "md":
		return Markdown(w, rep)
	case "csv":
		return CSV(w, rep)
	case "html":
		return HTML(w, rep)
	}
	return fmt.Errorf("unknown format %q (want one of text, json, markdown, csv, html)", format)
}

// JSON writes the stable machine report of section 5 of the contract.
func JSON(w io.Writer, rep *metrics.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}
