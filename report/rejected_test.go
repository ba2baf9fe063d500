package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/store"
)

func TestWriteRejected(t *testing.T) {
	long := strings.Repeat("é", RejectedTextWidth+5)
	var b bytes.Buffer
	err := WriteRejected(&b, []store.RejectedLine{
		{Path: "a.jsonl", Line: 3, Reason: "not json", Text: "{oops"},
		{Path: "b\x1b[2J.jsonl", Line: 10, Reason: "missing run_id", Text: long},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "a.jsonl:3: not json: {oops\n" +
		"b.jsonl:10: missing run_id: " + strings.Repeat("é", RejectedTextWidth) + "…\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}
