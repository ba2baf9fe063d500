package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/faultlens/faultlens/serve/servetest"
)

// load is one run of the generator.
type load struct {
	url        string
	clients    int
	requests   int           // per client
	runs       int           // runs per request (5 spans each)
	duration   time.Duration // stop sending after this long
	maxRetries int           // per request, on 429/503
	client     *http.Client
}

// result is what a load run measured.
type result struct {
	Sent, Acked      int           // requests sent (first tries) and acknowledged
	AckedSpans       int           // spans in acknowledged requests
	Busy, Failed     int           // 429/503 answers (retried), other failures
	Elapsed          time.Duration // from the first send to the last answer
	P50, P99, Max    time.Duration // per acknowledged request, first try to answer
	Statuses         map[int]int
	retryAfterWaited time.Duration
}

// body is the gzip protobuf ExportTraceServiceRequest of runs first..
// first+n-1, as an SDK's batch exporter sends it.
func body(first, n int) ([]byte, error) {
	b, err := ptraceotlp.NewExportRequestFromTraces(servetest.Runs(first, n)).MarshalProto()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// run sends from l.clients clients, each waiting for its answer before it
// sends the next (as a batch span processor does), and retries 429 and
// 503 after their Retry-After, as OTLP exporters do.
func (l load) run(ctx context.Context) (result, error) {
	res := result{Statuses: map[int]int{}}
	var mu sync.Mutex
	var lat []time.Duration
	var firstErr error
	deadline := time.Now().Add(l.duration)
	start := time.Now()
	var wg sync.WaitGroup
	for c := range l.clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range l.requests {
				if time.Now().After(deadline) || ctx.Err() != nil {
					return
				}
				first := (c*l.requests + i) * l.runs
				b, err := body(first, l.runs)
				if err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					return
				}
				t0 := time.Now()
				status, busy, waited, err := l.send(ctx, b)
				took := time.Since(t0)
				mu.Lock()
				res.Sent++
				res.Busy += busy
				res.retryAfterWaited += waited
				res.Statuses[status]++
				if status == http.StatusOK {
					res.Acked++
					res.AckedSpans += l.runs * servetest.SpansPerRun
					lat = append(lat, took)
				} else {
					res.Failed++
					if err != nil && firstErr == nil {
						firstErr = err
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	slices.Sort(lat)
	if n := len(lat); n > 0 {
		res.P50, res.P99, res.Max = lat[n/2], lat[min(n-1, n*99/100)], lat[n-1]
	}
	return res, firstErr
}

// send posts b until it is answered with something other than 429/503 or
// the retries run out. It returns the last status and how many busy
// answers came before.
func (l load) send(ctx context.Context, b []byte) (status, busy int, waited time.Duration, err error) {
	for try := 0; ; try++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.url, bytes.NewReader(b))
		if err != nil {
			return 0, busy, waited, err
		}
		req.Header.Set("Content-Type", "application/x-protobuf")
		req.Header.Set("Content-Encoding", "gzip")
		resp, err := l.client.Do(req)
		if err != nil {
			return 0, busy, waited, err
		}
		_, _ = io.Copy(io.Discard, resp.Body) // the answer's content is not measured
		_ = resp.Body.Close()                 // read to the end: nothing left to lose
		if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
			if resp.StatusCode != http.StatusOK {
				err = fmt.Errorf("status %d", resp.StatusCode)
			}
			return resp.StatusCode, busy, waited, err
		}
		busy++
		if try >= l.maxRetries {
			return resp.StatusCode, busy, waited, fmt.Errorf("status %d after %d retries", resp.StatusCode, try)
		}
		wait := time.Second
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			wait = time.Duration(min(s, 5)) * time.Second
		}
		waited += wait
		select {
		case <-ctx.Done():
			return resp.StatusCode, busy, waited, ctx.Err()
		case <-time.After(wait):
		}
	}
}

// String is the result as one line of the throughput table.
func (r result) String() string {
	secs := r.Elapsed.Seconds()
	return fmt.Sprintf("%d sent, %d acknowledged (%d spans) in %.1fs: %.1f requests/s, %.0f spans/s; p50 %s, p99 %s, max %s; %d busy answers retried, %d failed",
		r.Sent, r.Acked, r.AckedSpans, secs, float64(r.Acked)/secs, float64(r.AckedSpans)/secs,
		r.P50.Round(time.Millisecond), r.P99.Round(time.Millisecond), r.Max.Round(time.Millisecond), r.Busy, r.Failed)
}
