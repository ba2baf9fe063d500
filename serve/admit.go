package serve

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// DefaultInFlight bounds the memory that requests hold between their first
// byte and their answer (see budget): 256 MiB of weighted bytes.
const DefaultInFlight = 256 << 20

// DefaultQueue bounds the parsed requests waiting for a commit.
const DefaultQueue = 1024

// DefaultRetryAfter is what a refused request is told to wait before it
// sends again (the Retry-After header OTLP/HTTP exporters honour).
const DefaultRetryAfter = time.Second

// memoryPerByte is how many bytes of memory one decompressed body byte
// costs while its request is in flight: the body, the pdata it decodes to,
// the OTLP/JSON it is encoded to and its copy in the group's document
// (measured with BenchmarkParseMemory: 3.1 for protobuf bodies of ~107
// spans; rounded up).
const memoryPerByte = 4

// errBusy refuses a request that does not fit in the receiver's bounds;
// it is answered 429 with Retry-After, which exporters retry.
var errBusy = errors.New("receiver busy: too many bytes or requests in flight, retry later")

// budget counts the weighted bytes of the requests in flight against a
// limit. It never waits: a request that does not fit is refused at once,
// so that any number of clients holds at most limit bytes (plus one read
// buffer each) and an exporter learns to back off instead of timing out.
type budget struct {
	mu    sync.Mutex
	used  int64
	limit int64
}

// take reserves n bytes, or reports that they do not fit.
func (b *budget) take(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.limit {
		return false
	}
	b.used += n
	return true
}

// give returns n reserved bytes.
func (b *budget) give(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
}

// inUse is the bytes reserved now.
func (b *budget) inUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// metered reserves memoryPerByte bytes of the budget for every byte read
// through it, before the bytes are kept: a body is bounded as it is read,
// not after it was decoded.
type metered struct {
	r    io.Reader
	b    *budget
	held int64 // reserved so far, returned by release
}

func (m *metered) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	if n > 0 {
		w := int64(n) * memoryPerByte
		if !m.b.take(w) {
			return 0, errBusy
		}
		m.held += w
	}
	return n, err
}

// release returns what the body reserved.
func (m *metered) release() {
	m.b.give(m.held)
	m.held = 0
}

// writeBusy answers a request that must be sent again later: 429 for a
// full receiver, 503 for one that cannot store now (shutting down, disk
// full, read-only or locked database), both with Retry-After as the
// OTLP/HTTP specification asks.
func writeBusy(w http.ResponseWriter, enc encoding, status int, after time.Duration, msg string) {
	secs := int64((after + time.Second - 1) / time.Second)
	w.Header().Set("Retry-After", strconv.FormatInt(max(secs, 1), 10))
	writeStatus(w, enc, status, msg)
}
