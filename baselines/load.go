package baselines

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/queries"
)

// Load reads the evidence of baseline name in dir back through DuckDB's
// Parquet reader on db.
func Load(ctx context.Context, db *sql.DB, dir, name string) (*metrics.Evidence, *Manifest, error) {
	m, err := ReadManifest(dir, name)
	if err != nil {
		return nil, nil, err
	}
	ev := &metrics.Evidence{}
	for _, part := range []string{"runs", "latency", "recovery"} {
		file := m.Files[part]
		if file == "" {
			file = parts[part]
		}
		path := filepath.Join(dir, name, filepath.Base(file))
		rows, err := db.QueryContext(ctx, queries.Get("baseline.read_"+part), path)
		if err != nil {
			return nil, nil, fmt.Errorf("baseline %s: read %s: %w", name, path, err)
		}
		err = metrics.ScanEvidence(rows, part, ev)
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, nil, fmt.Errorf("baseline %s: %w", name, err)
		}
	}
	return ev, m, nil
}
