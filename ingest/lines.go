package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/duckdb/duckdb-go/v2"
)

// rejectedLine is a line refused before it reached DuckDB's JSON functions,
// for callers of commitFile that refuse lines of their own. (splitLines
// appends its refusals to ingest_lines instead, so that a file of millions of
// bad lines costs neither memory nor one INSERT per line.)
type rejectedLine struct {
	line   int64
	reason string
	text   string
}

// lineCounts is the accounting of the line-precise pass.
type lineCounts struct {
	lines, blank int64
	rejected     []rejectedLine // always empty from splitLines, see rejectedLine
}

// maxRejectText is how much of a rejected line is kept for the person who
// has to fix it.
const maxRejectText = 1024

// splitLines reads r line by line, appending each non-blank line to app as
// (1-based number, text, NULL) and judging in Go what DuckDB cannot be given:
// a line over MaxLineBytes, with invalid UTF-8 or a NUL byte is appended as
// (number, excerpt, reason). A UTF-8 byte order mark on the first line and a
// CR before the newline are dropped.
func splitLines(r io.Reader, app *duckdb.Appender) (lineCounts, error) {
	var c lineCounts
	br := bufio.NewReaderSize(r, 256<<10)
	var long []byte
	for {
		frag, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// Keep at most MaxLineBytes+1 so an over-long line is known
			// without holding all of it.
			if len(long) <= MaxLineBytes {
				long = append(long, frag...)
			}
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return c, fmt.Errorf("read: %w", err)
		}
		line := frag
		if long != nil {
			line = append(long, frag...)
			long = nil
		}
		if len(line) == 0 && errors.Is(err, io.EOF) {
			break
		}
		c.lines++
		if rerr := c.take(c.lines, line, app); rerr != nil {
			return c, rerr
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}
	return c, nil
}

// take judges one raw line (with its newline, if any).
func (c *lineCounts) take(n int64, line []byte, app *duckdb.Appender) error {
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	if n == 1 {
		line = bytes.TrimPrefix(line, []byte{0xEF, 0xBB, 0xBF})
	}
	if len(bytes.Trim(line, " \t\r")) == 0 {
		c.blank++
		return nil
	}
	switch {
	case len(line) > MaxLineBytes:
		return app.AppendRow(n, excerpt(line), fmt.Sprintf("line longer than %d bytes", MaxLineBytes))
	case !utf8.Valid(line):
		return app.AppendRow(n, excerpt(line), "invalid UTF-8")
	case bytes.IndexByte(line, 0) >= 0:
		return app.AppendRow(n, excerpt(line), "NUL byte in line")
	}
	return app.AppendRow(n, string(line), nil)
}

// excerpt returns the first maxRejectText bytes of line as valid UTF-8
// without NUL bytes, fit for a VARCHAR column.
func excerpt(line []byte) string {
	if len(line) > maxRejectText {
		line = line[:maxRejectText]
	}
	s := strings.ToValidUTF8(string(line), "\uFFFD")
	return strings.ReplaceAll(s, "\x00", "\uFFFD")
}
