package ingest

import (
	"context"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/queries"
)

// explain is DuckDB's physical plan of q (args fill its parameters).
func explain(t *testing.T, q string, args ...any) string {
	t.Helper()
	db := openDB(t)
	rows, err := db.QueryContext(context.Background(), "EXPLAIN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer closeQuietly(rows)
	var plan strings.Builder
	for rows.Next() {
		var kind, text string
		if err := rows.Scan(&kind, &text); err != nil {
			t.Fatal(err)
		}
		plan.WriteString(text)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan.String()
}

// TestFastInsertHasNoJoin: the fast path's insert of a whole file is a
// scan, projections and a filter into DuckDB's batch insert, as the raw
// read's CREATE TABLE AS is: the contract's rules add no join. An IN list
// of five values or more is planned as a hash join against the list (see
// ingest.checked), eight of them cost the insert 7-20 % more CPU in most
// sittings (issue 12.2, docs/benchmarks.md).
func TestFastInsertHasNoJoin(t *testing.T) {
	path := writeFile(t, t.TempDir(), "a.jsonl", generated(t, 50, 1))
	for name, checked := range map[string]string{
		"typed":    rules(typedRelation(path)),
		"JSON way": jsonChecked(queries.Render("ingest.fast_source", queries.Args{"path": queries.Literal(path)})),
	} {
		rows := queries.Render("ingest.valid_or_fail", queries.Args{"checked": checked})
		plan := explain(t, insertEvents(rows, "NULL::JSON"), 1)
		if !strings.Contains(plan, "BATCH_INSERT") || strings.Contains(plan, "JOIN") {
			t.Errorf("%s: the insert is not a batch insert without joins:\n%s", name, plan)
		}
	}
}
