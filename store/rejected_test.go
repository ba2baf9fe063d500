package store_test

import (
	"context"
	"testing"

	"github.com/faultlens/faultlens/store"
)

// RejectedLines lists in file then line order, and stops at the limit.
func TestRejectedLines(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, "", store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.MustClose(t, db)
	if _, err := db.Exec(`INSERT INTO rejected_lines VALUES
		(2, 'b.jsonl', 1, 'not json', 'x'), (1, 'a.jsonl', 9, 'missing run_id', '{}'), (1, 'a.jsonl', 2, 'not json', 'y')`); err != nil {
		t.Fatal(err)
	}
	got, err := store.RejectedLines(ctx, db, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.RejectedLine{{"a.jsonl", 2, "not json", "y"}, {"a.jsonl", 9, "missing run_id", "{}"}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %+v, want %+v", got, want)
	}
	all, err := store.RejectedLines(ctx, db, 10)
	if err != nil || len(all) != 3 || all[2].Path != "b.jsonl" {
		t.Errorf("limit 10: %+v, %v", all, err)
	}
}
