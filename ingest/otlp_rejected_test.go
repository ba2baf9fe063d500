package ingest

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestOTLPReassemblyCountsRejectionsOnce: a trace split over two files, the
// first holding a span whose event validation refuses (faultlens.attempt
// "two") and a line that is not JSON. The second file converts the whole
// trace again: the event is rejected again, under it, and the first file's
// rejection of it goes, as its events do; the first file's own bad input
// line stays. The rejection and the input line are both line 2 of the first
// file (line 2 of its events, line 2 of its input), so only the trace's
// rejection may be taken. The files' results, net, add up to what is stored.
func TestOTLPReassemblyCountsRejectionsOnce(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	dir := t.TempDir()
	root := strings.TrimSpace(readTestdata(t, "split/root_bad_attempt.jsonl"))
	leaves := readTestdata(t, "split/leaves.jsonl")

	first, err := File(ctx, db, writeFile(t, dir, "first.jsonl", root+"\nnot json\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := rejections(t, db, first.Path)
	slices.SortFunc(got, func(a, b rejection) int { return strings.Compare(a.Reason, b.Reason) })
	if !reflect.DeepEqual(got, []rejection{{2, "malformed json"}, {2, "wrong type for field attempt: expected integer"}}) {
		t.Fatalf("first file's rejections: %+v", got)
	}
	if first.Lines != 2 || first.Events != 2 || first.Rejected != 2 || first.RejectedEvents != 1 {
		t.Fatalf("first: %+v", first)
	}

	second, err := File(ctx, db, writeFile(t, dir, "second.jsonl", leaves), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// 3 events stored and 1 rejected by its conversion, less the 2 events
	// and 1 rejection of the first file's conversion it replaced.
	if second.Lines != 1 || second.Events != 1 || second.Rejected != 0 || second.RejectedEvents != 0 || !second.Balanced() {
		t.Fatalf("second: %+v", second)
	}
	if got := rejections(t, db, first.Path); !reflect.DeepEqual(got, []rejection{{2, "malformed json"}}) {
		t.Errorf("first file's rejections after the second: %+v", got)
	}
	if got := rejections(t, db, second.Path); !reflect.DeepEqual(got, []rejection{{3, "wrong type for field attempt: expected integer"}}) {
		t.Errorf("second file's rejections: %+v", got)
	}
	if n := countRows(t, db, "rejected_lines"); n != first.Rejected+second.Rejected {
		t.Errorf("rejected_lines %d, files say %d + %d", n, first.Rejected, second.Rejected)
	}
	if n := countRows(t, db, "events"); n != 3 || n != first.Events+second.Events {
		t.Errorf("events %d, files say %d + %d (want 3)", n, first.Events, second.Events)
	}
	// What the next input of the trace will replace: the second file's one.
	var file, line int64
	if err := db.QueryRow("SELECT file_id, line_no FROM otlp_rejected").Scan(&file, &line); err != nil || file != second.FileID || line != 3 {
		t.Errorf("otlp_rejected: file %d line %d (%v), want file %d line 3", file, line, err, second.FileID)
	}
}
