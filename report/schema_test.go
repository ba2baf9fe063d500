package report

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestJSONMatchesSchema validates `report --format json` on the samples
// against schema/report.schema.json, and checks that the schema refuses a
// rate that is not a share or a missing metrics object.
func TestJSONMatchesSchema(t *testing.T) {
	f, err := os.Open("schema/report.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }() // read only
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("report.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("report.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	check := func(b []byte) error {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			return err
		}
		return s.Validate(inst)
	}
	var b bytes.Buffer
	if err := Write(&b, samplesReport(t), "json", Options{}); err != nil {
		t.Fatal(err)
	}
	if err := check(b.Bytes()); err != nil {
		t.Fatal(err)
	}
	// The plain agent's report carries what the samples do not: calls with
	// unknown arguments per tool.
	plain, err := os.ReadFile("testdata/unverified.json.golden")
	if err != nil {
		t.Fatal(err)
	}
	if err := check(plain); err != nil {
		t.Errorf("testdata/unverified.json.golden: %v", err)
	}
	if check(bytes.Replace(plain, []byte(`"search": 5`), []byte(`"search": "5"`), 1)) == nil {
		t.Error(`schema accepts a count of calls with unknown arguments that is not an integer: "search": "5"`)
	}
	for _, bad := range []struct{ from, to string }{
		{`"rate": 1,`, `"rate": 1.5,`},
		{`"metrics": {`, `"metricz": {`},
		{`"report_version": 1`, `"report_version": "1"`},
	} {
		if !strings.Contains(b.String(), bad.from) {
			t.Fatalf("the report JSON has no %s", bad.from)
		}
		if check([]byte(strings.Replace(b.String(), bad.from, bad.to, 1))) == nil {
			t.Errorf("schema accepts %s", bad.to)
		}
	}
}
