// Package accounting renders what an ingest did, file by file: lines read
// = events accepted + rejected + blank (+ other signals skipped), and the
// progress and rate lines of a long ingest. Apart from package report
// because ingest's tests use report, and these lines are made of
// ingest.FileResult.
package accounting

import (
	"fmt"
	"io"
	"strings"

	"github.com/faultlens/faultlens/ingest"
)

// Write writes one line per ingested file and, for several
// files, a total: lines read = events accepted + lines rejected + blank
// lines (+ other signals skipped), always. Files already ingested are said
// to be skipped. Unless verbose, clean files are left out when there are
// more than three (a report of many files lists only those with rejects).
func Write(w io.Writer, rs []ingest.FileResult, verbose bool) error {
	var b strings.Builder
	for _, r := range rs {
		if r.Duplicate != "" {
			fmt.Fprintf(&b, "skipped %s: same content already ingested as %s\n", r.Path, r.Duplicate)
			continue
		}
		if !verbose && r.Rejected == 0 && len(rs) > 3 {
			continue
		}
		fmt.Fprintf(&b, "%s: %s\n", r.Path, Line(r))
	}
	t, files, dups := ingest.Totals(rs)
	if files+dups > 1 {
		fmt.Fprintf(&b, "total: %d files (%d skipped as already ingested): %s\n", files+dups, dups, Line(t))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Line is one file's (or a total's) accounting, without its name.
func Line(r ingest.FileResult) string {
	what := "events accepted"
	switch r.Format {
	case "otlp":
		what = fmt.Sprintf("span lines accepted (%d events)", r.Events)
		if r.RejectedEvents != 0 { // negative for an OTLP file that replaced rejections of its traces
			what = fmt.Sprintf("span lines accepted (%d events stored, %d rejected)", r.Events, r.RejectedEvents)
		}
	case "mixed":
		// A total over JSON Lines and OTLP files: event lines and span
		// lines are both lines accepted, and give the events stored.
		what = fmt.Sprintf("lines accepted (%d events)", r.Events)
	}
	s := fmt.Sprintf("%d lines read = %d %s + %d rejected + %d blank",
		r.Lines, r.Accepted, what, r.Rejected-r.RejectedEvents, r.Blank)
	if r.Skipped > 0 {
		s += fmt.Sprintf(" + %d other signals skipped", r.Skipped)
	}
	return s
}

// Rate is the line an ingest that took a while ends with.
func Rate(events int64, secs float64) string {
	return fmt.Sprintf("%d events in %.1fs (%.0f events/s)\n", events, secs, float64(events)/secs)
}

// Progress is the status line a terminal shows while files are
// ingested: a bar of files done, events so far and the rate. It starts with
// a carriage return and a clear-line, so each one overwrites the last.
func Progress(done, total int, events int64, secs float64) string {
	const width = 24
	filled := done * width / total
	bar := strings.Repeat("█", filled) + strings.Repeat("░", width-filled)
	return fmt.Sprintf("\r\x1b[K%s %d/%d files  %d events  %.0f events/s", bar, done, total, events, float64(events)/secs)
}
