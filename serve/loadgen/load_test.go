package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/faultlens/faultlens/serve"
	"github.com/faultlens/faultlens/store"
)

// TestLoad: 3 clients of 4 requests of 2 runs each are all acknowledged,
// and the counts add up to what was sent.
func TestLoad(t *testing.T) {
	rc := serve.New(serve.Config{DB: filepath.Join(t.TempDir(), "l.duckdb"), Limits: store.Limits{Threads: 2, TempDir: t.TempDir()}})
	srv := httptest.NewServer(rc.Handler())
	l := load{url: srv.URL + serve.TracesPath, clients: 3, requests: 4, runs: 2, duration: time.Hour, client: srv.Client()}
	res, err := l.run(context.Background())
	srv.Close()
	if cerr := rc.Close(context.Background()); cerr != nil {
		t.Fatal(cerr)
	}
	if err != nil {
		t.Fatal(err)
	}
	if res.Sent != 12 || res.Acked != 12 || res.AckedSpans != 12*2*5 || res.Failed != 0 || res.Statuses[http.StatusOK] != 12 {
		t.Errorf("%+v", res)
	}
	if got := rc.Totals(); got.Stored != 12 || got.Events != 12*2*5 {
		t.Errorf("receiver totals %+v", got)
	}
}

// TestCheck: the generator refuses what is not loopback or not bounded.
func TestCheck(t *testing.T) {
	ok := load{url: "http://127.0.0.1:4318/v1/traces", clients: 1, requests: 1, runs: 1, duration: time.Second}
	if err := check(ok); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []load{
		{url: "http://10.0.0.1:4318/v1/traces", clients: 1, requests: 1, runs: 1, duration: time.Second},
		{url: ok.url, clients: 0, requests: 1, runs: 1, duration: time.Second},
		{url: ok.url, clients: 1, requests: 1, runs: 1, duration: time.Hour},
	} {
		if check(bad) == nil {
			t.Errorf("accepted %+v", bad)
		}
	}
}
