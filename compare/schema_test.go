package compare

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compileSchema compiles a committed JSON schema file.
func compileSchema(t *testing.T, path string) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }() // read only
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(path, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s
}

func validate(s *jsonschema.Schema, b []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	return s.Validate(inst)
}

// TestJSONMatchesSchema validates `compare --format json` output against
// schema/result.schema.json: the golden comparison, one whose gate matches
// no row, and one that fails and skips gates; and checks that the schema
// refuses what version 1 wrote (a reason sentence, a verdict like "~").
func TestJSONMatchesSchema(t *testing.T) {
	s := compileSchema(t, "schema/result.schema.json")
	noRow := &Result{ResultVersion: ResultVersion, Alpha: 0.05, Confidence: 0.95, Rows: []Row{rateRow("success", 1, 2, 1, 2)}}
	Evaluate(noRow, DefaultGates())
	for name, res := range map[string]*Result{"golden": goldenResult(), "no row": noRow} {
		var b bytes.Buffer
		if err := Write(&b, res, "json"); err != nil {
			t.Fatal(err)
		}
		if err := validate(s, b.Bytes()); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if !strings.Contains(b.String(), `"outcome": "fail"`) && name == "golden" {
			t.Errorf("%s: no failed gate in the JSON", name)
		}
	}
	var b bytes.Buffer
	if err := Write(&b, goldenResult(), "json"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct{ from, to string }{
		{`"outcome": "fail",`, `"outcome": "fail", "reason": "candidate has 5 of 40",`},
		{`"verdict": "significant"`, `"verdict": "-25.0pp"`},
		{`"skip_reason": "`, `"skip_reason": "x`},
		{`"result_version": 2`, `"result_version": 1`},
	} {
		if !strings.Contains(b.String(), bad.from) {
			t.Fatalf("the golden JSON has no %s", bad.from)
		}
		if validate(s, []byte(strings.Replace(b.String(), bad.from, bad.to, 1))) == nil {
			t.Errorf("schema accepts %s", bad.to)
		}
	}
}
