package baselines

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/store"
)

// ErrExists is returned by Save when the baseline exists and force is off.
var ErrExists = errors.New("baseline already exists (use --force to overwrite)")

// ErrNoRuns is returned by Save when the suite has no runs.
var ErrNoRuns = errors.New("suite has no runs")

// parts are the evidence parts and their file names.
var parts = map[string]string{"runs": "runs.parquet", "latency": "latency.parquet", "recovery": "recovery.parquet"}

// Save freezes the evidence of suite as baseline name in dir. It writes
// into a temporary directory first and renames it into place, so that a
// failed save leaves any earlier baseline intact.
func Save(ctx context.Context, sess *metrics.Session, dir, name, suite string, force bool, now time.Time) (*Manifest, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	if Exists(dir, name) && !force {
		return nil, fmt.Errorf("baseline %s: %w", name, ErrExists)
	}
	ev, err := sess.Evidence(ctx, suite)
	if err != nil {
		return nil, err
	}
	if len(ev.Runs) == 0 {
		return nil, fmt.Errorf("suite %q: %w", suite, ErrNoRuns)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("baselines: %w", err)
	}
	tmp, err := os.MkdirTemp(dir, "."+name+".tmp-")
	if err != nil {
		return nil, fmt.Errorf("baselines: %w", err)
	}
	// After the rename below the staging directory is gone. On an earlier
	// error that error is the one to report; if removing the staging
	// directory fails too, a dot-named directory is left in dir.
	defer func() { _ = os.RemoveAll(tmp) }()
	paths := map[string]string{}
	for part, file := range parts {
		paths[part] = filepath.Join(tmp, file)
	}
	if err := sess.SaveEvidence(ctx, suite, paths); err != nil {
		return nil, err
	}
	m := &Manifest{ManifestVersion: ManifestVersion, Name: name, Suite: suite, CreatedAt: now.UTC(),
		Runs: len(ev.Runs), FaultlensVersion: Version(), TraceSchemaVersion: store.SchemaVersion, Files: parts}
	if m.Sources, err = sess.Sources(ctx); err != nil {
		return nil, err
	}
	if m.Agents, err = sess.Agents(ctx, suite); err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, "manifest.json"), append(b, '\n'), 0o644); err != nil {
		return nil, fmt.Errorf("baselines: %w", err)
	}
	final := filepath.Join(dir, name)
	if err := os.RemoveAll(final); err != nil {
		return nil, fmt.Errorf("baselines: %w", err)
	}
	if err := os.Rename(tmp, final); err != nil {
		return nil, fmt.Errorf("baselines: %w", err)
	}
	return m, nil
}
