package proxy

import (
	"io"
	"sync"
)

// outbox writes messages to w, one line each, from its own goroutine, so
// the router never blocks on a peer that is slow to read (a server blocked
// writing its stdout while the router blocks writing its stdin would
// deadlock both).
type outbox struct {
	mu     sync.Mutex
	cond   *sync.Cond
	queue  [][]byte
	closed bool
	err    error
	done   chan struct{}
}

// newOutbox starts writing to w; closeW runs after the last message (nil:
// nothing to close).
func newOutbox(w io.Writer, closeW func() error) *outbox {
	o := &outbox{done: make(chan struct{})}
	o.cond = sync.NewCond(&o.mu)
	go o.loop(w, closeW)
	return o
}

// push queues one message (without its newline).
func (o *outbox) push(msg []byte) {
	o.mu.Lock()
	if !o.closed {
		o.queue = append(o.queue, msg)
		o.cond.Signal()
	}
	o.mu.Unlock()
}

// close stops taking messages; those queued are still written.
func (o *outbox) close() {
	o.mu.Lock()
	o.closed = true
	o.cond.Signal()
	o.mu.Unlock()
}

// wait blocks until everything queued before close is written and returns
// the first write error.
func (o *outbox) wait() error {
	<-o.done
	return o.err
}

func (o *outbox) loop(w io.Writer, closeW func() error) {
	defer close(o.done)
	for {
		o.mu.Lock()
		for len(o.queue) == 0 && !o.closed {
			o.cond.Wait()
		}
		if len(o.queue) == 0 {
			o.mu.Unlock()
			break
		}
		msg := o.queue[0]
		o.queue[0] = nil
		o.queue = o.queue[1:]
		o.mu.Unlock()
		if o.err != nil {
			continue // the peer is gone: drop what is left, keep draining
		}
		if _, err := w.Write(append(msg, '\n')); err != nil {
			o.err = err
		}
	}
	if closeW != nil {
		if err := closeW(); err != nil && o.err == nil {
			o.err = err
		}
	}
}
