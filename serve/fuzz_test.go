package serve

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/faultlens/faultlens/serve/servetest"
	"github.com/faultlens/faultlens/store"
)

// FuzzHandler: whatever the body, the receiver answers 200 (stored, or
// nothing to store) or 400 (nothing stored) in the request's encoding and
// never crashes; only a traces request it answers 200 reaches the
// database. Metrics and logs requests (signal 1, 2) never do.
func FuzzHandler(f *testing.F) {
	f.Add(servetest.JSON(servetest.Runs(0, 1)).Body, false, uint8(0))
	f.Add(servetest.Proto(servetest.Runs(0, 1)).Body, true, uint8(0))
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"invoke_agent x","traceId":"zz"}]}]}]}`), false, uint8(0))
	f.Add([]byte{0x0a, 0x80}, true, uint8(0))
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"invoke_agent a","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"invoke_agent"}}]}]}]}]}`), false, uint8(0))
	f.Add([]byte(`{"resourceMetrics":[{"scopeMetrics":[{"metrics":[{"name":"m","gauge":{"dataPoints":[{"asInt":"1"}]}}]}]}]}`), false, uint8(1))
	f.Add([]byte(`{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":{"stringValue":"x"}}]}]}]}`), false, uint8(2))
	f.Add([]byte{0x0a, 0x02, 0x0a, 0x00}, true, uint8(2))
	rc := New(Config{Limits: store.Limits{Threads: 1, TempDir: f.TempDir()}, MaxBody: 1 << 20})
	defer func() {
		if err := rc.Close(context.Background()); err != nil {
			f.Error(err)
		}
	}()
	h := rc.Handler()
	paths := []string{TracesPath, MetricsPath, LogsPath}
	f.Fuzz(func(t *testing.T, body []byte, proto bool, signal uint8) {
		path := paths[int(signal)%len(paths)]
		ct := contentJSON
		if proto {
			ct = contentProto
		}
		before := rc.Totals().Requests
		req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
		req.Header.Set("Content-Type", ct)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		reached := rc.Totals().Requests - before
		switch w.Code {
		case http.StatusOK:
			if want := map[bool]int64{true: 1, false: 0}[path == TracesPath]; reached != want {
				t.Fatalf("200 but %d requests reached storing", reached)
			}
		case http.StatusBadRequest:
			if reached != 0 {
				t.Fatalf("400 but the request reached storing")
			}
		default:
			t.Fatalf("status %d: %s", w.Code, w.Body)
		}
		if got := w.Header().Get("Content-Type"); got != ct {
			t.Fatalf("answered in %q to %q", got, ct)
		}
		if out := rc.Totals(); out.Failed != 0 {
			t.Fatalf("a request failed to store: %+v", out)
		}
	})
}
