package serve

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/faultlens/faultlens/serve/servetest"
	"github.com/faultlens/faultlens/store"
)

// FuzzHandler: whatever the body, the receiver answers 200 (stored, or
// nothing to store) or 400 (nothing stored) in the request's encoding and
// never crashes; only a traces request it answers 200 reaches the
// database, and an acknowledgement never covers a span that was not
// stored: every trace of a request answered 200 (unless it said nothing
// was stored) has its spans kept. Metrics and logs requests (signal 1, 2)
// never reach it. A seed is the hostile case of an attribute nested
// deeper than encoding/json reads.
func FuzzHandler(f *testing.F) {
	f.Add(servetest.JSON(servetest.Runs(0, 1)).Body, false, uint8(0))
	f.Add(servetest.Proto(servetest.Runs(0, 1)).Body, true, uint8(0))
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"invoke_agent x","traceId":"zz"}]}]}]}`), false, uint8(0))
	f.Add([]byte{0x0a, 0x80}, true, uint8(0))
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"invoke_agent a","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"invoke_agent"}}]}]}]}]}`), false, uint8(0))
	f.Add([]byte(`{"resourceMetrics":[{"scopeMetrics":[{"metrics":[{"name":"m","gauge":{"dataPoints":[{"asInt":"1"}]}}]}]}]}`), false, uint8(1))
	f.Add([]byte(`{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":{"stringValue":"x"}}]}]}]}`), false, uint8(2))
	f.Add([]byte{0x0a, 0x02, 0x0a, 0x00}, true, uint8(2))
	deep := deepRequest(3400)
	f.Add(servetest.JSON(deep).Body, false, uint8(0))
	rc := New(Config{RefreshEvery: 1 << 62, Limits: store.Limits{Threads: 1, TempDir: f.TempDir()}, MaxBody: 1 << 20})
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
		if w.Code == http.StatusOK && path == TracesPath {
			ackedStored(t, rc, body, proto, w.Body.Bytes())
		}
		if out := rc.Totals(); out.Failed != 0 {
			t.Fatalf("a request failed to store: %+v", out)
		}
	})
}

// ackedStored checks that every trace of an acknowledged request is kept
// in otlp_spans, unless the answer said nothing was stored.
func ackedStored(t *testing.T, rc *Receiver, body []byte, proto bool, answer []byte) {
	enc := encJSON
	if proto {
		enc = encProto
	}
	er, err := decode(enc, body)
	if err != nil {
		t.Fatalf("200 to a body that does not decode: %v", err)
	}
	resp := ptraceotlp.NewExportResponse()
	if enc == encJSON {
		err = resp.UnmarshalJSON(answer)
	} else {
		err = resp.UnmarshalProto(answer)
	}
	if err != nil {
		t.Fatalf("answer: %v", err)
	}
	if strings.Contains(resp.PartialSuccess().ErrorMessage(), "nothing stored") {
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for _, id := range traceIDs(er.Traces()) {
		if id == "" || id == "00000000000000000000000000000000" || rc.db == nil {
			continue
		}
		var n int
		if err := rc.db.QueryRow("SELECT count(*) FROM otlp_spans WHERE trace_id = ?", id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Fatalf("trace %s acknowledged but not stored", id)
		}
	}
}
