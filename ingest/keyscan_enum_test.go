package ingest

import (
	"database/sql"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/queries"
)

// sqlEnumCheck finds the enumeration checks of ingest.checked rendered with
// enums_proven false: the event type the rule applies to (none for type),
// the quoted values and the field.
var sqlEnumCheck = regexp.MustCompile(`WHEN (?:e\.type = '(\w+)' AND )?(?:e\.[\w.]+ IS NOT NULL AND )?NOT \(false OR ` +
	`(?:list_contains\(\s*\[([^\]]*)\],\s*e\.([\w.]+)\)|list_bool_and\(list_transform\(e\.(\w+), d\s*-> d IN \(([^)]*)\)\)\))\)`)

// TestEnumRulesMatchSQL: enumRules and the lists of ingest.checked are the
// same rules, in the same order, value for value.
func TestEnumRulesMatchSQL(t *testing.T) {
	q := rulesProven("x", true, false)
	var got []enumRule
	for _, m := range sqlEnumCheck.FindAllStringSubmatch(q, -1) {
		path, list := m[3], m[2]
		if path == "" {
			path, list = m[4], m[5]
		}
		var values []string
		for _, v := range strings.Split(list, ",") {
			values = append(values, strings.Trim(strings.TrimSpace(v), "'"))
		}
		got = append(got, enumRule{m[1], path, values})
	}
	if n := strings.Count(q, "(false OR "); len(got) != n || n != len(enumRules) {
		t.Fatalf("found %d enumeration checks of %d in ingest.checked; enumRules has %d", len(got), n, len(enumRules))
	}
	for i, r := range enumRules {
		if g := got[i]; g.typ != r.typ || g.path != r.path || !slices.Equal(g.values, r.values) {
			t.Errorf("check %d: ingest.checked %+v, enumRules %+v", i, g, r)
		}
	}
	if q := rulesProven("x", false, true); strings.Count(q, "(false OR ") != 4 || strings.Count(q, "(true OR ") != len(enumRules) {
		t.Errorf("enums_proven true does not reach every check")
	}
}

// baseLine is the line of goodLines of type typ ("" for the first).
func baseLine(typ string) string {
	for _, l := range goodLines {
		if strings.Contains(l, `"type":"`+typ+`"`) {
			return l
		}
	}
	return goodLines[0]
}

// withEnum sets the field at path (dotted) of line, a flat contract object,
// to the JSON value v, replacing the top-level key if it is there.
func withEnum(line, path, v string) string {
	parts := strings.Split(path, ".")
	for j := len(parts) - 1; j > 0; j-- {
		v = fmt.Sprintf(`{%q:%s}`, parts[j], v)
	}
	var ms []string
	for _, m := range strings.Split(strings.Trim(line, "{}"), ",") {
		if k, _, _ := strings.Cut(m, ":"); k != `"`+parts[0]+`"` {
			ms = append(ms, m)
		}
	}
	return "{" + strings.Join(append(ms, fmt.Sprintf("%q:%s", parts[0], v)), ",") + "}"
}

// enumValueJSON is v as the field's JSON value: a string, or an array of
// one string for degradations.
func enumValueJSON(path, v string) string {
	if path == "degradations" {
		return "[" + v + "]"
	}
	return v
}

// TestScanProvesEnums: every value of every rule is proven on a line of
// the rule's type; its upper or lower case, white space around it, an
// escape in it, the empty string and another type's value are not; null
// is (the check does not apply).
func TestScanProvesEnums(t *testing.T) {
	var ls lineScanner
	judge := func(line string) bool {
		if v := ls.line([]byte(line)); v != lineTyped {
			t.Fatalf("%s: verdict %v, want typed", line, v)
		}
		return !ls.enumOdd
	}
	for _, r := range enumRules {
		base := baseLine(r.typ)
		for _, v := range r.values {
			if l := withEnum(base, r.path, enumValueJSON(r.path, `"`+v+`"`)); !judge(l) {
				t.Errorf("%s: not proven", l)
			}
			odd := []string{`"` + strings.ToUpper(v) + `"`, `"` + strings.ToLower(v) + `"`, `" ` + v + `"`, `"` + v + ` "`,
				`"\u00` + fmt.Sprintf("%x", v[0]) + v[1:] + `"`, `"` + v[:1] + `\/` + v[1:] + `"`, `""`, `"` + v + `\n"`}
			for _, o := range odd {
				if o == `"`+v+`"` {
					continue
				}
				if l := withEnum(base, r.path, enumValueJSON(r.path, o)); judge(l) {
					t.Errorf("%s: proven", l)
				}
			}
		}
		if l := withEnum(base, r.path, "null"); r.typ != "" && !judge(l) {
			t.Errorf("%s: null not proven", l)
		}
	}
	for _, c := range []struct {
		line   string
		proven bool
	}{
		{withEnum(modelLine, "outcome", `"interrupted"`), false}, // a stage's outcome
		{withEnum(stageLine, "outcome", `"interrupted"`), true},
		{withEnum(evidenceLine, "status", `"ok"`), false}, // a tool call's status
		{withEnum(runLine, "status", `"anything"`), true}, // no rule for a run's status
		{withEnum(terminalLine, "degradations", `[]`), true},
		{withEnum(terminalLine, "degradations", `["tool","safety"]`), true},
		{withEnum(terminalLine, "degradations", `["tool","x"]`), false},
		{withEnum(runLine, "fault", `{"class":"network","expect":{"action":"retry","terminal":"failed"}}`), true},
		{withEnum(runLine, "fault", `{"class":"network","expect":{"action":"retry","terminal":"ok"}}`), false},
		{`{"run_id":"r1","ts":"2026-11-28T02:00:00Z"}`, false}, // no type: keep the checks
		{withEnum(runLine, "type", "null"), false},
	} {
		if got := judge(c.line); got != c.proven {
			t.Errorf("%s: proven %v, want %v", c.line, got, c.proven)
		}
	}
}

