package ingest

import "bytes"

// The key/type scan: a hand-written JSON scanner over each
// line's bytes, run by the prescan, which reads every byte anyway. It
// decides per line whether DuckDB's typed reader judges the line exactly as
// the JSON way would: a JSON object (RFC 8259, as encoding/json reads it)
// whose keys, at every contract object, are the contract's, each once, and
// whose values have the contract's JSON types. The typed reader drops
// unknown keys and coerces values of other types silently (42 becomes "42",
// true becomes "true"), so only a file of such lines may take it; the others
// go the JSON way or line by line. The shape is generated from
// CanonicalArrowSchema, as the SQL fragments are (typed_sql.go, json_sql.go).

// lineVerdict is what the scan says of one non-blank line.
type lineVerdict uint8

const (
	// lineTyped: a contract object of contract types; the typed read judges
	// it exactly.
	lineTyped lineVerdict = iota
	// lineJSON: a JSON object the typed read cannot judge alike (a key the
	// contract does not name, an escaped or repeated key, a value of another
	// JSON type, an integer in another notation than -?(0|[1-9][0-9]{0,17})); the JSON
	// way decides, and names the field of a wrong type.
	lineJSON
	// lineMalformed: not JSON, or JSON but not an object.
	lineMalformed
)

// maxScanDepth is encoding/json's nesting limit: a deeper line is not valid
// JSON to it, nor to the scan.
const maxScanDepth = 10000

// lineScanner scans lines one at a time; its stack is reused between them,
// so a scan allocates nothing once the stack has grown.
type lineScanner struct {
	b     []byte
	i     int
	json  bool   // the line is at best lineJSON
	tsOdd bool   // a timestamp of the rules that ruleTimestamp did not prove (keyscan_ts.go)
	stack []byte // the open containers of a value skipped generically
}

// line judges one line (without its newline; a trailing CR is white space).
func (s *lineScanner) line(b []byte) lineVerdict {
	s.b, s.i, s.json, s.tsOdd = b, 0, false, false
	s.ws()
	if s.peek() != '{' || !s.object(contractShape(), 1) {
		return lineMalformed
	}
	s.ws()
	if s.i != len(s.b) {
		return lineMalformed
	}
	if s.json {
		return lineJSON
	}
	return lineTyped
}

func (s *lineScanner) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func (s *lineScanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// object reads a contract object of shape sh at '{', depth containers deep
// counting itself.
func (s *lineScanner) object(sh *shape, depth int) bool {
	if depth > maxScanDepth {
		return false
	}
	s.i++
	s.ws()
	if s.peek() == '}' {
		s.i++
		return true
	}
	var seen [2]uint64
	for {
		s.ws()
		if s.peek() != '"' {
			return false
		}
		start := s.i + 1
		esc, ok := s.str()
		if !ok {
			return false
		}
		k := -1
		if !esc {
			k = sh.find(s.b[start : s.i-1])
		}
		s.ws()
		if s.peek() != ':' {
			return false
		}
		s.i++
		s.ws()
		if k < 0 {
			s.json = true // unknown (or escaped) key: extra keeps the line
			if !s.value(depth) {
				return false
			}
		} else {
			if seen[k>>6]&(1<<(k&63)) != 0 {
				s.json = true // a repeated key: readers may differ on which counts
			}
			seen[k>>6] |= 1 << (k & 63)
			if !s.field(sh, k, depth) {
				return false
			}
		}
		s.ws()
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			return false
		}
	}
}

// field reads the value of field k of sh, which the object at depth holds.
func (s *lineScanner) field(sh *shape, k, depth int) bool {
	c := s.peek()
	if c == 'n' {
		return s.lit("null")
	}
	switch sh.kinds[k] {
	case kindString:
		if c == '"' {
			start := s.i
			esc, ok := s.str()
			if ok && sh.ts != nil && sh.ts[k] && (esc || !ruleTimestamp(s.b[start+1:s.i-1])) {
				s.tsOdd = true
			}
			return ok
		}
	case kindInteger:
		start := s.i
		switch {
		case c == '"':
			esc, ok := s.str()
			if ok && (esc || !plainInteger(s.b[start+1:s.i-1])) {
				s.json = true
			}
			return ok
		case c == '-' || (c >= '0' && c <= '9'):
			ok := s.number()
			if ok && !plainInteger(s.b[start:s.i]) {
				s.json = true // 2.0, 1e3, a fraction, too many digits
			}
			return ok
		}
	case kindBoolean:
		if c == 't' {
			return s.lit("true")
		}
		if c == 'f' {
			return s.lit("false")
		}
	case kindObject:
		if c == '{' {
			return s.object(sh.subs[k], depth+1)
		}
	case kindStrings:
		if c == '[' {
			return s.strings(depth + 1)
		}
	}
	s.json = true // another JSON type: the JSON way names the field
	return s.value(depth)
}

