// Command loadgen sends OTLP/HTTP trace exports to a faultlens serve on
// loopback, from many clients at once, the way SDK batch exporters do
// (protobuf, gzip, one request in flight per client, 429 and 503 retried
// after Retry-After), and prints the throughput and latency it measured.
// It is bounded: at most -requests per client and -duration, and it sends
// to loopback addresses only.
//
//	go run ./serve/loadgen -url http://127.0.0.1:4318/v1/traces -clients 16 -requests 40
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"
)

func main() {
	l := load{client: &http.Client{Timeout: 30 * time.Second}}
	flag.StringVar(&l.url, "url", "http://127.0.0.1:4318/v1/traces", "the receiver's /v1/traces (loopback only)")
	flag.IntVar(&l.clients, "clients", 16, "clients sending at once")
	flag.IntVar(&l.requests, "requests", 40, "requests per client (at most 10000)")
	flag.IntVar(&l.runs, "runs", 21, "runs per request, 5 spans each (21: 105 spans, about an SDK batch)")
	flag.DurationVar(&l.duration, "duration", time.Minute, "stop sending after this long (at most 10m)")
	flag.IntVar(&l.maxRetries, "retries", 20, "retries of a request answered 429 or 503")
	flag.Parse()
	if err := check(l); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(2)
	}
	res, err := l.run(context.Background())
	fmt.Printf("clients %d: %s\n", l.clients, res)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

// check keeps the generator bounded and on this machine.
func check(l load) error {
	u, err := url.Parse(l.url)
	if err != nil {
		return fmt.Errorf("-url: %w", err)
	}
	ip := net.ParseIP(u.Hostname())
	if u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("-url %s is not a loopback address", l.url)
	}
	switch {
	case l.clients < 1 || l.clients > 1024:
		return fmt.Errorf("-clients %d: 1 to 1024", l.clients)
	case l.requests < 1 || l.requests > 10000:
		return fmt.Errorf("-requests %d: 1 to 10000", l.requests)
	case l.runs < 1 || l.runs > 25000:
		return fmt.Errorf("-runs %d: 1 to 25000", l.runs)
	case l.duration <= 0 || l.duration > 10*time.Minute:
		return fmt.Errorf("-duration %s: up to 10m", l.duration)
	}
	return nil
}
