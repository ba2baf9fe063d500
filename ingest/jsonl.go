package ingest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ingestJSONL loads one JSON Lines file (plain or gzip).
// name is what the file is recorded and shown as; a gzip file is
// decompressed into tmpDir ("": the system temp dir).
func ingestJSONL(ctx context.Context, db *sql.DB, path, name, tmpDir string, rt Routes) (FileResult, error) {
	res := FileResult{Format: "jsonl"}
	plain, cleanup, sc, err := readAndScan(path, tmpDir)
	if err != nil {
		return res, err
	}
	defer cleanup()
	res.SHA256, res.Bytes = sc.sha256, sc.bytes

	conn, err := openFile(ctx, db, &res)
	if conn == nil {
		return res, err
	}
	defer closeQuietly(conn)
	defer dropTemp(ctx, conn)
	restore, err := boundThreads(ctx, conn)
	if err != nil {
		return res, err
	}
	defer restore()

	res.Lines, res.Blank = sc.lines, sc.blank
	return res, storeScanned(ctx, conn, plain, name, tmpDir, &res, &sc, rt)
}

// storeLines validates and stores the JSON lines of plain (the file named
// name to the user) on the routes of route.go. Arrow and Parquet input
// arrive here as JSON lines too; their lines are scanned here, as the
// prescan scans a JSON Lines file.
func storeLines(ctx context.Context, conn *sql.Conn, plain, name string, res *FileResult) error {
	sc, err := scanFile(plain)
	if err != nil {
		return err
	}
	return storeScanned(ctx, conn, plain, name, filepath.Dir(plain), res, &sc, Routes{})
}

// storePrecise stores the lines of plain through the line-precise path.
func storePrecise(ctx context.Context, conn *sql.Conn, plain, name string, res *FileResult) error {
	c, err := loadLines(ctx, conn, plain)
	if err != nil {
		return err
	}
	res.Lines, res.Blank = c.lines, c.blank
	return commitFile(ctx, conn, name, res, c.rejected)
}

// scanFile is the prescan of the plain file at path.
func scanFile(path string) (scan, error) {
	f, err := os.Open(path)
	if err != nil {
		return scan{}, err
	}
	defer closeQuietly(f)
	return prescan(f, nil)
}

// readAndScan hashes and counts the file; a .gz file is decompressed into a
// temporary file in tmpDir first so that both load paths read plain text.
func readAndScan(path, tmpDir string) (plain string, cleanup func(), sc scan, err error) {
	cleanup = func() {}
	rc, err := fileContent(path)
	if err != nil {
		return "", cleanup, sc, err
	}
	defer closeQuietly(rc)
	if !strings.HasSuffix(strings.ToLower(path), ".gz") {
		sc, err = prescan(rc, nil)
		return path, cleanup, sc, err
	}
	tmp, err := createTemp(tmpDir, "faultlens-*.jsonl")
	if err != nil {
		return "", cleanup, sc, err
	}
	cleanup = func() { removeTemp(tmp.Name()) }
	sc, err = prescan(rc, tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		cleanup()
		return "", func() {}, sc, fmt.Errorf("corrupt gzip: %w", err)
	}
	return tmp.Name(), cleanup, sc, nil
}
