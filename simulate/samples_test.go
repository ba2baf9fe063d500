package simulate

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/faultlens/faultlens/internal/golden"
)

var sampleCache struct {
	once sync.Once
	data map[string][]byte
}

// sampleData generates the bundled samples for seed 1 once per test binary.
func sampleData(t *testing.T) map[string][]byte {
	t.Helper()
	sampleCache.once.Do(func() {
		sampleCache.data = map[string][]byte{}
		for _, s := range Samples(1) {
			var buf bytes.Buffer
			if _, err := Generate(&buf, s.Options); err != nil {
				t.Fatal(err)
			}
			sampleCache.data[s.File] = buf.Bytes()
		}
	})
	return sampleCache.data
}

func TestWriteSamples(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "samples")
	if err := WriteSamples(dir, 1); err != nil {
		t.Fatal(err)
	}
	for file, want := range sampleData(t) {
		got, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s differs from Generate's output (%v)", file, err)
		}
		if len(got) > 1_550_000 {
			t.Errorf("%s is %d bytes; keep samples near 1.5 MB", file, len(got))
		}
	}
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil || !bytes.Contains(readme, []byte("faultlens simulate --samples sample-traces --seed 1")) {
		t.Fatalf("README.md missing or without the command: %v", err)
	}
	for _, sc := range Scenarios() {
		if !bytes.Contains(readme, []byte("| "+sc.Name+" |")) {
			t.Errorf("README.md does not list %s", sc.Name)
		}
	}
}

// TestBundledSamplesAreUpToDate keeps sample-traces/ in step with the
// simulator; after a deliberate change, regenerate with
// go test ./simulate -run TestBundledSamplesAreUpToDate -update
func TestBundledSamplesAreUpToDate(t *testing.T) {
	fresh := t.TempDir()
	if err := WriteSamples(fresh, 1); err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	for _, s := range Samples(1) {
		files = append(files, s.File)
	}
	for _, file := range files {
		got, err := os.ReadFile(filepath.Join(fresh, file))
		if err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("..", "sample-traces", file), got)
	}
}
