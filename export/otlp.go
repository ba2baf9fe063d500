package export

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/queries"
)

// otlpScope names the instrumentation scope of exported spans, so that a
// backend can tell faultlens' re-emitted runs from an agent's own spans.
const otlpScope = "faultlens/export"

// row is one stored event: its non-NULL contract columns (structs as maps,
// lists as slices, timestamps as time.Time) and the raw line of an event
// that carried unknown fields.
type row struct {
	fields map[string]any
	extra  string
}

// writeOTLP writes the chosen events as OTLP/JSON in the faultlens.*
// convention: one line per run (an ExportTraceServiceRequest, as the
// Collector's file exporter writes them), runs in run id order, each with
// faultlens' verdicts on it (otlp_verdicts.go).
// suite is the SQL literal of the suite (NULL for all), name the suite
// itself ("" for all).
func writeOTLP(ctx context.Context, db *sql.DB, suite, name, path string) error {
	verdicts, err := runVerdicts(ctx, db, name)
	if err != nil {
		return err
	}
	q := queries.Render("export.otlp_events", queries.Args{"suite": suite})
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	// encodeRuns reports a failed read through rows.Err; closing the rows
	// after that has nothing to add.
	defer func() { _ = rows.Close() }()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	err = encodeRuns(rows, w, verdicts)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// encodeRuns reads the rows (ordered by run) and writes each run as it
// completes, so memory holds one run at a time.
func encodeRuns(rows *sql.Rows, w io.Writer, verdicts map[string]*metrics.RunVerdict) error {
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	var run []row
	flush := func() error {
		if len(run) == 0 {
			return nil
		}
		id, _ := run[0].fields["run_id"].(string)
		err := writeRun(w, run, verdicts[id])
		run = run[:0]
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		r := row{fields: map[string]any{}}
		for i, c := range cols {
			switch {
			case vals[i] == nil:
			case c == "extra":
				r.extra = fmt.Sprint(vals[i])
			default:
				r.fields[c] = vals[i]
			}
		}
		if len(run) > 0 && run[0].fields["run_id"] != r.fields["run_id"] {
			if err := flush(); err != nil {
				return err
			}
		}
		run = append(run, r)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return flush()
}

// writeRun writes one run as one OTLP/JSON line.
func writeRun(w io.Writer, run []row, v *metrics.RunVerdict) error {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "faultlens")
	ss := rs.ScopeSpans().AppendEmpty()
	ss.Scope().SetName(otlpScope)
	if err := encodeRun(run, ss.Spans(), v); err != nil {
		return err
	}
	var m ptrace.JSONMarshaler
	b, err := m.MarshalTraces(td)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// rfc3339Micro is how timestamps are written into attributes: what ingest
// keeps, in UTC.
const rfc3339Micro = "2006-01-02T15:04:05.000000Z07:00"

// formatTime writes a stored timestamp.
func formatTime(t time.Time) string { return t.UTC().Format(rfc3339Micro) }
