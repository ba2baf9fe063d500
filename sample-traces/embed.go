// Package sampletraces embeds the bundled sample traces so that an installed
// faultlens binary, run outside the repository, still has them.
package sampletraces

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed *.jsonl
var files embed.FS

// Extract writes the samples into a new directory under dir ("" for the
// system temp dir) and returns that directory and the file paths. The caller
// removes the directory.
func Extract(dir string) (string, []string, error) {
	out, err := os.MkdirTemp(dir, "faultlens-samples-")
	if err != nil {
		return "", nil, err
	}
	names, err := fs.Glob(files, "*.jsonl")
	if err != nil {
		return "", nil, err
	}
	var paths []string
	for _, n := range names {
		b, err := files.ReadFile(n)
		if err != nil {
			return "", nil, err
		}
		p := filepath.Join(out, n)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return "", nil, fmt.Errorf("extract samples: %w", err)
		}
		paths = append(paths, p)
	}
	return out, paths, nil
}
