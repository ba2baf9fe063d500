package ingest

import (
	"bufio"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/faultlens/faultlens/queries"
)

// The split route (for files with about 1 % bad lines): a file in which the
// key/type scan found a few lines the typed read cannot take stores its
// other lines through the typed read and only those few through the
// line-precise path, in one transaction. The typed lines are copied into a
// temporary file; the few are numbered by Go with their true line numbers,
// as the line-precise path numbers every line. No line number is needed
// from DuckDB's reader: the typed lines must all be valid events (the first
// rejected row fails the statement, as on the fast path), so only the few
// lines can be rejected, and they keep their numbers.

// maxSplitShare is the largest share of a file's non-blank lines that may
// go line by line on the split route; a file with more takes the routes it
// took before (the JSON way, or line by line).
const maxSplitShare = 0.1

// splittable reports whether sc is a file for the split route: not
// suspect, and a few lines that the typed read cannot take, every one of
// them numbered.
func (s scan) splittable() bool {
	others := s.jsonLines + s.malformed
	return !s.suspect && others > 0 && others == int64(len(s.others)) &&
		float64(others) <= maxSplitShare*float64(s.lines-s.blank)
}

// commitSplit stores the file at path (named name) on the split route. It
// returns errNotClean, having rolled back, when the typed lines are not all
// valid, new events (a rejected row, a duplicate) or when a line of the few
// is a duplicate, whose order against the typed lines only the
// line-precise path judges: the file then goes line by line whole. Its
// temporary file goes in tmpDir.
func commitSplit(ctx context.Context, conn *sql.Conn, path, name, tmpDir string, res *FileResult, sc *scan, rt Routes) error {
	tmp, err := createTemp(tmpDir, "faultlens-typed-*.jsonl")
	if err != nil {
		return err
	}
	defer removeTemp(tmp.Name())
	typedLines, err := splitFile(ctx, conn, path, tmp, sc.others)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	steps, err := checkLineChunks(ctx, conn)
	if err != nil {
		return err
	}
	split := *res
	err = inTransaction(ctx, conn, func(fileID int64) error {
		rows := queries.Render("ingest.valid_or_fail", queries.Args{"checked": rulesScanned(typedRelation(tmp.Name()), sc, rt)})
		typed, err := storeAllNew(ctx, conn, insertEvents(rows, "NULL::JSON"), fileID, typedLines)
		if err != nil {
			return err
		}
		split.Events = typed
		insert := insertEvents(queries.Get("ingest.valid_checked"), extraJSON())
		for _, step := range steps {
			if err := step(); err != nil {
				return err
			}
			var dups int64
			if err := conn.QueryRowContext(ctx, queries.Get("ingest.count_dups")).Scan(&dups); err != nil {
				return err
			}
			if dups > 0 {
				return errNotClean
			}
			n, err := storeChunk(ctx, conn, insert, fileID, name)
			if err != nil {
				return err
			}
			split.Events += n
		}
		if _, err := conn.ExecContext(ctx, queries.Get("ingest.insert_rejected_lines"), fileID, name); err != nil {
			return fmt.Errorf("store rejected lines: %w", err)
		}
		if err := conn.QueryRowContext(ctx, queries.Get("ingest.count_rejected"), fileID).Scan(&split.Rejected); err != nil {
			return err
		}
		split.Accepted = split.Events
		return recordFile(ctx, conn, fileID, name, &split)
	})
	if err != nil {
		return refused(ctx, err)
	}
	split.typedRead = true
	*res = split
	return nil
}

// splitFile copies the non-blank lines of the file at path whose numbers
// are not in others (ascending) to w, and appends the lines numbered in
// others to ingest_lines, as the line-precise path does. It returns how many
// lines it copied.
func splitFile(ctx context.Context, conn *sql.Conn, path string, w io.Writer, others []int64) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer closeQuietly(f)
	if _, err := conn.ExecContext(ctx, queries.Get("ingest.lines_table")); err != nil {
		return 0, err
	}
	var copied int64
	err = conn.Raw(func(dc any) error {
		app, err := duckdb.NewAppender(dc.(driver.Conn), "temp", "main", "ingest_lines")
		if err != nil {
			return err
		}
		copied, err = splitLinesTo(f, w, app, others)
		if cerr := app.Close(); err == nil {
			err = cerr
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("split lines: %w", err)
	}
	return copied, nil
}

// splitLinesTo is splitFile's pass over r: lines are numbered as the
// prescan numbers them (every "\n" ends one; a last line may lack it).
func splitLinesTo(r io.Reader, w io.Writer, app *duckdb.Appender, others []int64) (int64, error) {
	br := bufio.NewReaderSize(r, MaxLineBytes+1)
	bw := bufio.NewWriterSize(w, 1<<20)
	var c lineCounts
	var copied, n int64
	for {
		line, err := br.ReadSlice('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return copied, fmt.Errorf("read: %w", err) // bufio.ErrBufferFull: the prescan refuses such a file
		}
		if len(line) == 0 && errors.Is(err, io.EOF) {
			break
		}
		n++
		switch {
		case len(others) > 0 && others[0] == n:
			others = others[1:]
			if terr := c.take(n, line, app); terr != nil {
				return copied, terr
			}
		case !blankLine(line):
			if _, werr := bw.Write(line); werr != nil {
				return copied, werr
			}
			if line[len(line)-1] != '\n' {
				if werr := bw.WriteByte('\n'); werr != nil {
					return copied, werr
				}
			}
			copied++
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}
	if len(others) > 0 {
		return copied, fmt.Errorf("line %d not found", others[0])
	}
	return copied, bw.Flush()
}

// blankLine reports whether line holds only spaces, tabs, CRs and its
// newline, as the prescan counts blank lines.
func blankLine(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}
