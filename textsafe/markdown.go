package textsafe

import "strings"

// markdownSpecials are escaped with a backslash by Markdown: the table
// separator, code spans, emphasis, link brackets, raw-HTML angle brackets
// and the backslash itself. CommonMark and GitHub Flavored Markdown accept
// a backslash before any ASCII punctuation, so the escapes render as the
// plain characters.
const markdownSpecials = "\\`*_[]<>|"

// Markdown returns an untrusted string made safe inside Markdown text or a
// table cell: Terminal-clean (one line, so it cannot end a table row) with
// every character of \ ` * _ [ ] < > | escaped by a backslash, so it cannot
// close a cell, open a code span, emphasis or link, or inject HTML.
func Markdown(s string) string {
	t := Terminal(s)
	if !strings.ContainsAny(t, markdownSpecials) {
		return t
	}
	var b strings.Builder
	b.Grow(len(t) + 8)
	for i := 0; i < len(t); i++ {
		if strings.IndexByte(markdownSpecials, t[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(t[i])
	}
	return b.String()
}
