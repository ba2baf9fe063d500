package ingest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// benchSmallFiles is how many files of 100 events BenchmarkManySmallFiles
// loads: FAULTLENS_BENCH_FILES when set (e.g. 10000), else 1000.
func benchSmallFiles(b *testing.B) int { return benchEnv(b, "FAULTLENS_BENCH_FILES", 1000) }

// BenchmarkManySmallFiles (issue 15.5) ingests the same generated events
// as N files of 100 lines and as one file, each into a fresh database, in
// the same iteration, and reports both times and their ratio (the target is
// at most 3). Run: go test -run XXX -bench ManySmallFiles -benchtime 1x ./ingest/
func BenchmarkManySmallFiles(b *testing.B) {
	files := benchSmallFiles(b)
	events := files * 100
	dir := b.TempDir()
	content := generated(b, events, 1)
	whole := writeFile(b, dir, "whole.jsonl", content)
	paths := splitInto(b, filepath.Join(dir, mkdir(b, dir, "small")), content, 100)
	b.Run(fmt.Sprintf("files=%d", files), func(b *testing.B) {
		ctx := context.Background()
		var manyT, oneT time.Duration
		iters := 0
		for b.Loop() {
			iters++
			b.StopTimer()
			db := benchDB(b)
			b.StartTimer()
			t0 := time.Now()
			rs, err := Files(ctx, db, paths, Options{})
			manyT += time.Since(t0)
			b.StopTimer()
			if tot, n, _ := Totals(rs); err != nil || n != files || tot.Accepted != int64(events) {
				b.Fatalf("many files: %v, %d files, %+v", err, n, tot)
			}
			closeQuietly(db)

			db = benchDB(b)
			b.StartTimer()
			t0 = time.Now()
			r, err := File(ctx, db, whole, Options{})
			oneT += time.Since(t0)
			b.StopTimer()
			if err != nil || r.Accepted != int64(events) {
				b.Fatalf("one file: %v, %+v", err, r)
			}
			closeQuietly(db)
			b.StartTimer()
		}
		k := float64(iters)
		b.ReportMetric(manyT.Seconds()/k, "many-s/op")
		b.ReportMetric(oneT.Seconds()/k, "one-s/op")
		b.ReportMetric(manyT.Seconds()/oneT.Seconds(), "ratio")
		b.ReportMetric(float64(files)*k/manyT.Seconds(), "files/s")
	})
}

// mkdir makes dir/name and returns name.
func mkdir(b *testing.B, dir, name string) string {
	if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
		b.Fatal(err)
	}
	return name
}
