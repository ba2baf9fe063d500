package textsafe

import (
	"strings"
	"unicode/utf8"
)

// Terminal returns s made inert for display on a terminal, on one line.
//
// It removes ECMA-48 escape sequences (CSI, OSC, DCS, SOS, PM, APC and
// two-byte ESC sequences, in their 7-bit ESC forms and their 8-bit C1 rune
// forms such as U+009B), every other C0 and C1 control, DEL and the Unicode
// bidi controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069). Tab,
// vertical tab, form feed and line breaks (LF, CR, CRLF, U+2028, U+2029)
// become one space each. Invalid UTF-8 bytes become U+FFFD. Everything else
// passes through, so Terminal(Terminal(s)) == Terminal(s).
//
// When s needs no change it is returned as is, without allocating.
func Terminal(s string) string { return clean(s, false) }

// TerminalMultiline is Terminal but keeps line breaks: LF, CR, CRLF, U+2028
// and U+2029 each become a single "\n". Use it for multi-line views such as
// a message body in a pager; use Terminal for table cells and log lines.
func TerminalMultiline(s string) string { return clean(s, true) }

// clean implements Terminal and TerminalMultiline.
func clean(s string, multiline bool) string {
	i := firstUnsafe(s, multiline)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	newline := byte(' ')
	if multiline {
		newline = '\n'
	}
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
			i++
		case r == esc:
			i = skipEscape(s, i+1)
		case r == c1CSI:
			i = skipCSI(s, i+size)
		case isC1StringStart(r):
			i = skipString(s, i+size)
		case r == '\r':
			i += size
			if i < len(s) && s[i] == '\n' {
				i++
			}
			b.WriteByte(newline)
		case r == '\n' || r == lineSeparator || r == paragraphSeparator:
			b.WriteByte(newline)
			i += size
		case r == '\t' || r == '\v' || r == '\f':
			b.WriteByte(' ')
			i += size
		case !passes(r, multiline):
			i += size // other C0, DEL, C1, bidi controls
		default:
			b.WriteString(s[i : i+size])
			i += size
		}
	}
	return b.String()
}

// firstUnsafe returns the index of the first byte of s that clean would
// change, or len(s) when there is none.
func firstUnsafe(s string, multiline bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			if c == '\n' && multiline {
				i++
				continue
			}
			return i
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || !passes(r, multiline) {
			return i
		}
		i += size
	}
	return len(s)
}

// passes reports whether a valid rune is copied to the output unchanged.
func passes(r rune, multiline bool) bool {
	switch {
	case r == '\n':
		return multiline
	case r < 0x20, r == 0x7f: // C0 controls and DEL
		return false
	case r >= 0x80 && r <= 0x9f: // C1 controls
		return false
	case r == lineSeparator || r == paragraphSeparator:
		return false
	}
	return !isBidiControl(r)
}

// Unicode line and paragraph separators, treated as line breaks.
const (
	lineSeparator      = '\u2028'
	paragraphSeparator = '\u2029'
)

// isBidiControl reports the Unicode bidirectional formatting characters,
// which can make displayed text differ from its logical order ("Trojan
// Source", CVE-2021-42574).
func isBidiControl(r rune) bool {
	switch {
	case r == '\u061c', r == '\u200e', r == '\u200f':
		return true
	case r >= '\u202a' && r <= '\u202e':
		return true
	case r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}