// strings reads an array of strings at '[', depth containers deep counting
// itself.
func (s *lineScanner) strings(depth int) bool {
	if depth > maxScanDepth {
		return false
	}
	s.i++
	s.ws()
	if s.peek() == ']' {
		s.i++
		return true
	}
	for {
		s.ws()
		if s.peek() == '"' {
			if _, ok := s.str(); !ok {
				return false
			}
		} else {
			s.json = true // an element that is not a string
			if !s.value(depth) {
				return false
			}
		}
		s.ws()
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return true
		default:
			return false
		}
	}
}

// plainInteger reports whether b is -?(0|[1-9][0-9]{0,17}): an integer
// that fits BIGINT, written as both readers read it alike (DuckDB's typed
// reader fails the whole read on the string "00012", which the JSON way
// takes as 12).
func plainInteger(b []byte) bool {
	if len(b) > 0 && b[0] == '-' {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 || (b[0] == '0' && len(b) > 1) {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func (s *lineScanner) lit(word string) bool {
	if !bytes.HasPrefix(s.b[s.i:], []byte(word)) {
		return false
	}
	s.i += len(word)
	return true
}

// strSpecial marks the bytes that end the fast run through a string: the
// quote, the backslash and the control characters JSON forbids there.
var strSpecial = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// str reads a string at '"', leaving s.i after its closing quote; esc
// reports a backslash escape in it.
func (s *lineScanner) str() (esc, ok bool) {
	b := s.b
	i := s.i + 1
	for {
		for i < len(b) && !strSpecial[b[i]] {
			i++
		}
		if i >= len(b) || b[i] < 0x20 {
			return esc, false
		}
		if b[i] == '"' {
			s.i = i + 1
			return esc, true
		}
		esc = true
		i++
		if i >= len(b) {
			return esc, false
		}
		switch b[i] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i++
		case 'u':
			if i+4 >= len(b) {
				return esc, false
			}
			for _, h := range b[i+1 : i+5] {
				if !isHex(h) {
					return esc, false
				}
			}
			i += 5
		default:
			return esc, false
		}
	}
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (s *lineScanner) number() bool {
	b, i := s.b, s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && isDigit(b[i]):
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return false
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return false
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	s.i = i
	return true
}

// value reads any JSON value, outer containers deep, without recursion (a
// line may nest up to maxScanDepth).
func (s *lineScanner) value(outer int) bool {
	s.stack = s.stack[:0]
	for {
		s.ws()
		opened, ok := s.valueStart(outer)
		if !ok {
			return false
		}
		if opened {
			continue // the first value of a container
		}
		// A whole value was read: close what ends after it.
		for {
			if len(s.stack) == 0 {
				return true
			}
			s.ws()
			top, c := s.stack[len(s.stack)-1], s.peek()
			if c == ',' {
				s.i++
				if top == '{' && !s.key() {
					return false
				}
				break
			}
			if (top == '{' && c == '}') || (top == '[' && c == ']') {
				s.i++
				s.stack = s.stack[:len(s.stack)-1]
				continue
			}
			return false
		}
	}
}

// valueStart reads a scalar or an empty container whole (opened false), or
// opens a container, reading an object's first key (opened true).
func (s *lineScanner) valueStart(outer int) (opened, ok bool) {
	switch c := s.peek(); c {
	case '{', '[':
		if outer+len(s.stack)+1 > maxScanDepth {
			return false, false
		}
		s.i++
		s.ws()
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		if s.peek() == end {
			s.i++
			return false, true
		}
		s.stack = append(s.stack, c)
		if c == '{' {
			return true, s.key()
		}
		return true, true
	case '"':
		_, ok := s.str()
		return false, ok
	case 't':
		return false, s.lit("true")
	case 'f':
		return false, s.lit("false")
	case 'n':
		return false, s.lit("null")
	default:
		if c == '-' || isDigit(c) {
			return false, s.number()
		}
		return false, false
	}
}

// key reads an object key and its colon.
func (s *lineScanner) key() bool {
	s.ws()
	if s.peek() != '"' {
		return false
	}
	if _, ok := s.str(); !ok {
		return false
	}
	s.ws()
	if s.peek() != ':' {
		return false
	}
	s.i++
	return true
}
