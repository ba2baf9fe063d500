package otlp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// Reasons of rejected lines. They are short and fixed so that reports can
// count them; the parser's own words go into Rejected.Detail.
const (
	reasonMalformed = "malformed json"
	reasonNotObject = "not a JSON object"
	reasonNotOTLP   = "not OTLP: no resourceSpans, resourceMetrics or resourceLogs"
	reasonBadTraces = "invalid OTLP traces"
)

// maxRejectedText bounds the copy of a rejected line kept in Rejected.Text.
const maxRejectedText = 1024

// The top-level keys of the three OTLP/JSON signals, as the OTLP/JSON
// encoding writes them and as pdata also accepts them.
var (
	spanKeys   = []string{"resourceSpans", "resource_spans"}
	metricKeys = []string{"resourceMetrics", "resource_metrics"}
	logKeys    = []string{"resourceLogs", "resource_logs"}
)

// collector gathers the spans of one input and counts what it reads.
type collector struct {
	stats Stats
	spans []*span
}

// countLines sets Stats.Lines from the other counts, so that the accounting
// balances by construction.
func (c *collector) countLines() {
	s := &c.stats
	s.Lines = s.SpanLines + s.MetricLines + s.LogLines + s.BlankLines + len(s.Rejected)
}

// read takes the input in whichever form it comes. When the first non-blank
// line is a JSON value on its own, the input is Collector output and each
// line is an object of its own. Otherwise the input is one (pretty-printed)
// document; if it does not parse as a whole but other lines do on their own,
// it is read line by line after all, so one broken line cannot hide the rest.
func (c *collector) read(r io.Reader) error {
	defer c.countLines()
	lines := newLineReader(r)
	for {
		text, ok, err := lines.next()
		if err != nil || !ok {
			return err
		}
		if isBlank(text) {
			c.stats.BlankLines++
			continue
		}
		if !json.Valid(text) {
			return c.readDocument(lines, text)
		}
		c.object(text, lines.n)
		break
	}
	for {
		text, ok, err := lines.next()
		if err != nil || !ok {
			return err
		}
		c.line(text, lines.n)
	}
}

// readDocument reads the rest of the input as one document that starts
// with first, the line numbered lines.n.
func (c *collector) readDocument(lines *lineReader, first []byte) error {
	start := lines.n
	rest, err := io.ReadAll(lines.r)
	if err != nil {
		return err
	}
	doc := append(append(append([]byte{}, first...), '\n'), rest...)
	if json.Valid(doc) {
		c.object(doc, start)
		return nil
	}
	restLines := bytes.Split(bytes.TrimSuffix(rest, []byte("\n")), []byte("\n"))
	if len(rest) == 0 || !anyObjectLine(restLines) {
		c.rejectDocument(doc, start)
		return nil
	}
	c.line(first, start)
	for i, text := range restLines {
		c.line(trimEOL(text), start+1+i)
	}
	return nil
}

// rejectDocument records a document that does not parse, with the line the
// parser stopped at.
func (c *collector) rejectDocument(doc []byte, start int) {
	err := json.Unmarshal(doc, new(json.RawMessage))
	detail := ""
	if err != nil {
		detail = err.Error()
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		at := start + bytes.Count(doc[:min(int(se.Offset), len(doc))], []byte("\n"))
		detail = fmt.Sprintf("%s (line %d)", detail, at)
	}
	c.reject(start, reasonMalformed, detail, doc)
}

// anyObjectLine reports whether some line is a JSON object on its own.
func anyObjectLine(lines [][]byte) bool {
	for _, l := range lines {
		l = bytes.TrimSpace(l)
		if len(l) > 0 && l[0] == '{' && json.Valid(l) {
			return true
		}
	}
	return false
}

// line handles one physical line of Collector output.
func (c *collector) line(text []byte, n int) {
	if isBlank(text) {
		c.stats.BlankLines++
		return
	}
	c.object(text, n)
}

