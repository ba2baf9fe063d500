package textsafe

import "strings"

// Introducers and terminators of ECMA-48 control sequences.
const (
	esc = 0x1b // ESC, starts every 7-bit sequence
	bel = 0x07 // BEL, xterm's alternative string terminator
	can = 0x18 // CAN, aborts a sequence
	sub = 0x1a // SUB, aborts a sequence

	c1DCS = '\u0090' // device control string
	c1SOS = '\u0098' // start of string
	c1CSI = '\u009b' // control sequence introducer
	c1ST  = '\u009c' // string terminator
	c1OSC = '\u009d' // operating system command
	c1PM  = '\u009e' // privacy message
	c1APC = '\u009f' // application program command
)

// st8 is the UTF-8 encoding of the 8-bit string terminator U+009C.
const st8 = string(c1ST)

// isC1StringStart reports the C1 runes that open a control string.
func isC1StringStart(r rune) bool {
	return r == c1DCS || r == c1SOS || r == c1OSC || r == c1PM || r == c1APC
}

// skipEscape skips an escape sequence whose ESC ends just before i and
// returns the index where normal text resumes.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i // a lone ESC at the end
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC
		return skipString(s, i+1)
	}
	// Any other sequence is ESC, intermediate bytes 0x20–0x2F, then one
	// final byte 0x30–0x7E, e.g. ESC c (reset) or ESC ( B (charset).
	j := i
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
		j++
	}
	if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
		return j + 1
	}
	// Malformed: drop the ESC and intermediates and resume at the odd byte,
	// which is then handled on its own (dropped if it is a control).
	return j
}

// skipCSI skips the body of a control sequence: parameter bytes 0x30–0x3F
// and intermediate bytes 0x20–0x2F up to a final byte 0x40–0x7E. A byte
// outside those ranges ends a malformed sequence without being consumed.
func skipCSI(s string, i int) int {
	for ; i < len(s); i++ {
		c := s[i]
		if c >= 0x40 && c <= 0x7e {
			return i + 1
		}
		if c < 0x20 || c > 0x3f {
			return i
		}
	}
	return i
}

// skipString skips the body of a control string (OSC, DCS, SOS, PM, APC)
// up to its terminator: ST (ESC \ or U+009C), or BEL as xterm accepts for
// OSC, or CAN/SUB which abort it. An ESC not followed by \ ends the string
// and starts a new sequence, as in xterm. An unterminated string runs to
// the end of s, as it would swallow the rest of the output on a terminal.
func skipString(s string, i int) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case bel, can, sub:
			return i + 1
		case esc:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i
		case st8[0]:
			if strings.HasPrefix(s[i:], st8) {
				return i + len(st8)
			}
		}
	}
	return i
}
