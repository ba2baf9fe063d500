package ingest

import (
	"bufio"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/faultlens/faultlens/otlp"
	"github.com/faultlens/faultlens/queries"
)

// formatOf decides how a file is read: by its name for Arrow, by its first
// bytes for OTLP/JSON (whose files end in .json or .jsonl like ours).
func formatOf(path string) string {
	lower := strings.ToLower(strings.TrimSuffix(strings.ToLower(path), ".gz"))
	switch filepath.Ext(lower) {
	case ".arrow", ".arrows", ".feather":
		return "arrow"
	case ".parquet":
		return "parquet"
	}
	rc, err := fileContent(path)
	if err != nil {
		return "jsonl" // the JSONL path reports the error with the file's name
	}
	defer rc.Close()
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(rc, head)
	if otlp.Sniff(head[:n]) {
		return "otlp"
	}
	return "jsonl"
}

// ingestOTLP converts an OpenTelemetry OTLP/JSON file (collector file
// exporter lines, or one document) into contract events and loads them
// through the same validation as JSON Lines. Lines of other signals
// (metrics, logs) are counted as skipped; lines that are not OTLP are
// rejected with their line numbers. A file with spans but no agent span is
// an input error that says how many spans were read.
func ingestOTLP(ctx context.Context, db *sql.DB, path, name, suite string) (FileResult, error) {
	rc, err := fileContent(path)
	if err != nil {
		return FileResult{Format: "otlp"}, err
	}
	defer rc.Close()
	return ingestOTLPFrom(ctx, db, rc, name, suite)
}

// ingestOTLPFrom is ingestOTLP on content already opened (a file's, or the
// body of an OTLP/HTTP request), recorded under name.
func ingestOTLPFrom(ctx context.Context, db *sql.DB, rc io.Reader, name, suite string) (FileResult, error) {
	res := FileResult{Format: "otlp"}
	tmp, err := os.CreateTemp("", "faultlens-otlp-*.jsonl")
	if err != nil {
		return res, err
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	counted := &countingReader{r: io.TeeReader(rc, h)}
	w := bufio.NewWriter(tmp)
	st, err := otlp.Convert(counted, otlp.Options{Suite: suite, Source: name}, w)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		var none *otlp.NoAgentSpansError
		if errors.As(err, &none) || errors.Is(err, otlp.ErrNoAgentSpans) {
			return res, &InputError{Path: name, Err: err}
		}
		return res, fmt.Errorf("read OTLP: %w", err)
	}
	res.SHA256, res.Bytes = hex.EncodeToString(h.Sum(nil)), counted.n
	res.Lines, res.Blank = int64(st.Lines), int64(st.BlankLines)
	res.Skipped = int64(st.MetricLines + st.LogLines)
	res.spanLines = int64(st.SpanLines)

	conn, err := openFile(ctx, db, &res)
	if conn == nil {
		return res, err
	}
	defer conn.Close()
	defer conn.ExecContext(context.WithoutCancel(ctx), queries.Get("ingest.drop_temp"))
	if _, err := loadLines(ctx, conn, tmp.Name()); err != nil {
		return res, err
	}
	rejects := make([]rejectedLine, 0, len(st.Rejected))
	for _, r := range st.Rejected {
		reason := r.Reason
		text := r.Text
		if r.Detail != "" {
			text = r.Detail + ": " + text
		}
		rejects = append(rejects, rejectedLine{line: int64(r.Line), reason: reason, text: excerpt([]byte(text))})
	}
	return res, commitFile(ctx, conn, name, &res, rejects)
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
