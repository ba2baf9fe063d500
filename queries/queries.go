// Package queries holds every SQL statement faultlens runs, as embedded .sql
// files. Each file groups the statements of one concern; each statement is
// introduced by a header comment "-- name: <name>" and runs to the next header.
//
// Values reach a statement in one of two ways. Where DuckDB takes a
// parameter, it is a named one ($suite, bound with sql.Named). Where it does
// not (a table function's file, a COPY target, an IN list spliced for zone
// maps, a sub-statement), the statement has a {{placeholder}} that Render
// fills with SQL text built by Literal, Ident, Literals or List, so quoting
// happens here only. Expressions the metric SQL repeats are TEMP macros of
// the metrics session (session.sql). The tests prepare every statement
// against a schema'd database.
package queries

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
)

//go:embed *.sql
var files embed.FS

// byName maps a statement name to its SQL text; filled once at init.
var byName = mustLoad()

// Get returns the statement with the given name. It panics on an unknown name:
// names are compile-time constants of the callers, so a miss is a programming
// error that the tests catch.
func Get(name string) string {
	q, ok := byName[name]
	if !ok {
		panic(fmt.Sprintf("queries: no statement named %q", name))
	}
	return q
}

// Names lists every statement name, sorted.
func Names() []string {
	out := make([]string, 0, len(byName))
	for n := range byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func mustLoad() map[string]string {
	m, err := load()
	if err != nil {
		panic(err)
	}
	return m
}

func load() (map[string]string, error) {
	entries, err := files.ReadDir(".")
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, e := range entries {
		b, err := files.ReadFile(e.Name())
		if err != nil {
			return nil, err
		}
		if err := split(e.Name(), string(b), m); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// split cuts one file into its named statements.
func split(file, text string, into map[string]string) error {
	const header = "-- name:"
	var name string
	var body strings.Builder
	flush := func() error {
		if name == "" {
			return nil
		}
		if _, dup := into[name]; dup {
			return fmt.Errorf("queries: %s: statement %q defined twice", file, name)
		}
		into[name] = strings.TrimSpace(body.String())
		body.Reset()
		return nil
	}
	for _, line := range strings.SplitAfter(text, "\n") {
		if strings.HasPrefix(line, header) {
			if err := flush(); err != nil {
				return err
			}
			name = strings.TrimSpace(strings.TrimPrefix(line, header))
			continue
		}
		if name != "" {
			body.WriteString(line)
		}
	}
	return flush()
}

// Version is a hash of every statement, so that results computed by one
// version of the SQL (the per-suite report cache) are not read by another.
var Version = version()

func version() string {
	h := sha256.New()
	for _, n := range Names() {
		h.Write([]byte(n))
		h.Write([]byte{0})
		h.Write([]byte(byName[n]))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Statements returns the statements of a named entry that holds several,
// each ending in ";" at the end of a line, without comment lines: for a
// caller that runs each on its own (whatever the others did).
func Statements(name string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(Get(name), "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "--") {
			continue
		}
		cur.WriteString(line)
		cur.WriteString("\n")
		if strings.HasSuffix(t, ";") {
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		}
	}
	if s := strings.TrimSpace(cur.String()); s != "" {
		out = append(out, s)
	}
	return out
}
