package textsafe

import "testing"

func TestTerminal(t *testing.T) {
	cases := []struct {
		name, in, want, multi string
	}{
		{"plain", "hello, 世界 👋", "hello, 世界 👋", "hello, 世界 👋"},
		{"empty", "", "", ""},
		// OSC 52 sets the clipboard; terminated by BEL.
		{"osc52-clipboard", "a\x1b]52;c;SGVsbG8=\x07b", "ab", "ab"},
		// OSC 0 sets the window title; terminated by ST (ESC \).
		{"osc0-title", "\x1b]0;pwned\x1b\\ok", "ok", "ok"},
		// OSC 8 hyperlink: the visible text stays, the URL goes.
		{"osc8-link", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "click", "click"},
		{"osc-unterminated", "x\x1b]8;;https://evil.example", "x", "x"},
		{"osc-8bit-st", "\x1b]2;t\u009cz", "z", "z"},
		{"osc-esc-restarts", "\x1b]2;t\x1b[31mz", "z", "z"},
		{"csi-colour", "\x1b[1;31mred\x1b[0m", "red", "red"},
		{"csi-256-colour", "\x1b[38;5;196mx\x1b[m", "x", "x"},
		{"csi-cursor", "\x1b[2J\x1b[H\x1b[10;20Hx\x1b[3A\x1b[?25l", "x", "x"},
		{"csi-unterminated", "a\x1b[12;", "a", "a"},
		{"csi-broken-by-newline", "a\x1b[12\nb", "a b", "a\nb"},
		{"dcs-sixel", "\x1bPq#0;2;0;0;0#0~~\x1b\\x", "x", "x"},
		{"apc-kitty-graphics", "\x1b_Gf=100;AAAA\x1b\\x", "x", "x"},
		{"pm-sos", "\x1b^pm\x1b\\\x1bXsos\x1b\\x", "x", "x"},
		{"two-byte-esc", "\x1bc\x1b7\x1b8\x1b=\x1b(Bx", "x", "x"},
		{"lone-esc", "abc\x1b", "abc", "abc"},
		{"esc-esc", "\x1b\x1b[31mx", "x", "x"},
		{"esc-nonascii", "\x1bé", "é", "é"},
		// 8-bit C1 forms, as runes (UTF-8 encoded).
		{"c1-csi", "\u009b31mred", "red", "red"},
		{"c1-osc", "\u009d0;pwned\u009cok", "ok", "ok"},
		{"c1-osc-bel", "\u009d52;c;SGVsbG8=\x07ok", "ok", "ok"},
		{"c1-dcs-apc", "\u0090q\u009c\u009fx\u009cy", "y", "y"},
		{"c1-other", "a\u0085b\u0084c", "abc", "abc"},
		// A raw 0x9B byte is not UTF-8: it becomes U+FFFD, not a CSI.
		{"raw-c1-byte", "\x9b31m", "\ufffd31m", "\ufffd31m"},
		{"bidi-override", "abc\u202edcb", "abcdcb", "abcdcb"},
		{"bidi-all", "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061cx", "x", "x"},
		{"nul", "a\x00b", "ab", "ab"},
		{"bell-backspace", "a\x07\x08b", "ab", "ab"},
		{"del", "a\x7fb", "ab", "ab"},
		{"invalid-utf8", "a\xffb\xc3", "a\ufffdb\ufffd", "a\ufffdb\ufffd"},
		{"valid-fffd", "\ufffd", "\ufffd", "\ufffd"},
		{"crlf", "a\r\nb", "a b", "a\nb"},
		{"lf", "a\nb", "a b", "a\nb"},
		{"cr-overwrite", "safe\rEVIL", "safe EVIL", "safe\nEVIL"},
		{"crcrlf", "a\r\r\nb", "a  b", "a\n\nb"},
		{"unicode-line-sep", "a\u2028b\u2029c", "a b c", "a\nb\nc"},
		{"tabs", "a\tb\vc\fd", "a b c d", "a b c d"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Terminal(c.in); got != c.want {
				t.Errorf("Terminal(%q) = %q, want %q", c.in, got, c.want)
			}
			if got := TerminalMultiline(c.in); got != c.multi {
				t.Errorf("TerminalMultiline(%q) = %q, want %q", c.in, got, c.multi)
			}
		})
	}
}

func TestTerminalFastPathDoesNotAllocate(t *testing.T) {
	in := "GET /api/v1/items?id=42 → 200 OK (12.5 ms) 世界"
	lines := in + "\n" + in
	if Terminal(in) != in || TerminalMultiline(lines) != lines {
		t.Fatal("clean input changed")
	}
	if n := testing.AllocsPerRun(100, func() { _ = Terminal(in) }); n != 0 {
		t.Errorf("Terminal allocs = %v, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = TerminalMultiline(lines) }); n != 0 {
		t.Errorf("TerminalMultiline allocs = %v, want 0", n)
	}
	for name, f := range map[string]func(string) string{"Markdown": Markdown, "CSVCell": CSVCell, "HTML": HTML} {
		if n := testing.AllocsPerRun(100, func() { _ = f(in) }); n != 0 {
			t.Errorf("%s allocs = %v, want 0", name, n)
		}
	}
}

func BenchmarkTerminalClean(b *testing.B) {
	s := "a perfectly ordinary tool output line with nothing to strip, 世界"
	for b.Loop() {
		Terminal(s)
	}
}

func BenchmarkTerminalDirty(b *testing.B) {
	s := "\x1b[1;31merror:\x1b[0m something \x1b]52;c;SGVsbG8=\x07failed\r\n\u202e"
	for b.Loop() {
		Terminal(s)
	}
}
