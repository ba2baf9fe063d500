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

// rejectedLine is a line refused before it reached DuckDB's JSON functions.
type rejectedLine struct {
	line   int64
	reason string
	text   string
}

// lineCounts is the accounting of the line-precise pass.
type lineCounts struct {
	lines, blank int64
	rejected     []rejectedLine
}

// maxRejectText is how much of a rejected line is kept for the person who
// has to fix it.
const maxRejectText = 1024

// splitLines reads r line by line, appending each candidate line (1-based
// number, text) to app and judging in Go what DuckDB cannot be given: lines
// over MaxLineBytes, invalid UTF-8 and NUL bytes. A UTF-8 byte order mark on
// the first line and a CR before the newline are dropped.
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
		c.reject(n, fmt.Sprintf("line longer than %d bytes", MaxLineBytes), line)
	case !utf8.Valid(line):
		c.reject(n, "invalid UTF-8", line)
	case bytes.IndexByte(line, 0) >= 0:
		c.reject(n, "NUL byte in line", line)
	default:
		return app.AppendRow(n, string(line))
	}
	return nil
}

func (c *lineCounts) reject(n int64, reason string, line []byte) {
	c.rejected = append(c.rejected, rejectedLine{line: n, reason: reason, text: excerpt(line)})
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