// object handles one OTLP/JSON object that starts on line n: spans are
// decoded with pdata and kept, metrics and logs are counted, anything else
// is rejected.
func (c *collector) object(text []byte, n int) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(text, &top); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			c.reject(n, reasonNotObject, err.Error(), text)
			return
		}
		c.reject(n, reasonMalformed, err.Error(), text)
		return
	}
	switch {
	case top == nil:
		c.reject(n, reasonNotObject, "null", text)
	case hasAnyKey(top, spanKeys):
		td, err := new(ptrace.JSONUnmarshaler).UnmarshalTraces(text)
		if err != nil {
			c.reject(n, reasonBadTraces, err.Error(), text)
			return
		}
		c.stats.SpanLines++
		c.addTraces(td)
	case hasAnyKey(top, metricKeys):
		c.stats.MetricLines++
	case hasAnyKey(top, logKeys):
		c.stats.LogLines++
	default:
		c.reject(n, reasonNotOTLP, "", text)
	}
}

// addTraces keeps every span of td with its resource.
func (c *collector) addTraces(td ptrace.Traces) {
	for i := range td.ResourceSpans().Len() {
		rs := td.ResourceSpans().At(i)
		for j := range rs.ScopeSpans().Len() {
			ss := rs.ScopeSpans().At(j)
			spans := ss.Spans()
			for k := range spans.Len() {
				s := newSpan(spans.At(k), rs.Resource(), ss.Scope(), len(c.spans))
				if s.role == roleNone {
					c.stats.UnreadSpans++
				}
				c.spans = append(c.spans, s)
			}
		}
	}
	c.stats.Spans = len(c.spans)
}

// reject records a line that is not OTLP/JSON.
func (c *collector) reject(n int, reason, detail string, text []byte) {
	c.stats.Rejected = append(c.stats.Rejected, Rejected{
		Line:   n,
		Reason: reason,
		Detail: detail,
		Text:   clip(text, maxRejectedText),
	})
}

// clip returns at most limit bytes of text as valid UTF-8.
func clip(text []byte, limit int) string {
	if len(text) > limit {
		text = text[:limit]
		for len(text) > 0 && !utf8.Valid(text) {
			text = text[:len(text)-1]
		}
	}
	return strings.ToValidUTF8(string(text), "\uFFFD")
}

// hasAnyKey reports whether m holds one of keys.
func hasAnyKey(m map[string]json.RawMessage, keys []string) bool {
	for _, k := range keys {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// isBlank reports whether a line holds only white space.
func isBlank(text []byte) bool {
	return len(bytes.TrimSpace(text)) == 0
}

// trimEOL drops a line's "\n" or "\r\n".
func trimEOL(text []byte) []byte {
	text = bytes.TrimSuffix(text, []byte("\n"))
	return bytes.TrimSuffix(text, []byte("\r"))
}

// lineReader reads physical lines of any length and counts them.
type lineReader struct {
	r *bufio.Reader
	n int // lines read so far
}

// utf8BOM is skipped at the start of the input.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// newLineReader reads r, without its byte order mark if it has one.
func newLineReader(r io.Reader) *lineReader {
	br := bufio.NewReaderSize(r, 64<<10)
	if b, err := br.Peek(len(utf8BOM)); err == nil && bytes.Equal(b, utf8BOM) {
		_, _ = br.Discard(len(utf8BOM)) // cannot fail: Peek has buffered these bytes
	}
	return &lineReader{r: br}
}

// next returns the next line without its end of line; ok is false at the
// end of the input.
func (l *lineReader) next() (text []byte, ok bool, err error) {
	text, err = l.r.ReadBytes('\n')
	if err != nil && err != io.EOF {
		return nil, false, err
	}
	if len(text) == 0 {
		return nil, false, nil
	}
	l.n++
	return trimEOL(text), true, nil
}
