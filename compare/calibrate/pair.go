// Package calibrate measures the comparison gates' two error rates with
// simulated suites: how often they fail a candidate drawn from the same
// distribution as its baseline (false alarms, A/A pairs), and how often
// they catch a regression of a known size planted by simulate.Injection
// (detection). Suites are generated, ingested into an in-memory DuckDB,
// evaluated and compared exactly as "faultlens compare" does.
package calibrate

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/faultlens/faultlens/compare"
	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/simulate"
	"github.com/faultlens/faultlens/store"
)

// Outcome is one comparison's decision.
type Outcome struct {
	// Failed says at least one gate failed (exit code 1).
	Failed bool
	// Refused says compare refused the scenario mix (exit code 2).
	Refused bool
	// Gates lists the failed gates' labels.
	Gates []string
	// Change is the observed change of the case's Watch metric
	// (candidate − baseline on the row the gate judges), NaN if none.
	Change float64
}

// night is one seed's database: every suite of the seed (one baseline per
// group, every candidate) written into one file, ingested once, and their
// facts built once.
type night struct {
	db   *sql.DB
	sess *metrics.Session
	ev   map[string]*metrics.Evidence
}

// suiteSpec is one suite of a night.
type suiteSpec struct {
	name string
	opts simulate.Options
	seed int64
}

// openNight generates the suites into one JSON Lines file in dir, ingests
// it into a fresh in-memory database and builds the facts of all of them.
func openNight(ctx context.Context, dir string, runs int, suites []suiteSpec) (*night, error) {
	path := filepath.Join(dir, fmt.Sprintf("night-%d-%d.jsonl", runs, suites[0].seed))
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	// The trace file is scratch, inside Run's directory that is removed
	// whole: an error removing it here loses nothing.
	defer func() { _ = os.Remove(path) }()
	names := make([]string, len(suites))
	for i, s := range suites {
		o := s.opts
		o.Runs, o.Suite, o.Seed = runs, s.name, s.seed
		if _, err := simulate.Generate(f, o); err != nil {
			_ = f.Close() // the file is abandoned; the generator's error is the one to report
			return nil, err
		}
		names[i] = s.name
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	// One thread per database (the runner parallelises over seeds) and a
	// spill directory of its own: two databases spilling into one
	// directory overwrite each other's files.
	spill := filepath.Join(dir, fmt.Sprintf("spill-%d-%d", runs, suites[0].seed))
	db, err := store.Open(ctx, "", store.Limits{Threads: 1, MemoryLimit: "2GB", TempDir: spill})
	if err != nil {
		return nil, err
	}
	if _, err := ingest.File(ctx, db, path, ingest.Options{}); err != nil {
		_ = db.Close() // an in-memory database given up on; the ingest error is the one to report
		return nil, err
	}
	sess, err := metrics.OpenSuites(ctx, db, names)
	if err != nil {
		_ = db.Close() // as above
		return nil, err
	}
	return &night{db: db, sess: sess, ev: map[string]*metrics.Evidence{}}, nil
}

// close closes the session, then its database, and returns both errors.
func (nt *night) close() error {
	return errors.Join(nt.sess.Close(), nt.db.Close())
}

// evidence returns one suite's evidence, read once.
func (nt *night) evidence(ctx context.Context, suite string) (*metrics.Evidence, error) {
	if ev, ok := nt.ev[suite]; ok {
		return ev, nil
	}
	ev, err := nt.sess.Evidence(ctx, suite)
	if err != nil {
		return nil, err
	}
	nt.ev[suite] = ev
	return ev, nil
}

// compare judges suite cand against suite base with gates.
func (nt *night) compare(ctx context.Context, base, cand string, gates *compare.Gates, watch string) (Outcome, error) {
	be, err := nt.evidence(ctx, base)
	if err != nil {
		return Outcome{}, err
	}
	ce, err := nt.evidence(ctx, cand)
	if err != nil {
		return Outcome{}, err
	}
	return judge(be, ce, gates, watch), nil
}

// judge is the decision "faultlens compare" takes on two evidence sets.
func judge(be, ce *metrics.Evidence, gates *compare.Gates, watch string) Outcome {
	out := Outcome{Change: nan()}
	if _, err := compare.CheckMix(be, ce); err != nil {
		out.Refused = true
		return out
	}
	res := compare.Compare(be, ce, compare.Side{Name: "base"}, compare.Side{Name: "cand"},
		compare.Options{Alpha: gates.Alpha, OnlyGated: gates})
	out.Failed = res.Failed > 0
	for _, g := range res.Gates {
		if !g.Passed {
			label := g.Metric
			if g.Scenario != "" {
				label = g.Scenario + "/" + g.Metric
			}
			out.Gates = append(out.Gates, label)
		}
		if g.Metric == watch && g.Change != nil && (g.Scenario == "" || g.Scenario == compare.FaultFree) {
			out.Change = *g.Change
		}
	}
	return out
}
