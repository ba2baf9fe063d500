package ingest

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// MaxLineBytes is the longest line ingest accepts. Longer lines are rejected
// with their line number, never read whole into memory.
const MaxLineBytes = 1 << 20

// scan is what one pass over a file's content tells: its identity and
// whether DuckDB's fast NDJSON reader can take it as it is.
type scan struct {
	sha256  string
	bytes   int64
	lines   int64 // lines, counting a last line without newline
	blank   int64 // lines holding only white space
	suspect bool  // BOM, NUL, invalid UTF-8 or an over-long line: go line by line
	// What the key/type scan (keyscan.go) found in the non-blank lines that
	// are not over-long: lines of each verdict but lineTyped, and the
	// numbers of the first maxOtherLines such lines.
	jsonLines, malformed int64
	others               []int64
	// tsOdd counts the lines of verdict lineTyped with a timestamp that
	// ingest.checked's regex must judge (keyscan_ts.go); when there are
	// none, the typed read skips the regexes.
	tsOdd int64
}

// add adds the counts of a block of lines that follows the lines counted
// in s.
func (s *scan) add(b scan) {
	s.lines += b.lines
	s.blank += b.blank
	s.jsonLines += b.jsonLines
	s.malformed += b.malformed
	s.tsOdd += b.tsOdd
	s.others = append(s.others, b.others[:min(len(b.others), maxOtherLines-len(s.others))]...)
}

// scanWhole counts and judges whole lines, each ending with a newline,
// the first of them numbered after line: a block of more than 64 KiB is cut
// at a newline near its middle and the second half scanned by a goroutine
// of its own (with ls2) while this one scans the first (with ls). Lines
// within one read of the prescan are never over-long.
func scanWhole(whole []byte, line int64, ls, ls2 *lineScanner) scan {
	if prescanSerial || len(whole) <= 64<<10 {
		return scanBlock(whole, line, ls)
	}
	mid := len(whole) / 2
	mid += bytes.IndexByte(whole[mid:], '\n') + 1
	first, second := whole[:mid], whole[mid:]
	done := make(chan scan, 1)
	go func(n int64) { done <- scanBlock(second, n, ls2) }(line + int64(bytes.Count(first, []byte{'\n'})))
	s := scanBlock(first, line, ls)
	s.add(<-done)
	return s
}

// scanBlock is scanWhole on one goroutine.
func scanBlock(whole []byte, line int64, ls *lineScanner) scan {
	var s scan
	s.lines = line
	for len(whole) > 0 {
		i := bytes.IndexByte(whole, '\n')
		part := whole[:i]
		whole = whole[i+1:]
		s.lines++
		if len(bytes.TrimLeft(part, " \t\r")) == 0 {
			s.blank++
			continue
		}
		v := ls.line(part)
		s.judge(s.lines, v, ls.tsOdd)
	}
	s.lines -= line
	return s
}

// maxOtherLines is how many line numbers of lines the typed read cannot
// take the prescan keeps.
const maxOtherLines = 1 << 16

// typedClean reports whether the typed read may take every line of the
// file: nothing suspect, every non-blank line lineTyped.
func (s scan) typedClean() bool {
	return !s.suspect && s.jsonLines == 0 && s.malformed == 0
}

// judge records the verdict of the scan on line n.
func (s *scan) judge(n int64, v lineVerdict, tsOdd bool) {
	switch v {
	case lineTyped:
		if tsOdd {
			s.tsOdd++
		}
		return
	case lineJSON:
		s.jsonLines++
	default:
		s.malformed++
	}
	if len(s.others) < maxOtherLines {
		s.others = append(s.others, n)
	}
}

// fileContent opens path and returns a reader of its trace content,
// decompressing .gz files. The caller closes it.
func fileContent(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		if os.IsPermission(err) {
			return nil, fmt.Errorf("permission denied")
		}
		return nil, statError(err)
	}
	if !strings.HasSuffix(strings.ToLower(path), ".gz") {
		return f, nil
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		closeQuietly(f)
		return nil, fmt.Errorf("corrupt gzip: %w", err)
	}
	return struct {
		io.Reader
		io.Closer
	}{zr, f}, nil
}

// chunkHasher hashes (and copies) each chunk of the prescan on a goroutine
// of its own while the prescan counts and scans the same chunk, so that the
// SHA-256 and the key/type scan take two cores, as DuckDB's read does: the
// prescan runs before the read, and its wall time adds to the ingest's.
type chunkHasher struct {
	in     chan []byte
	done   chan error
	inline func(b []byte) error // prescanSerial: hash and copy in start
}

