package textsafe

import "html"

// HTML returns an untrusted string made safe as HTML text or a quoted
// attribute value: Terminal-clean, then html.EscapeString (<, >, &, ' and
// "). Templates built with html/template escape on their own; pass them
// Terminal(s) instead so the text is not escaped twice.
func HTML(s string) string {
	return html.EscapeString(Terminal(s))
}
