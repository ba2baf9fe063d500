package bench

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"

	"github.com/faultlens/faultlens/export"
	"github.com/faultlens/faultlens/simulate"
)

// eventsPerRun is about how many events the simulator writes per run.
const eventsPerRun = 15

// badEvery is the spacing of corrupted lines in the bad-lines copy (1%).
const badEvery = 100

// Files are the names Run writes into Config.Dir.
var Files = []string{"baseline.jsonl", "candidate.jsonl", "bad", "events.arrow", "spill"}

// input is the generated trace files.
type input struct {
	clean  []string // baseline.jsonl, candidate.jsonl
	bad    []string // the same with every badEvery-th line corrupted
	arrow  string   // the events exported as an Arrow IPC file (see exportArrow)
	events int64    // lines of clean, all events
	badN   int64    // lines corrupted in bad
}

// generate writes a fault-free baseline suite and a fault-injected
// candidate suite of about events/2 events each into dir, as
// "faultlens simulate" does, and the bad-lines copies under dir/bad.
func generate(dir string, events int) (*input, error) {
	runs := max(1, events/2/eventsPerRun)
	in := &input{arrow: filepath.Join(dir, "events.arrow")}
	if err := os.MkdirAll(filepath.Join(dir, "bad"), 0o755); err != nil {
		return nil, err
	}
	for _, o := range []simulate.Options{
		{Runs: runs, Seed: 1, Suite: "baseline", Policy: simulate.Careful},
		{Runs: runs, Seed: 2, Suite: "candidate", Faults: true, Policy: simulate.Mixed},
	} {
		path := filepath.Join(dir, o.Suite+".jsonl")
		sum, err := writeSuite(path, o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		badPath := filepath.Join(dir, "bad", o.Suite+".jsonl")
		n, err := corrupt(path, badPath)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", badPath, err)
		}
		in.clean = append(in.clean, path)
		in.bad = append(in.bad, badPath)
		in.events += int64(sum.Events)
		in.badN += n
	}
	return in, nil
}

func writeSuite(path string, o simulate.Options) (simulate.Summary, error) {
	f, err := os.Create(path)
	if err != nil {
		return simulate.Summary{}, err
	}
	sum, err := simulate.Generate(f, o)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return sum, err
}

// corrupt copies src to dst cutting every badEvery-th line in half, which
// leaves it malformed JSON, and returns how many lines it cut.
func corrupt(src, dst string) (int64, error) {
	in, err := os.Open(src)
	if err != nil {
		return 0, err
	}
	defer closeQuietly(in)
	out, err := os.Create(dst)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(out, 1<<20)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var line, cut int64
	for sc.Scan() {
		b := sc.Bytes()
		if line++; line%badEvery == 0 {
			b = bytes.TrimSpace(b[:len(b)/2])
			cut++
		}
		// bufio.Writer keeps its first error and Flush below returns it.
		_, _ = w.Write(b)
		_ = w.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		closeQuietly(out)
		return 0, err
	}
	if err := w.Flush(); err != nil {
		closeQuietly(out)
		return 0, err
	}
	return cut, out.Close()
}

// exportArrow writes every event of db to path as "faultlens export
// --format arrow" does.
func exportArrow(ctx context.Context, db *sql.DB, path string) error {
	_, err := export.Write(ctx, db, path, export.Options{Format: "arrow"})
	return err
}
