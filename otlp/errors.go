package otlp

import (
	"errors"
	"fmt"
)

// ErrNoAgentSpans says that an input held spans but none of them belongs to
// an agent run: it is an OpenTelemetry trace, but not of an agent. Test for
// it with errors.Is; the error Convert returns is a *NoAgentSpansError.
var ErrNoAgentSpans = errors.New("no agent spans found")

// NoAgentSpansError is ErrNoAgentSpans with the number of spans read.
type NoAgentSpansError struct {
	// Spans is the number of spans read.
	Spans int
}

// Error reads like "no agent spans found (547 spans read)".
func (e *NoAgentSpansError) Error() string {
	return fmt.Sprintf("%s (%d spans read)", ErrNoAgentSpans, e.Spans)
}

// Is makes errors.Is(err, ErrNoAgentSpans) true.
func (e *NoAgentSpansError) Is(target error) bool {
	return target == ErrNoAgentSpans
}