// prescanSerial hashes and scans on the prescan's own goroutine, so that
// BenchmarkPrescan can compare the two ways in one run.
var prescanSerial bool

// newChunkHasher starts the goroutine, which writes every chunk to h and
// then to copyTo (when not nil). stop ends it.
func newChunkHasher(h hash.Hash, copyTo io.Writer) *chunkHasher {
	write := func(b []byte) error {
		h.Write(b) // a hash.Hash never returns an error
		if copyTo != nil {
			_, err := copyTo.Write(b)
			return err
		}
		return nil
	}
	c := &chunkHasher{in: make(chan []byte), done: make(chan error, 1)}
	if prescanSerial {
		c.inline = write
		return c
	}
	go func() {
		for b := range c.in {
			c.done <- write(b)
		}
	}()
	return c
}

// start hands chunk over; the caller must not change it before wait.
func (c *chunkHasher) start(chunk []byte) {
	if c.inline != nil {
		c.done <- c.inline(chunk)
		return
	}
	c.in <- chunk
}

// wait returns when the chunk handed over is hashed and copied.
func (c *chunkHasher) wait() error { return <-c.done }

func (c *chunkHasher) stop() { close(c.in) }

// prescan reads r once, hashing it, counting lines and judging each line
// with the key/type scan. When copy is not nil the content is also written
// there (a .gz file becomes a plain temp file).
func prescan(r io.Reader, copyTo io.Writer) (scan, error) {
	h := sha256.New()
	hasher := newChunkHasher(h, copyTo)
	defer hasher.stop()
	var s scan
	buf := make([]byte, 1<<20)
	var lineLen int64
	lineBlank := true
	first := true
	var ls lineScanner
	var carry []byte    // the current line so far, up to MaxLineBytes
	var ls2 lineScanner // scanWhole's second goroutine's
	// extend adds part, a piece of the current line without newline.
	extend := func(part []byte) {
		lineLen += int64(len(part))
		if lineBlank && len(bytes.TrimLeft(part, " \t\r")) > 0 {
			lineBlank = false
		}
		if lineLen <= MaxLineBytes {
			carry = append(carry, part...)
		}
	}
	// endLine counts and judges the current line, held whole in carry
	// unless it is over-long.
	endLine := func() {
		s.lines++
		if lineLen > MaxLineBytes {
			s.suspect = true
		}
		switch {
		case lineBlank:
			s.blank++
		case lineLen <= MaxLineBytes:
			v := ls.line(carry)
			s.judge(s.lines, v, ls.tsOdd)
		}
		lineLen, lineBlank, carry = 0, true, carry[:0]
	}
	for {
		n, err := r.Read(buf)
		chunk := buf[:n]
		if n > 0 {
			hasher.start(chunk)
			s.bytes += int64(n)
			if first {
				first = false
				if bytes.HasPrefix(chunk, []byte{0xEF, 0xBB, 0xBF}) {
					s.suspect = true
				}
			}
			if !s.suspect && (bytes.IndexByte(chunk, 0) >= 0 || !utf8.Valid(trimPartialRune(chunk))) {
				s.suspect = true
			}
			// The line the chunk continues, up to its first newline; then
			// the chunk's whole lines, scanned on two goroutines; then the
			// start of the line the next chunk continues.
			i := bytes.IndexByte(chunk, '\n')
			if i < 0 {
				extend(chunk)
			} else {
				extend(chunk[:i])
				endLine()
				rest := chunk[i+1:]
				j := bytes.LastIndexByte(rest, '\n')
				s.add(scanWhole(rest[:j+1], s.lines, &ls, &ls2))
				extend(rest[j+1:])
			}
			if werr := hasher.wait(); werr != nil {
				return s, werr
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return s, fmt.Errorf("read: %w", err)
		}
	}
	if lineLen > 0 { // a last line without newline
		endLine()
	}
	s.sha256 = hex.EncodeToString(h.Sum(nil))
	return s, nil
}

// trimPartialRune drops an incomplete UTF-8 sequence cut at the end of a
// read buffer so that utf8.Valid judges only whole runes. (A rune split across
// two buffers is then not checked; the line-precise path checks every line.)
func trimPartialRune(b []byte) []byte {
	for i := 1; i <= 3 && i <= len(b); i++ {
		c := b[len(b)-i]
		if c < 0x80 {
			return b
		}
		if c >= 0xC0 { // a lead byte: is its sequence complete?
			need := 2
			if c >= 0xF0 {
				need = 4
			} else if c >= 0xE0 {
				need = 3
			}
			if i < need {
				return b[:len(b)-i]
			}
			return b
		}
	}
	return b
}
