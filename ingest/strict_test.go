package ingest

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// TestNumberForStringInArrowSchema checks that Arrow input is as strict as
// JSON Lines about a number where a string is due (issue 12): a numeric
// column for a string field, top-level or nested, is a schema error naming
// the column.
func TestNumberForStringInArrowSchema(t *testing.T) {
	errorWith := func(code arrow.DataType) arrow.DataType {
		fs := []arrow.Field{}
		for _, f := range fieldOf(t, "error").Type.(*arrow.StructType).Fields() {
			if f.Name == "code" {
				f.Type = code
			}
			fs = append(fs, f)
		}
		return arrow.StructOf(fs...)
	}
	for _, tc := range []struct {
		sc   *arrow.Schema
		want string
	}{
		{replaceField(CanonicalArrowSchema, "suite", arrow.PrimitiveTypes.Int64),
			"column suite: Arrow type int64 cannot hold a string"},
		{replaceField(CanonicalArrowSchema, "tool_version", arrow.PrimitiveTypes.Float64),
			"column tool_version: Arrow type float64 cannot hold a string"},
		{replaceField(CanonicalArrowSchema, "run_id", arrow.PrimitiveTypes.Int32),
			"column run_id: Arrow type int32 cannot hold a string"},
		{replaceField(CanonicalArrowSchema, "error", errorWith(arrow.PrimitiveTypes.Int64)),
			"column error.code: Arrow type int64 cannot hold a string"},
	} {
		got := ""
		if err := checkArrowSchema(tc.sc); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// fieldOf is the canonical field name.
func fieldOf(t *testing.T, name string) arrow.Field {
	t.Helper()
	for _, f := range CanonicalArrowSchema.Fields() {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no field %s", name)
	return arrow.Field{}
}