// enumPool are the values FuzzScanProvesEnums puts into enumerated fields:
// every rule's values and near misses.
var enumPool = func() []string {
	var pool []string
	for _, r := range enumRules {
		for _, v := range r.values {
			pool = append(pool, `"`+v+`"`)
		}
	}
	return append(pool, `""`, `"OK"`, `" ok"`, `"ok "`, `"o\u006b"`, `"\u006fk"`, `"run\u0000"`, `"Run"`, `"tool_call\t"`, `"ök"`, "null")
}()

// FuzzScanProvesEnums builds contract lines from the bytes it is given (the
// first picks the line's type, each pair after it an enumerated field and a
// value of enumPool, or for degradations up to three) and checks that a
// line the scan proves gets the same reason from ingest.checked with the
// enumeration checks as without them.
func FuzzScanProvesEnums(f *testing.F) {
	for _, s := range []string{"", "\x00", "\x01\x07\x20", "\x02\x08\x00\x0c\x05", "\x05\x16\x41\x15\x02", "\x00\x01\x03\x02\x09",
		"\x04\x13\x30\x12\x10", "\x03\x10\x28\x11\x0a", "\x01\x00\x50"} {
		f.Add([]byte(s))
	}
	db := openDB(f)
	f.Fuzz(func(t *testing.T, picks []byte) {
		line := goodLines[0]
		if len(picks) > 0 {
			line = goodLines[int(picks[0])%len(goodLines)]
			picks = picks[1:]
		}
		for i := 0; i+1 < len(picks) && i < 12; i += 2 {
			r := enumRules[int(picks[i])%len(enumRules)]
			v := enumPool[int(picks[i+1])%len(enumPool)]
			if r.path == "degradations" {
				var es []string
				for j := 0; j < int(picks[i+1])%4; j++ {
					es = append(es, enumPool[(int(picks[i+1])*7+j*13)%len(enumPool)])
				}
				v = "[" + strings.Join(slices.DeleteFunc(es, func(e string) bool { return e == "null" }), ",") + "]"
			}
			line = withEnum(line, r.path, v)
		}
		var ls lineScanner
		if ls.line([]byte(line)) != lineTyped || ls.enumOdd {
			return
		}
		checked, proven, err := enumReasons(db, line)
		if err != nil {
			t.Fatal(err)
		}
		if checked != proven {
			t.Fatalf("%s: proven by the scan; ingest.checked says %q with the checks, %q without", line, checked, proven)
		}
	})
}

// enumReasons is ingest.checked's reason for line with the enumeration
// checks and without them ("" for none).
func enumReasons(db *sql.DB, line string) (checked, proven string, err error) {
	lit := queries.Literal(line)
	src := "(SELECT 1::BIGINT AS line_no, " + lit + "::JSON AS raw, " + lit + " AS text, NULL::BIGINT AS file_id)"
	err = db.QueryRow("SELECT coalesce(a.reason, ''), coalesce(b.reason, '') FROM ("+rulesProven(jsonTyped(src), false, false)+
		") a, ("+rulesProven(jsonTyped(src), false, true)+") b").Scan(&checked, &proven)
	return checked, proven, err
}

// TestEnumsJudgedOnTheTypedRoute ingests, for every enumeration, a file of
// one event of the rule's type with a value outside it: the scan leaves the
// file unproven, so ingest.checked still rejects the line, naming the field;
// the same line with an allowed value is stored by the typed read.
func TestEnumsJudgedOnTheTypedRoute(t *testing.T) {
	db := openDB(t)
	for i, r := range enumRules {
		base := strings.ReplaceAll(baseLine(r.typ), `"run_id":"r1"`, fmt.Sprintf(`"run_id":"enum-%d"`, i))
		want := "invalid value for " + r.path
		switch r.path {
		case "type":
			want = "unknown type"
		case "degradations":
			want = "invalid value in degradations"
		}
		bad := ingestContent(t, db, fmt.Sprintf("bad-%d.jsonl", i), lines(withEnum(base, r.path, enumValueJSON(r.path, `"bogus"`))))
		if got := rejections(t, db, bad.Path); !slices.Equal(got, []rejection{{1, want}}) {
			t.Errorf("%s: rejected %v, want line 1: %s", r.path, got, want)
		}
		good := ingestContent(t, db, fmt.Sprintf("good-%d.jsonl", i), lines(withEnum(base, r.path, enumValueJSON(r.path, `"`+r.values[0]+`"`))))
		if !good.typedRead || good.Accepted != 1 {
			t.Errorf("%s: typed read %v, accepted %d; want true, 1", r.path, good.typedRead, good.Accepted)
		}
	}
}
