package ingest

import (
	"fmt"
	"os"
)

// createTemp creates a temporary file in dir (Options.TempDir, set by
// --temp-dir; "" is the system temp dir) and says so when it cannot, so
// that the error names the directory rather than only a file name.
func createTemp(dir, pattern string) (*os.File, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, fmt.Errorf("create a temporary file: %w", err)
	}
	return f, nil
}
