package queries

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// Args fills the {{name}} placeholders of a statement. Values are SQL text:
// build them with Literal, Ident or List so that quoting happens in one place
// and nothing from a file name or a trace reaches SQL unquoted.
type Args map[string]string

// placeholder matches {{name}} in a statement.
var placeholder = regexp.MustCompile(`\{\{([a-z_]+)\}\}`)

// Render returns the named statement with every placeholder filled from args.
// A placeholder without a value, or a value no placeholder uses, is a
// programming error and panics (the statement names are constants of the
// callers; the queries tests render every statement). Placeholders named in
// a comment line are documentation and left as they are: a value holding a
// newline (a path may) must not end the comment and become SQL.
func Render(name string, args Args) string {
	used := map[string]bool{}
	var missing []string
	out := replaceOutsideComments(Get(name), func(m string) string {
		key := m[2 : len(m)-2]
		v, ok := args[key]
		if !ok {
			missing = append(missing, key)
			return m
		}
		used[key] = true
		return v
	})
	if len(missing) > 0 {
		panic(fmt.Sprintf("queries: %s: no value for %s", name, strings.Join(missing, ", ")))
	}
	var unused []string
	for k := range args {
		if !used[k] {
			unused = append(unused, k)
		}
	}
	if len(unused) > 0 {
		sort.Strings(unused)
		panic(fmt.Sprintf("queries: %s: no placeholder for %s", name, strings.Join(unused, ", ")))
	}
	return out
}

// Placeholders lists the placeholder names a statement takes, sorted and
// without repeats.
func Placeholders(name string) []string {
	seen := map[string]bool{}
	var out []string
	replaceOutsideComments(Get(name), func(m string) string {
		if key := m[2 : len(m)-2]; !seen[key] {
			seen[key] = true
			out = append(out, key)
		}
		return m
	})
	sort.Strings(out)
	return out
}

// replaceOutsideComments replaces each placeholder of q by f's value, except
// on lines that are comments ("--" first after any indentation).
func replaceOutsideComments(q string, f func(string) string) string {
	lines := strings.SplitAfter(q, "\n")
	for i, line := range lines {
		if !strings.HasPrefix(strings.TrimSpace(line), "--") {
			lines[i] = placeholder.ReplaceAllStringFunc(line, f)
		}
	}
	return strings.Join(lines, "")
}

// Literal returns s as a SQL string expression, the one way a string from a
// file name or a trace becomes SQL text (table functions such as read_ndjson
// take their file argument as a literal, not a parameter). DuckDB's parser
// reads the statement as a C string, so a NUL byte would end the statement
// inside the literal ("unterminated quoted string"): each NUL is spliced in
// as chr(0), the whole in parentheses so that an operator after it (::JSON)
// applies to all of it. A DuckDB string is UTF-8, so a byte that is not
// valid UTF-8 becomes U+FFFD, as DuckDB's own readers make it.
func Literal(s string) string {
	if !strings.ContainsRune(s, 0) && utf8.ValidString(s) {
		return quote(s)
	}
	s = validUTF8(s)
	parts := strings.Split(s, "\x00")
	var b strings.Builder
	b.WriteByte('(')
	for i, p := range parts {
		if i > 0 {
			b.WriteString(" || chr(0) || ")
		}
		b.WriteString(quote(p))
	}
	b.WriteByte(')')
	return b.String()
}

// validUTF8 is s with each byte that is not part of valid UTF-8 replaced
// by U+FFFD (ranging over a string yields U+FFFD for each such byte).
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}

// quote is s between single quotes, each quote doubled: a complete literal
// for a valid UTF-8 string without NUL.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// Ident quotes s as a SQL identifier (a column, table or database name).
func Ident(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// List joins already-rendered SQL values with commas, e.g. List of Literals
// for an IN (...) list or a file list.
func List(values []string) string { return strings.Join(values, ", ") }

// Literals renders each string as a literal and joins them with commas.
func Literals(ss []string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = Literal(s)
	}
	return List(out)
}
