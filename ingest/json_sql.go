package ingest

import (
	"strconv"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/faultlens/faultlens/queries"
)

// The generated parts of the JSON validation (ingest.json_typed): the
// json_transform structure, the paths whose JSON types jt holds and the
// per-field type checks, all from the one list of contract fields and
// types, CanonicalArrowSchema, in contract order, so that they cannot fall
// out of step with each other or with the typed read (typed_sql.go).

// contractField is one field of the contract, nested ones by dotted path.
type contractField struct {
	path string // dotted, e.g. fault.expect.action
	typ  arrow.DataType
}

// contractFieldList walks CanonicalArrowSchema in contract order, each object
// before its members.
func contractFieldList() []contractField {
	var out []contractField
	var walk func(prefix string, fs []arrow.Field)
	walk = func(prefix string, fs []arrow.Field) {
		for _, f := range fs {
			out = append(out, contractField{prefix + f.Name, f.Type})
			if st, ok := f.Type.(*arrow.StructType); ok {
				walk(prefix+f.Name+".", st.Fields())
			}
		}
	}
	walk("", CanonicalArrowSchema.Fields())
	return out
}

// kindOf names a contract type as the rejection reasons do.
func kindOf(t arrow.DataType) string {
	switch t.ID() {
	case arrow.INT64:
		return "integer"
	case arrow.BOOL:
		return "boolean"
	case arrow.STRUCT:
		return "object"
	case arrow.LIST:
		return "array of strings"
	}
	return "string"
}

// transformType is the json_transform structure of contract type t.
func transformType(t arrow.DataType) string {
	switch t.ID() {
	case arrow.STRUCT:
		var fs []string
		for _, f := range t.(*arrow.StructType).Fields() {
			fs = append(fs, strconv.Quote(f.Name)+":"+transformType(f.Type))
		}
		return "{" + strings.Join(fs, ",") + "}"
	case arrow.LIST:
		return `["VARCHAR"]`
	}
	return strconv.Quote(duckType(t))
}

// typeCheckStatement is the ingest.type_check_* statement of each kind.
var typeCheckStatement = map[string]string{
	"string": "ingest.type_check_string", "integer": "ingest.type_check_integer",
	"boolean": "ingest.type_check_boolean", "object": "ingest.type_check_object",
	"array of strings": "ingest.type_check_strings",
}

// jsonTypedFragments fills the generated placeholders of ingest.json_typed.
var jsonTypedFragments = sync.OnceValue(func() queries.Args {
	fields := contractFieldList()
	var paths, checks []string
	for i, f := range fields {
		path := "$." + f.path
		paths = append(paths, queries.Literal(path))
		if f.path == "type" || timestampFields[f.path] {
			continue // rules of their own in ingest.checked
		}
		kind := kindOf(f.typ)
		args := queries.Args{
			"jt":     "jt[" + strconv.Itoa(i+1) + "]",
			"reason": queries.Literal(f.path + ": expected " + kind),
		}
		switch kind {
		case "integer":
			args["path"] = queries.Literal(path)
			var parts []string
			for _, p := range strings.Split(f.path, ".") {
				parts = append(parts, queries.Ident(p))
			}
			args["value"] = "e." + strings.Join(parts, ".")
		case "array of strings":
			args["elements"] = queries.Literal(path + "[*]")
		}
		checks = append(checks, queries.Render(typeCheckStatement[kind], args))
	}
	return queries.Args{
		"structure":   queries.Literal(transformType(arrow.StructOf(CanonicalArrowSchema.Fields()...))),
		"paths":       "[" + queries.List(paths) + "]",
		"type_checks": strings.Join(checks, "\n      "),
	}
})

// jsonTyped is ingest.json_typed over source.
func jsonTyped(source string) string {
	return queries.Render("ingest.json_typed", JSONTypedArgs(source))
}

// extraJSON is ingest.extra_json, extra for the JSON way, over the
// contract's object paths.
var extraJSON = sync.OnceValue(func() string {
	paths, _ := objectPaths()
	return queries.Render("ingest.extra_json", queries.Args{"object_paths": "[" + queries.Literals(paths) + "]"})
})
