package textsafe

import "strings"

// formulaPrefixes are the characters that make a spreadsheet read a cell
// as a formula (OWASP, "CSV Injection"). Tab and CR, also on OWASP's list,
// never survive Terminal: they become spaces, which formulaStart skips.
const formulaPrefixes = "=+-@"

// CSVCell returns an untrusted string made safe as one CSV cell opened in a
// spreadsheet: Terminal-clean (one line, no controls), and prefixed with a
// single quote when it would start a formula, i.e. when its first
// non-space character is =, +, - or @ (OWASP's CSV injection guidance).
//
// The rule is applied without exceptions, so a trace string "-12.5" becomes
// "'-12.5": it is text from a trace, and the quote keeps it text. Numbers
// faultlens computes itself are formatted with strconv and must not go
// through CSVCell. CSVCell does not quote for CSV syntax (commas, double
// quotes, leading spaces): write its result with encoding/csv, which does.
func CSVCell(s string) string {
	t := Terminal(s)
	if formulaStart(t) {
		return "'" + t
	}
	return t
}

// formulaStart reports whether the first non-space byte of t is a formula
// prefix.
func formulaStart(t string) bool {
	t = strings.TrimLeft(t, " ")
	return t != "" && strings.IndexByte(formulaPrefixes, t[0]) >= 0
}
