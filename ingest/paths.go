package ingest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// traceSuffixes are the file endings ingest recognises when it walks a
// directory. A file named explicitly is read whatever its name.
var traceSuffixes = []string{".jsonl", ".ndjson", ".jsonl.gz", ".ndjson.gz", ".json", ".json.gz", ".arrow", ".arrows", ".feather", ".parquet"}

// IsTraceFile reports whether name ends like a trace file.
func IsTraceFile(name string) bool {
	lower := strings.ToLower(name)
	for _, s := range traceSuffixes {
		if strings.HasSuffix(lower, s) {
			return true
		}
	}
	return false
}

// Expand turns command-line arguments (files, directories, glob patterns)
// into a sorted, de-duplicated list of trace files. A missing file, a pattern
// that matches nothing, or a directory holding no trace file is an error that
// names the argument.
func Expand(args []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, arg := range args {
		matches := []string{arg}
		if strings.ContainsAny(arg, "*?[") {
			m, err := filepath.Glob(arg)
			if err != nil {
				return nil, &InputError{Path: arg, Err: fmt.Errorf("bad pattern: %w", err)}
			}
			if len(m) == 0 {
				return nil, &InputError{Path: arg, Err: fmt.Errorf("pattern matches no file")}
			}
			matches = m
		}
		for _, p := range matches {
			if p == "-" {
				add(p) // standard input, read as a stream
				continue
			}
			if _, err := inputKind(p); err != nil {
				return nil, &InputError{Path: p, Err: err}
			}
			st, err := os.Stat(p)
			if err != nil {
				return nil, &InputError{Path: p, Err: statError(err)}
			}
			if !st.IsDir() {
				add(p)
				continue
			}
			n, err := walkDir(p, add)
			if err != nil {
				return nil, &InputError{Path: p, Err: err}
			}
			if n == 0 {
				return nil, &InputError{Path: p, Err: fmt.Errorf("directory holds no trace files (%s)", strings.Join(traceSuffixes, ", "))}
			}
		}
	}
	return out, nil
}

func walkDir(dir string, add func(string)) (int, error) {
	var found []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		// Only regular files (and links) from a walk: a FIFO or device
		// that happens to be named like a trace would block or never end.
		if (d.Type().IsRegular() || d.Type()&fs.ModeSymlink != 0) && IsTraceFile(d.Name()) {
			found = append(found, p)
		}
		return nil
	})
	sort.Strings(found)
	for _, p := range found {
		add(p)
	}
	return len(found), err
}

func statError(err error) error {
	switch {
	case os.IsNotExist(err):
		return fmt.Errorf("no such file or directory")
	case os.IsPermission(err):
		return fmt.Errorf("permission denied")
	}
	return err
}
