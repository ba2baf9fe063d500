package ingest

import (
	"strings"
	"testing"
)

// TestContractFieldsCovered: the fields TestFieldTypes gives wrong types
// are exactly the contract's fields the generated checks judge (all but type
// and the timestamps), with the same kinds, so no field goes untested.
func TestContractFieldsCovered(t *testing.T) {
	var want []string
	for _, f := range contractFieldList() {
		if f.path != "type" && !timestampFields[f.path] {
			want = append(want, f.path+" "+kindOf(f.typ))
		}
	}
	var got []string
	for _, f := range contractFields {
		got = append(got, f.path+" "+f.kind)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("test fields:\n%s\n\ncontract fields:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	checks := jsonTypedFragments()["type_checks"]
	if n := strings.Count(checks, "THEN '"); n != len(want) {
		t.Errorf("%d type checks for %d fields", n, len(want))
	}
}
