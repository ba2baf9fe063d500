package ingest

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/faultlens/faultlens/queries"
)

// FuzzKeyScan checks the key/type scan against encoding/json: a line is
// lineMalformed exactly when encoding/json does not find one valid JSON
// object in it, and a line the scan calls lineTyped decodes to an object
// whose every key, at every contract object, is the contract's and whose
// every value has the contract's JSON type (checked independently below).
func FuzzKeyScan(f *testing.F) {
	for _, l := range goodLines {
		f.Add([]byte(l))
	}
	for _, c := range badLineCases {
		f.Add([]byte(c.line))
	}
	for _, l := range richLines(f)[295:] {
		f.Add([]byte(l))
	}
	for _, s := range []string{"", " ", "{}", `{"a":1,}`, `{"a":NaN}`, `{"seq":"\u0031"}`, `{"x":"\ud800"}`,
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001), `{"x":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`,
		`{"x":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`, `{"fault":{"expect":{"action":1e3}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var ls lineScanner
		v := ls.line(line)
		object := json.Valid(line) && bytes.HasPrefix(bytes.TrimLeft(line, " \t\r\n"), []byte("{"))
		if (v != lineMalformed) != object {
			t.Fatalf("%q: verdict %d, encoding/json: valid object %v", line, v, object)
		}
		if v != lineTyped {
			return
		}
		d := json.NewDecoder(bytes.NewReader(line))
		d.UseNumber()
		var m map[string]any
		if err := d.Decode(&m); err != nil {
			t.Fatalf("%q: lineTyped but %v", line, err)
		}
		if err := typedObject(m, CanonicalArrowSchema.Fields(), ""); err != nil {
			t.Fatalf("%q: lineTyped but %v", line, err)
		}
	})
}

var plainIntegerRE = regexp.MustCompile(`^-?(0|[1-9][0-9]{0,17})$`)

// typedObject is the contract's typing stated independently of the scan:
// every key of m is one of fs, and every value has its field's JSON type.
func typedObject(m map[string]any, fs []arrow.Field, prefix string) error {
	for k, v := range m {
		var f *arrow.Field
		for i := range fs {
			if fs[i].Name == k {
				f = &fs[i]
			}
		}
		if f == nil {
			return fmt.Errorf("unknown key %s%s", prefix, k)
		}
		if v == nil {
			continue
		}
		ok := false
		switch f.Type.ID() {
		case arrow.STRING:
			_, ok = v.(string)
		case arrow.INT64:
			switch n := v.(type) {
			case json.Number:
				ok = plainIntegerRE.MatchString(string(n))
			case string:
				ok = plainIntegerRE.MatchString(n)
			}
		case arrow.BOOL:
			_, ok = v.(bool)
		case arrow.STRUCT:
			var sub map[string]any
			if sub, ok = v.(map[string]any); ok {
				if err := typedObject(sub, f.Type.(*arrow.StructType).Fields(), prefix+k+"."); err != nil {
					return err
				}
			}
		case arrow.LIST:
			var elems []any
			if elems, ok = v.([]any); ok {
				for _, e := range elems {
					if _, isStr := e.(string); !isStr {
						ok = false
					}
				}
			}
		}
		if !ok {
			return fmt.Errorf("field %s%s: %v is not of type %s", prefix, k, v, f.Type)
		}
	}
	return nil
}

// scanValues are the values FuzzKeyScanMatchesJSONWay puts into contract
// fields: of every JSON type, each canonical (no integer in another notation
// than -?(0|[1-9][0-9]{0,17}), no escaped key), so that the scan and the JSON way
// must agree both ways.
var scanValues = []string{`"s"`, `42`, `-7`, `"12"`, `1.5`, `true`, `false`, `null`, `{}`, `{"zz":1}`, `[]`,
	`["a"]`, `["a",1]`, `[null]`, `"true"`, `"x\"y"`, `"[1]"`, `99999999999999999999`}

// FuzzKeyScanMatchesJSONWay builds contract lines from the bytes it is given
// (each pair picks a contract field and a value of scanValues; a pick past
// the fields adds a key the contract does not name) and checks that the scan
// calls a line lineTyped exactly when the JSON way (ingest.json_typed and
// ingest.extra_json) finds no field of a wrong type and nothing for extra.
func FuzzKeyScanMatchesJSONWay(f *testing.F) {
	for _, s := range []string{"", "\x00\x00", "\x03\x04", "\x03\x01\x05\x00\x3a\x0b", "\xff\x00", "\x10\x08\x20\x0c\x30\x0d\x40\x09",
		"\x05\x09", "\x3c\x0b\x3d\x0c", "\x3e\x0d\x01\x02"} {
		f.Add([]byte(s))
	}
	db := openDB(f)
	f.Fuzz(func(t *testing.T, picks []byte) {
		line := pickedLine(picks)
		var ls lineScanner
		v := ls.line([]byte(line))
		if v == lineMalformed {
			t.Fatalf("%s: malformed", line)
		}
		agree, err := jsonWayTyped(db, line)
		if err != nil {
			t.Fatal(err)
		}
		if (v == lineTyped) != agree {
			t.Fatalf("%s: verdict %d, JSON way: no wrong type and no extra %v", line, v, agree)
		}
	})
}

// pickedLine is toolLine with the fields picks sets (see
// FuzzKeyScanMatchesJSONWay): a later pick of the same top-level key
// replaces the earlier, so that no key repeats.
func pickedLine(picks []byte) string {
	var keys []string
	vals := map[string]string{}
	set := func(k, v string) {
		if _, ok := vals[k]; !ok {
			keys = append(keys, k)
		}
		vals[k] = v
	}
	for _, m := range strings.Split(strings.Trim(toolLine, "{}"), ",") {
		k, v, _ := strings.Cut(m, ":")
		set(strings.Trim(k, `"`), v)
	}
	for i := 0; i+1 < len(picks) && i < 16; i += 2 {
		v := scanValues[int(picks[i+1])%len(scanValues)]
		if int(picks[i]) >= len(contractFields) {
			set(fmt.Sprintf("zz%d", picks[i]), v)
			continue
		}
		parts := strings.Split(contractFields[picks[i]].path, ".")
		for j := len(parts) - 1; j > 0; j-- {
			v = fmt.Sprintf(`{%q:%s}`, parts[j], v)
		}
		set(parts[0], v)
	}
	var ms []string
	for _, k := range keys {
		ms = append(ms, fmt.Sprintf("%q:%s", k, vals[k]))
	}
	return "{" + strings.Join(ms, ",") + "}"
}

// jsonWayTyped reports whether the JSON way finds no field of a wrong type
// in line and keeps nothing of it in extra.
func jsonWayTyped(db *sql.DB, line string) (bool, error) {
	lit := queries.Literal(line)
	src := "(SELECT 1::BIGINT AS line_no, " + lit + "::JSON AS raw, " + lit + " AS text, NULL::BIGINT AS file_id)"
	var ok bool
	err := db.QueryRow("SELECT bad_field IS NULL AND (" + extraJSON() + ") IS NULL FROM (" + jsonTyped(src) + ")").Scan(&ok)
	return ok, err
}
