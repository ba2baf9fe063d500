package simulate

import (
	"strconv"
	"unicode/utf8"
)

// encoder builds JSON Lines by appending to one byte slice: no reflection
// and no allocation per event. Fields are written in call order; the
// encoder only tracks whether a comma is due.
type encoder struct {
	b      []byte
	comma  bool
	offMin int    // zone offset every timestamp of the run is written in
	runID  []byte // JSON-escaped run id, without quotes
}

// begin opens an event with the common fields.
func (e *encoder) begin(typ string, ts int64, seq int) {
	e.b = append(e.b, `{"type":"`...)
	e.b = append(e.b, typ...)
	e.b = append(e.b, `","run_id":"`...)
	e.b = append(e.b, e.runID...)
	e.b = append(e.b, `","ts":"`...)
	e.b = appendTime(e.b, ts, e.offMin)
	e.b = append(e.b, `","seq":`...)
	e.b = strconv.AppendInt(e.b, int64(seq), 10)
	e.comma = true
}

// end closes the event and its line.
func (e *encoder) end() {
	e.b = append(e.b, '}', '\n')
}

// key writes a member name; k must need no escaping.
func (e *encoder) key(k string) {
	if e.comma {
		e.b = append(e.b, ',')
	}
	e.b = append(e.b, '"')
	e.b = append(e.b, k...)
	e.b = append(e.b, '"', ':')
	e.comma = true
}

func (e *encoder) str(k, v string) {
	e.key(k)
	e.b = appendQuoted(e.b, v)
}

func (e *encoder) num(k string, v int64) {
	e.key(k)
	e.b = strconv.AppendInt(e.b, v, 10)
}

func (e *encoder) boolean(k string, v bool) {
	e.key(k)
	e.b = strconv.AppendBool(e.b, v)
}

func (e *encoder) time(k string, ms int64) {
	e.key(k)
	e.b = append(e.b, '"')
	e.b = appendTime(e.b, ms, e.offMin)
	e.b = append(e.b, '"')
}

// id writes a run-scoped identifier: the run id, a kind tag such as "/c"
// and a number, so ids are unique across runs and suites.
func (e *encoder) id(k, tag string, n int) {
	e.key(k)
	e.appendID(tag, n)
}

func (e *encoder) appendID(tag string, n int) {
	e.b = append(e.b, '"')
	e.b = append(e.b, e.runID...)
	e.b = append(e.b, tag...)
	e.b = strconv.AppendInt(e.b, int64(n), 10)
	e.b = append(e.b, '"')
}

// local writes a run-local identifier such as "s3" (stage ids are unique
// within their run only).
func (e *encoder) local(k, tag string, n int) {
	e.key(k)
	e.b = append(e.b, '"')
	e.b = append(e.b, tag...)
	e.b = strconv.AppendInt(e.b, int64(n), 10)
	e.b = append(e.b, '"')
}

// open starts a nested object member; close ends it.
func (e *encoder) open(k string) {
	e.key(k)
	e.b = append(e.b, '{')
	e.comma = false
}

func (e *encoder) close() {
	e.b = append(e.b, '}')
	e.comma = true
}

// openArray starts an array member; elements follow with elem*, then
// closeArray.
func (e *encoder) openArray(k string) {
	e.key(k)
	e.b = append(e.b, '[')
	e.comma = false
}

func (e *encoder) closeArray() {
	e.b = append(e.b, ']')
	e.comma = true
}

func (e *encoder) elemStr(v string) {
	if e.comma {
		e.b = append(e.b, ',')
	}
	e.b = appendQuoted(e.b, v)
	e.comma = true
}

func (e *encoder) elemID(tag string, n int) {
	if e.comma {
		e.b = append(e.b, ',')
	}
	e.appendID(tag, n)
	e.comma = true
}

// appendQuoted appends s as a JSON string. The vocabulary never needs
// escaping, so the scan is the common path; user-supplied text such as a
// suite name takes the escaping path.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendEscaped(b, s)
	return append(b, '"')
}

// appendEscaped appends s JSON-escaped, without quotes. Invalid UTF-8
// becomes U+FFFD.
func appendEscaped(b []byte, s string) []byte {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			clean = false
			break
		}
	}
	if clean {
		return append(b, s...)
	}
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return b
}
