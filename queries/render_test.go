package queries

import (
	"strings"
	"testing"
)

func TestRenderFillsEveryPlaceholder(t *testing.T) {
	for _, name := range Names() {
		ph := Placeholders(name)
		args := Args{}
		for _, p := range ph {
			args[p] = "x_" + p
		}
		got := Render(name, args)
		if left := replaceOutsideComments(got, func(m string) string { return "LEFT" + m }); left != got {
			t.Errorf("%s: placeholder left after Render: %q", name, got)
		}
	}
}

func TestRenderPanicsOnMissingAndUnused(t *testing.T) {
	var withPH string
	for _, name := range Names() {
		if len(Placeholders(name)) > 0 {
			withPH = name
			break
		}
	}
	if withPH == "" {
		t.Skip("no statement takes a placeholder")
	}
	mustPanic := func(what string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: Render did not panic", what)
			}
		}()
		f()
	}
	mustPanic("missing", func() { Render(withPH, Args{}) })
	args := Args{"not_a_placeholder": "1"}
	for _, p := range Placeholders(withPH) {
		args[p] = "1"
	}
	mustPanic("unused", func() { Render(withPH, args) })
}

func TestQuoting(t *testing.T) {
	cases := []struct{ got, want string }{
		{Literal("it's"), "'it''s'"},
		{Literal(""), "''"},
		{Ident(`a"b`), `"a""b"`},
		{Literals([]string{"a", "b'c"}), "'a', 'b''c'"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
	if strings.Count(Literals(nil), ",") != 0 {
		t.Errorf("empty list renders a comma")
	}
}

func TestSplitRefusesADuplicateName(t *testing.T) {
	m := map[string]string{}
	if err := split("a.sql", "-- name: x\nSELECT 1;\n", m); err != nil {
		t.Fatal(err)
	}
	err := split("b.sql", "-- name: y\nSELECT 2;\n-- name: x\nSELECT 3;\n", m)
	if err == nil || !strings.Contains(err.Error(), `b.sql: statement "x" defined twice`) {
		t.Fatalf("err %v", err)
	}
	if m["x"] != "SELECT 1;" || m["y"] != "SELECT 2;" {
		t.Errorf("statements %q", m)
	}
}

// A placeholder named in a comment line is documentation: not filled, not
// required, and a value with a newline cannot end the comment.
func TestRenderLeavesCommentsAlone(t *testing.T) {
	byName["test.comment"] = "-- {{path}} is quoted\nSELECT * FROM read_parquet({{path}});"
	defer delete(byName, "test.comment")
	got := Render("test.comment", Args{"path": Literal("a\nb")})
	want := "-- {{path}} is quoted\nSELECT * FROM read_parquet('a\nb');"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if ph := Placeholders("test.comment"); len(ph) != 1 || ph[0] != "path" {
		t.Errorf("placeholders %v", ph)
	}
}

func TestStatements(t *testing.T) {
	byName["test.several"] = "-- first\nDROP TABLE a;\n  -- second\nSELECT 1,\n  2;\nSELECT 3"
	defer delete(byName, "test.several")
	got := Statements("test.several")
	want := []string{"DROP TABLE a;", "SELECT 1,\n  2;", "SELECT 3"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	if n := len(Statements("session.drop")); n != 9 {
		t.Errorf("session.drop: %d statements, want 9", n)
	}
}
