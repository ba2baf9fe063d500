package metrics

import (
	"fmt"
	"testing"
)

func spans(keys ...string) []Span {
	out := make([]Span, len(keys))
	for i, k := range keys {
		out[i] = Span{Kind: "tool_call", Name: k, Status: "ok"}
		if k[0] == 'S' {
			out[i] = Span{Kind: "stage", Name: k[1:], Status: "ok"}
		}
	}
	return out
}

func render(st []AlignedStep) string {
	s := ""
	for _, x := range st {
		mark := "="
		if x.Differs {
			mark = "≠"
		}
		s += fmt.Sprintf("%d/%d%s ", x.Base, x.Cand, mark)
	}
	return s
}

// One extra retry of search on the candidate is one inserted step: the
// steps after it still face their twins (by position they all differ).
func TestAlignInsertedStep(t *testing.T) {
	a := spans("Splan", "search", "visit", "Sgeneration")
	b := spans("Splan", "search", "search", "visit", "Sgeneration")
	got := render(align(a, b))
	if want := "0/0= 1/1= -1/2≠ 2/3= 3/4= "; got != want {
		t.Fatalf("align: %s, want %s", got, want)
	}
	if d := diverge(a, b); d != 2 {
		t.Fatalf("by position the runs part at %d", d)
	}
}

// A missing step is a gap on the other side; a step taken by both that
// went otherwise (a timeout) is aligned and marked as differing.
func TestAlignMissingAndChanged(t *testing.T) {
	a := spans("Splan", "search", "visit", "Sgeneration")
	b := spans("Splan", "visit", "Sgeneration")
	b[1].Status, b[1].Category = "error", "TIMEOUT"
	st := align(a, b)
	if got, want := render(st), "0/0= 1/-1≠ 2/1≠ 3/2= "; got != want {
		t.Fatalf("align: %s, want %s", got, want)
	}
	if firstDiff(st) != 1 {
		t.Fatalf("first difference at %d", firstDiff(st))
	}
	if got := render(align(spans("a", "b"), spans("a", "b"))); got != "0/0= 1/1= " || firstDiff(align(spans("a"), spans("a"))) != -1 {
		t.Fatalf("equal timelines: %s", got)
	}
	if got := render(align(nil, spans("a"))); got != "-1/0≠ " {
		t.Fatalf("empty base: %s", got)
	}
}
