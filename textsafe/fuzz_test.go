package textsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzSeeds are the hostile inputs the table tests cover, as a starting
// corpus for the fuzzer.
var fuzzSeeds = []string{
	"", "plain", "\x1b]52;c;SGVsbG8=\x07", "\x1b]0;pwned\x1b\\", "\x1b[1;31mred\x1b[0m",
	"\x1b[2J\x1b[H", "\u009b31m", "\u009d0;t\u009c", "abc\u202edcb", "a\x00b", "a\xffb",
	"a\r\nb", "\x1bPq\x1b\\", "\x1b_G\x1b\\", "\x1b(B", "\x1b", "\x1b[", "\x1b]", "\u2028",
	"=1+1", "a|b`c`", "\x1b\x1b]]\x07", "\xc2", "\xc2\x9b", "\xe2\x80\xae",
}

func FuzzTerminal(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, multiline := range []bool{false, true} {
			out := clean(s, multiline)
			checkInert(t, s, out, multiline)
			if again := clean(out, multiline); again != out {
				t.Fatalf("not idempotent (multiline=%v): %q → %q → %q", multiline, s, out, again)
			}
		}
		csv := CSVCell(s)
		checkInert(t, s, csv, false)
		if trimmed := strings.TrimLeft(csv, " "); trimmed != "" && strings.ContainsRune("=+-@", rune(trimmed[0])) {
			t.Fatalf("CSVCell(%q) = %q starts a formula", s, csv)
		}
		md := Markdown(s)
		checkInert(t, s, md, false)
		if unescaped(md, '|') || unescaped(md, '<') || unescaped(md, '`') {
			t.Fatalf("Markdown(%q) = %q has an unescaped special", s, md)
		}
	})
}

// checkInert fails the test if out contains anything Terminal must remove.
func checkInert(t *testing.T, in, out string, multiline bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("%q → %q: invalid UTF-8", in, out)
	}
	for _, r := range out {
		bad := r < 0x20 && (!multiline || r != '\n') ||
			r == 0x7f ||
			r >= 0x80 && r <= 0x9f ||
			isBidiControl(r) ||
			r == lineSeparator || r == paragraphSeparator
		if bad {
			t.Fatalf("%q → %q: contains %U", in, out, r)
		}
	}
}

// unescaped reports whether c occurs in s without a preceding backslash
// that is itself unescaped.
func unescaped(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // skip the escaped byte
		case c:
			return true
		}
	}
	return false
}
