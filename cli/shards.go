package cli

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/faultlens/faultlens/store"
)

// dbFlag is the --db flag of the commands that read shards: given once, a
// database file (or a glob of several); given again, each adds one. The
// first value goes to source.db, as a plain string flag, so that a command
// given one file reads it as before.
type dbFlag struct{ src *source }

func (f dbFlag) String() string {
	if f.src == nil {
		return ""
	}
	return strings.Join(append([]string{f.src.db}, f.src.more...), ",")
}

func (f dbFlag) Set(v string) error {
	if f.src.db == "" {
		f.src.db = v
	} else {
		f.src.more = append(f.src.more, v)
	}
	return nil
}

func (dbFlag) Type() string { return "string" }

// sharded reports whether the source names several databases: --db given
// more than once, or a glob that is not itself a file's name.
func (src source) sharded() bool {
	return len(src.paths) == 0 && (len(src.more) > 0 || isGlob(src.db))
}

// isGlob reports whether p is a pattern rather than a file.
func isGlob(p string) bool {
	if !strings.ContainsAny(p, "*?[") {
		return false
	}
	_, err := os.Stat(p)
	return err != nil
}

// databases expands the source's --db values, globs in name order; a glob
// that matches nothing is an error, as a missing file is.
func (src source) databases() ([]string, error) {
	var out []string
	for _, v := range append([]string{src.db}, src.more...) {
		if !isGlob(v) {
			out = append(out, v)
			continue
		}
		m, err := filepath.Glob(v)
		if err != nil {
			return nil, usagef("--db %s: %v", v, err)
		}
		if len(m) == 0 {
			return nil, usagef("--db %s: no database matches", v)
		}
		slices.Sort(m)
		out = append(out, m...)
	}
	return out, nil
}

// openShards reads the source's databases as one (store.OpenShards).
func (src source) openShards(ctx context.Context, g *global, log io.Writer) (*sql.DB, func(), error) {
	noop := func() {}
	dbs, err := src.databases()
	if err != nil {
		return nil, noop, err
	}
	lim := g.limits
	// A notice that cannot be written has nowhere else to go.
	lim.OnWait = func(msg string) { _, _ = fmt.Fprintf(log, "faultlens: %s\n", msg) }
	db, err := store.OpenShards(ctx, dbs, lim)
	if err != nil {
		return nil, noop, err
	}
	return db, func() { _ = db.Close() }, nil // in memory: nothing to lose
}
