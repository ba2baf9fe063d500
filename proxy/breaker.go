package proxy

import (
	"path"
	"time"
)

// Breaker states as the contract names them.
const (
	circuitClosed   = "closed"
	circuitOpen     = "open"
	circuitHalfOpen = "half_open"
)

// breaker is one tool's circuit breaker within a run.
type breaker struct {
	state    string
	fails    int // failures in a row
	openedAt time.Time
}

// breakerFor returns the tool's breaker, or nil when the plan gives it none.
func (r *run) breakerFor(cfg *Breaker, tool string) *breaker {
	if cfg == nil {
		return nil
	}
	if ok, _ := path.Match(cfg.Tool, tool); !ok {
		return nil
	}
	b := r.breakers[tool]
	if b == nil {
		b = &breaker{state: circuitClosed}
		r.breakers[tool] = b
	}
	return b
}

// arrive moves an open breaker whose cool-down has passed to half-open and
// returns the state a call arriving now sees, with the rest of the
// cool-down when it is open.
func (b *breaker) arrive(cfg *Breaker, now time.Time) (string, int64) {
	if b.state == circuitOpen {
		left := cfg.CooldownMs - now.Sub(b.openedAt).Milliseconds()
		if left <= 0 {
			b.state = circuitHalfOpen
		} else {
			return circuitOpen, left
		}
	}
	return b.state, 0
}

// settle updates the breaker with the outcome of a call that reached the
// server (or got an injected fault in its place).
func (b *breaker) settle(cfg *Breaker, c *call) {
	failed := c.status == "error" && c.err != nil && breakerFailure(c.err.Category)
	switch {
	case failed && b.state == circuitClosed:
		b.fails++
		if b.fails >= cfg.Failures {
			b.state, b.openedAt = circuitOpen, c.end
		}
	case failed: // half-open probe failed, or a call forwarded while open (advisory)
		b.state, b.openedAt = circuitOpen, c.end
	case c.status == "ok" && b.state != circuitOpen:
		b.state, b.fails = circuitClosed, 0
	}
}
