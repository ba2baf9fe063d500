package serve

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/faultlens/faultlens/serve/servetest"
)

// waitFor polls cond until it holds; the test's own deadline bounds it.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		if dl, ok := t.Deadline(); ok && time.Until(dl) < time.Second {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestQueueFull: while the committer is busy (here: the test holds its
// lock) and the queue is full, a request is answered 429 with Retry-After
// at once, not left to time out, and is not stored; the queued ones are
// stored when the committer is free again.
func TestQueueFull(t *testing.T) {
	h := newHarness(t, Config{Queue: 1, RetryAfter: 3 * time.Second})
	h.rc.mu.Lock()
	answers := make(chan servetest.Response, 2)
	send := func(first int) {
		go func() { answers <- h.post(servetest.Proto(servetest.Runs(first, 1))) }()
	}
	send(0)
	waitFor(t, "the committer took request 1", func() bool { return len(h.rc.queue) == 0 && h.rc.budget.inUse() > 0 })
	in := h.rc.budget.inUse()
	send(1)
	waitFor(t, "request 2 queued", func() bool { return len(h.rc.queue) == 1 })
	waitFor(t, "request 2 read", func() bool { return h.rc.budget.inUse() > in })
	resp, err := servetest.Post(h.srv.Client(), h.srv.URL+TracesPath, servetest.Proto(servetest.Runs(2, 1)))
	if err != nil {
		t.Fatal(err)
	}
	h.rc.mu.Unlock()
	if resp.Status != http.StatusTooManyRequests {
		t.Fatalf("full queue: status %d, want 429", resp.Status)
	}
	if code, msg := statusOf(t, resp); code != codeResourceExhausted || !strings.Contains(msg, "retry later") {
		t.Errorf("full queue: status {%d %q}", code, msg)
	}
	for range 2 {
		exportResponse(t, <-answers)
	}
	if got := h.rc.budget.inUse(); got != 0 {
		t.Errorf("%d bytes still reserved after every answer", got)
	}
	db := h.closeAndOpen()
	if n := count(t, db, "SELECT count(DISTINCT run_id) FROM events"); n != 2 {
		t.Errorf("runs %d, want 2 (the refused one not stored)", n)
	}
}

// TestRetryAfterHeader: the 429 carries Retry-After in whole seconds.
func TestRetryAfterHeader(t *testing.T) {
	rc := New(Config{InFlight: 64, RetryAfter: 2500 * time.Millisecond})
	t.Cleanup(func() {
		if err := rc.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	req := httptest.NewRequest(http.MethodPost, TracesPath, bytes.NewReader(servetest.Proto(servetest.Runs(0, 1)).Body))
	req.Header.Set("Content-Type", contentProto)
	w := httptest.NewRecorder()
	rc.Handler().ServeHTTP(w, req)
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "3" {
		t.Errorf("over the budget: %d, Retry-After %q; want 429, 3", w.Code, w.Header().Get("Retry-After"))
	}
	if got := rc.Totals(); got.Requests != 0 {
		t.Errorf("a request over the budget reached the committer: %+v", got)
	}
	if got := rc.budget.inUse(); got != 0 {
		t.Errorf("%d bytes still reserved", got)
	}
}

// TestBudgetBoundsBodies: a body is charged memoryPerByte per
// decompressed byte as it is read, so a gzip body whose plain form passes
// the budget is refused though its compressed form fits.
func TestBudgetBoundsBodies(t *testing.T) {
	plain := servetest.JSON(servetest.Runs(0, 40))
	h := newHarness(t, Config{InFlight: int64(len(plain.Body)) * memoryPerByte / 2})
	zipped := plain
	zipped.Gzip = true
	if resp := h.post(zipped); resp.Status != http.StatusTooManyRequests {
		t.Errorf("gzip body over the budget: %d, want 429", resp.Status)
	}
	if resp := h.post(servetest.JSON(servetest.Runs(0, 1))); resp.Status != http.StatusOK {
		t.Errorf("small body: %d, want 200", resp.Status)
	}
}

// TestBodyTimeout: a body that does not arrive within BodyTimeout is
// answered 408 and nothing is stored.
func TestBodyTimeout(t *testing.T) {
	h := newHarness(t, Config{BodyTimeout: 50 * time.Millisecond})
	pr, pw := newSlowBody()
	defer pw()
	req, err := http.NewRequest(http.MethodPost, h.srv.URL+TracesPath, pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentJSON)
	resp, err := h.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if err := resp.Body.Close(); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Errorf("slow body: %d, want 408", resp.StatusCode)
	}
	if got := h.rc.Totals(); got.Requests != 0 {
		t.Errorf("%+v", got)
	}
}

// slowBody sends a first byte and then nothing until it is released.
type slowBody struct {
	sent    bool
	release chan struct{}
}

func newSlowBody() (*slowBody, func()) {
	b := &slowBody{release: make(chan struct{})}
	return b, func() { close(b.release) }
}

func (b *slowBody) Read(p []byte) (int, error) {
	if !b.sent {
		b.sent = true
		p[0] = '{'
		return 1, nil
	}
	<-b.release
	return 0, context.Canceled
}

// TestGuard: with a token, requests without it are 401; on loopback, a
// Host or Origin that is not loopback (a DNS-rebinding page) is 403.
func TestGuard(t *testing.T) {
	rc := New(Config{Token: "s3cret", LoopbackOnly: true})
	t.Cleanup(func() {
		if err := rc.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	cases := []struct {
		name, host, origin, auth string
		want                     int
	}{
		{"no token", "127.0.0.1:4318", "", "", 401},
		{"wrong token", "127.0.0.1:4318", "", "Bearer guess", 401},
		{"rebinding host", "evil.example:4318", "", "Bearer s3cret", 403},
		{"foreign origin", "localhost:4318", "http://evil.example", "Bearer s3cret", 403},
		{"loopback origin", "localhost:4318", "http://127.0.0.1:8080", "Bearer s3cret", 200},
		{"ipv6 loopback", "[::1]:4318", "", "Bearer s3cret", 200},
	}
	for _, c := range cases {
		req := httptest.NewRequest(http.MethodPost, MetricsPath, strings.NewReader("{}"))
		req.Host = c.host
		req.Header.Set("Content-Type", contentJSON)
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		w := httptest.NewRecorder()
		rc.Handler().ServeHTTP(w, req)
		if w.Code != c.want {
			t.Errorf("%s: %d, want %d", c.name, w.Code, c.want)
		}
	}
}
