package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/faultlens/faultlens/export"
)

// sendOTLP sends the session's events to an OTLP/HTTP receiver (faultlens
// serve, or a Collector) as spans of the faultlens.* convention: the events
// are read into memory, written as export --format otlp writes them (one
// ExportTraceServiceRequest per run) and each run is POSTed as JSON.
func sendOTLP(ctx context.Context, s Streams, g *global, endpoint, session string) error {
	if endpoint == "" || session == "" {
		return nil
	}
	if !strings.Contains(strings.TrimPrefix(strings.TrimPrefix(endpoint, "http://"), "https://"), "/") {
		endpoint = strings.TrimSuffix(endpoint, "/") + "/v1/traces"
	}
	db, done, err := source{paths: []string{session}}.open(ctx, g, io.Discard)
	if err != nil {
		return fmt.Errorf("--otlp: %w", err)
	}
	defer done()
	dir, err := os.MkdirTemp(g.limits.TempDir, "faultlens-proxy-otlp-")
	if err != nil {
		return fmt.Errorf("--otlp: %w", err)
	}
	defer func() { _ = os.RemoveAll(dir) }()
	out := filepath.Join(dir, "runs.otlp.jsonl")
	if _, err := export.Write(ctx, db, out, export.Options{Format: "otlp", TempDir: g.limits.TempDir}); err != nil {
		return fmt.Errorf("--otlp: %w", err)
	}
	f, err := os.Open(out)
	if err != nil {
		return fmt.Errorf("--otlp: %w", err)
	}
	defer func() { _ = f.Close() }()
	client := &http.Client{Timeout: 30 * time.Second}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	runs := 0
	for sc.Scan() {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(sc.Bytes()))
		if err != nil {
			return fmt.Errorf("--otlp %s: %w", endpoint, err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			return fmt.Errorf("--otlp: %w", err)
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		_ = resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			return fmt.Errorf("--otlp %s: %s: %s", endpoint, resp.Status, strings.TrimSpace(string(body)))
		}
		runs++
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("--otlp: %w", err)
	}
	_, _ = fmt.Fprintf(s.Err, "faultlens proxy: sent %d run(s) to %s\n", runs, endpoint)
	return nil
}
