// Package baselines saves and loads frozen evidence: the per-run facts,
// latency samples and recovery chains of one suite as Parquet files written
// by DuckDB, plus a small JSON manifest, in one directory per baseline.
package baselines

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"time"

	"github.com/faultlens/faultlens/metrics"
)

// ManifestVersion is the version of manifest.json's structure.
const ManifestVersion = 1

// Manifest describes a saved baseline.
type Manifest struct {
	// ManifestVersion is the structure version, ManifestVersion when written.
	ManifestVersion int `json:"manifest_version"`
	// Name is the baseline's name, also its directory name.
	Name string `json:"name"`
	// Suite is the suite whose runs were saved.
	Suite string `json:"suite"`
	// CreatedAt is when the baseline was saved (UTC).
	CreatedAt time.Time `json:"created_at"`
	// Runs is the number of runs saved.
	Runs int `json:"runs"`
	// Sources are the ingested files and their SHA-256 hashes.
	Sources []metrics.SourceFile `json:"sources"`
	// Agents are the distinct "name@version" agents of the suite.
	Agents []string `json:"agents"`
	// FaultlensVersion is the build that saved it.
	FaultlensVersion string `json:"faultlens_version"`
	// TraceSchemaVersion is the trace contract version of the stored data.
	TraceSchemaVersion string `json:"trace_schema_version"`
	// Files maps each evidence part to its Parquet file, relative to the
	// baseline directory.
	Files map[string]string `json:"files"`
}

// validName keeps baseline names usable as directory names everywhere.
var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// CheckName returns an error when name cannot be a baseline name.
func CheckName(name string) error {
	if !validName.MatchString(name) {
		return fmt.Errorf("invalid baseline name %q (letters, digits, '.', '_', '-'; at most 100)", name)
	}
	return nil
}

// Version is the faultlens version recorded in manifests.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	return versionOf(bi)
}

// versionOf is the module version of a build and, when the build recorded
// it (go build in a git checkout), its VCS revision: a "(devel)" build is
// still told apart by its commit, "+dirty" marking uncommitted changes.
func versionOf(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" || strings.Contains(v, rev[:min(12, len(rev))]) {
		return v
	}
	v += " (" + rev[:min(12, len(rev))]
	if dirty {
		v += "+dirty"
	}
	return v + ")"
}

// ReadManifest reads the manifest of baseline name in dir.
func ReadManifest(dir, name string) (*Manifest, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, name, "manifest.json"))
	if err != nil {
		return nil, fmt.Errorf("baseline %s: %w", name, err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("baseline %s: manifest.json: %w", name, err)
	}
	return &m, nil
}

// Exists reports whether dir holds a baseline called name.
func Exists(dir, name string) bool {
	if CheckName(name) != nil {
		return false
	}
	_, err := os.Stat(filepath.Join(dir, name, "manifest.json"))
	return err == nil
}

// List reads the manifests of every baseline in dir, sorted by name. A
// missing dir holds no baselines.
func List(dir string) ([]*Manifest, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("baselines: %w", err)
	}
	var out []*Manifest
	for _, e := range entries {
		if !e.IsDir() || !Exists(dir, e.Name()) {
			continue
		}
		m, err := ReadManifest(dir, e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}
