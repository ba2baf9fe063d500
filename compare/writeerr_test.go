package compare

import (
	"errors"
	"testing"
)

// failingWriter takes n bytes, then fails every write.
type failingWriter struct{ n int }

var errDiskFull = errors.New("disk full")

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) <= f.n {
		f.n -= len(p)
		return len(p), nil
	}
	k := f.n
	f.n = 0
	return k, errDiskFull
}

// A writer that fails (a full disk, a closed pipe) is an error for every
// format, whether it fails at once or part way through: never a truncated
// export that reports success.
func TestWriteReturnsWriterError(t *testing.T) {
	res := goldenResult()
	for _, format := range []string{"text", "markdown", "json", "html", "junit", "csv"} {
		for _, room := range []int{0, 100} {
			if err := Write(&failingWriter{n: room}, res, format); !errors.Is(err, errDiskFull) {
				t.Errorf("%s, failing after %d bytes: error %v, want %v", format, room, err, errDiskFull)
			}
		}
	}
}
