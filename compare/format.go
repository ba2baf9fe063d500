package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Formats lists the export formats Write accepts.
var Formats = []string{"text", "markdown", "json", "html", "junit", "csv"}

// Write renders res in format to w.
func Write(w io.Writer, res *Result, format string) error {
	switch format {
	case "text":
		return writeText(w, res)
	case "markdown":
		return writeMarkdown(w, res)
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	case "html":
		return writeHTML(w, res)
	case "junit":
		return writeJUnit(w, res)
	case "csv":
		return writeCSV(w, res)
	}
	return fmt.Errorf("unknown format %q", format)
}

// summary is the one-line outcome.
func summary(res *Result) string {
	sig := 0
	for _, r := range res.Rows {
		if r.Significant {
			sig++
		}
	}
	outcome := "all gates passed"
	if res.Failed > 0 {
		outcome = fmt.Sprintf("%d of %d gates FAILED", res.Failed, len(res.Gates))
	}
	return fmt.Sprintf("%s: %s (%d runs) vs %s (%d runs), %d significant changes of %d compared (Holm, α=%g)",
		outcome, res.Baseline.Name, res.Baseline.Runs, res.Candidate.Name, res.Candidate.Runs, sig, len(res.Rows), res.Alpha)
}

// cell formats a value: rates as percentages, latency in ms.
func cell(r Row, v *float64) string {
	if v == nil {
		return "-"
	}
	if r.Kind == "rate" {
		return fmt.Sprintf("%.1f%%", *v*100)
	}
	return fmt.Sprintf("%.4g", *v)
}

// delta formats the change with its interval.
func delta(r Row) string {
	if r.Diff == nil {
		return "-"
	}
	if r.Kind == "rate" {
		return fmt.Sprintf("%+.1fpp [%+.1f, %+.1f]", *r.Diff*100, val(r.Lo)*100, val(r.Hi)*100)
	}
	return fmt.Sprintf("%+.4g [%+.4g, %+.4g]", *r.Diff, val(r.Lo), val(r.Hi))
}

// noise formats the A/A band.
func noise(r Row) string {
	if r.Noise == nil {
		return "-"
	}
	if r.Kind == "rate" {
		return fmt.Sprintf("±%.1fpp", *r.Noise*100)
	}
	return fmt.Sprintf("±%.4g", *r.Noise)
}

// verdictText adds the detectable difference to a too-small verdict.
func verdictText(r Row) string {
	if r.Verdict != "too small" || r.MinDetectable == nil {
		return r.Verdict
	}
	if r.Kind == "rate" {
		return fmt.Sprintf("too small (detects ≥%.0fpp)", *r.MinDetectable*100)
	}
	return fmt.Sprintf("too small (detects ≥%.3gms)", *r.MinDetectable)
}

// scenarioLabel names a row's scope.
func scenarioLabel(s string) string {
	if s == "" {
		return "all"
	}
	return s
}

func gateMark(g GateResult) string {
	switch {
	case !g.Passed:
		return "FAIL"
	case g.Skipped:
		return "skip"
	}
	return "pass"
}

func gateRule(g Gate) string {
	if g.MustBeZero {
		return "must be zero"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s ≤ %g", g.Direction, *g.MaxChange)
	if g.Relative {
		b.WriteString(" (relative)")
	}
	if g.RequireSignificant {
		b.WriteString(", if significant")
	}
	return b.String()
}
