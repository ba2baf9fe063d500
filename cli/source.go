package cli

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/faultlens/faultlens/ingest"
	sampletraces "github.com/faultlens/faultlens/sample-traces"
	"github.com/faultlens/faultlens/store"
)

// source says where a reading command's data comes from: a persistent
// database, trace files ingested into memory, or (neither given) the
// bundled samples.
type source struct {
	db    string
	paths []string
}

// open returns a database holding the source's traces. Ingest accounting
// goes to log. The returned close function releases everything.
func (src source) open(ctx context.Context, g *global, log io.Writer) (*sql.DB, func(), error) {
	noop := func() {}
	if src.db != "" && len(src.paths) == 0 {
		if _, err := os.Stat(src.db); err != nil {
			return nil, noop, &ingest.InputError{Path: src.db, Err: fmt.Errorf("no such database (create it with faultlens ingest --db %s PATH...)", src.db)}
		}
	}
	paths, names := src.paths, map[string]string(nil)
	cleanup := noop
	if src.db == "" && len(paths) == 0 {
		dir, extracted, err := sampletraces.Extract("")
		if err != nil {
			return nil, noop, err
		}
		cleanup = func() { os.RemoveAll(dir) }
		names = map[string]string{}
		for _, p := range extracted {
			names[p] = filepath.Join("sample-traces", filepath.Base(p))
		}
		paths = extracted
	} else if len(paths) > 0 {
		var err error
		if paths, err = ingest.Expand(paths); err != nil {
			return nil, noop, err
		}
	}
	lim := g.limits
	lim.OnWait = func(msg string) { fmt.Fprintf(log, "faultlens: %s\n", msg) }
	if src.db != "" && len(paths) == 0 {
		// Reading only: share the file with other readers; wait for a writer.
		db, err := store.OpenReadOnly(ctx, src.db, lim)
		if err != nil {
			return nil, noop, err
		}
		return db, func() { db.Close() }, nil
	}
	db, err := store.Open(ctx, src.db, lim)
	if err != nil {
		cleanup()
		return nil, noop, err
	}
	done := func() { db.Close(); cleanup() }
	if len(paths) > 0 {
		rs, err := ingest.Files(ctx, db, paths, ingest.Options{Names: names, Wait: g.limits.LockWait, TempDir: g.limits.TempDir,
			Notify: func(msg string) { fmt.Fprintf(log, "faultlens: %s\n", msg) }})
		printAccounting(log, rs, false)
		if err != nil {
			done()
			return nil, noop, err
		}
	}
	return db, done, nil
}

// printAccounting writes one line per file and, for several files, a total.
// lines read = events accepted + lines rejected + blank lines, always.
func printAccounting(w io.Writer, rs []ingest.FileResult, verbose bool) {
	for _, r := range rs {
		if r.Duplicate != "" {
			fmt.Fprintf(w, "skipped %s: same content already ingested as %s\n", r.Path, r.Duplicate)
			continue
		}
		if !verbose && r.Rejected == 0 && len(rs) > 3 {
			continue
		}
		fmt.Fprintf(w, "%s: %s\n", r.Path, accountingLine(r))
	}
	t, files, dups := ingest.Totals(rs)
	if files+dups > 1 {
		fmt.Fprintf(w, "total: %d files (%d skipped as already ingested): %s\n", files+dups, dups, accountingLine(t))
	}
}

func accountingLine(r ingest.FileResult) string {
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
	s := fmt.Sprintf("%d lines read = %d %s + %d rejected + %d blank", r.Lines, r.Accepted, what, r.Rejected-r.RejectedEvents, r.Blank)
	if r.Skipped > 0 {
		s += fmt.Sprintf(" + %d other signals skipped", r.Skipped)
	}
	return s
}
