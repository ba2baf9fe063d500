package serve

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/faultlens/faultlens/serve/servetest"
	"github.com/faultlens/faultlens/store"
)

// BenchmarkReceive measures one export request of 10 agent runs (50 spans,
// protobuf) from arrival to acknowledgement, stored in a database file:
//
//	go test ./serve/ -run '^$' -bench Receive -benchtime 200x
func BenchmarkReceive(b *testing.B) {
	for _, runs := range []int{1, 10, 100} {
		b.Run(map[int]string{1: "runs=1", 10: "runs=10", 100: "runs=100"}[runs], func(b *testing.B) {
			rc := New(Config{DB: filepath.Join(b.TempDir(), "bench.duckdb"), Limits: store.Limits{TempDir: b.TempDir()}})
			srv := httptest.NewServer(rc.Handler())
			defer srv.Close()
			defer func() {
				if err := rc.Close(context.Background()); err != nil {
					b.Error(err)
				}
			}()
			reqs := make([]servetest.Request, b.N)
			for i := range reqs {
				reqs[i] = servetest.Proto(servetest.Runs(i*runs, runs))
			}
			b.ResetTimer()
			for i := range b.N {
				resp, err := servetest.Post(srv.Client(), srv.URL+TracesPath, reqs[i])
				if err != nil || resp.Status != http.StatusOK {
					b.Fatalf("%v %d", err, resp.Status)
				}
			}
			b.ReportMetric(float64(b.N*runs*servetest.SpansPerRun)/b.Elapsed().Seconds(), "spans/s")
		})
	}
}
