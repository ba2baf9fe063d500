package proxy

import (
	"fmt"
	"sort"
)

// How a fault kind acts on a call.
const (
	actAnswer   = iota // answered by the gateway with an isError result, not forwarded
	actProtocol        // answered with a JSON-RPC error, not forwarded
	actQueue           // forwarded after a wait in the gateway's queue
	actPartial         // forwarded; the answer is cut short
	actUnknown         // forwarded; the answer is replaced by an unknown-outcome timeout
	actRestart         // forwarded; the server is restarted before it answers
	actHold            // forwarded; the answer is held back behind a later one
)

// faultKind is one entry of the fault table: its default class, how it
// acts, and the error it reports (nil for faults that keep the server's
// answer).
type faultKind struct {
	class string
	act   int
	err   func(f Fault) errInfo
}

// errInfo is seed 004's error object as the gateway reports it.
type errInfo struct {
	Code         string
	Category     string
	Retryable    bool
	RetryAfterMs int64
	SideEffect   string // side_effect_state
	Message      string
}

func fixed(code, category string, retryable bool, side, message string) func(Fault) errInfo {
	return func(Fault) errInfo { return errInfo{code, category, retryable, 0, side, message} }
}

// faultKinds is the table of fault kinds; docs/proxy.md lists the same.
var faultKinds = map[string]faultKind{
	"validation": {"parameter", actAnswer, func(f Fault) errInfo {
		field := f.Field
		if field == "" {
			field = "query"
		}
		return errInfo{"INVALID_FIELD", "VALIDATION", false, 0, "none", fmt.Sprintf("field '%s' is invalid", field)}
	}},
	"timeout":   {"network", actAnswer, fixed("GATEWAY_TIMEOUT", "TIMEOUT", true, "none", "upstream did not answer in time")},
	"dropped":   {"network", actProtocol, fixed("CONNECTION_RESET", "TRANSIENT", true, "none", "connection reset by peer")},
	"transient": {"network", actAnswer, fixed("UPSTREAM_503", "TRANSIENT", true, "none", "upstream temporarily unavailable")},
	"rate_limit": {"service", actAnswer, func(f Fault) errInfo {
		ms := f.RetryAfterMs
		if ms == 0 {
			ms = 2000
		}
		return errInfo{"RATE_LIMITED", "RATE_LIMIT", true, ms, "none", "too many requests; retry after the given time"}
	}},
	"queue":           {"service", actQueue, nil},
	"partial":         {"service", actPartial, nil},
	"unavailable":     {"service", actAnswer, fixed("BACKUP_UNAVAILABLE", "UNAVAILABLE", false, "none", "the service and its backup are unavailable")},
	"not_found":       {"resource", actAnswer, fixed("NOT_FOUND", "NOT_FOUND", false, "none", "the resource does not exist")},
	"empty":           {"resource", actAnswer, fixed("EMPTY_CONTENT", "EMPTY_CONTENT", false, "none", "the resource has no content")},
	"content_changed": {"resource", actAnswer, fixed("CONTENT_CHANGED", "CONFLICT", false, "none", "the resource changed since it was listed; read it again")},
	"authn":           {"permission", actAnswer, fixed("UNAUTHENTICATED", "AUTHN", false, "none", "credentials are missing or expired")},
	"authz":           {"permission", actAnswer, fixed("FORBIDDEN", "AUTHZ", false, "none", "the caller may not access this resource")},
	"unknown_outcome": {"state", actUnknown, fixed("WRITE_TIMEOUT", "UNKNOWN_OUTCOME", false, "unknown", "the call timed out after it was sent; it may have taken effect: query its status before sending it again")},
	"restart":         {"state", actRestart, fixed("UPSTREAM_RESTART", "TRANSIENT", true, "none", "upstream restarted")},
	"out_of_order":    {"state", actHold, nil},
}

// breakerOpen is what a call refused by an open breaker gets.
func breakerOpen(remainingMs int64) errInfo {
	return errInfo{"CIRCUIT_OPEN", "UNAVAILABLE", true, remainingMs, "none", "circuit breaker open: failing fast"}
}

// delay is the wait a fault applies (timeout, queue, unknown_outcome).
func (f Fault) delay() int64 {
	switch f.Kind {
	case "timeout", "queue":
		if f.DelayMs == 0 {
			return 1000
		}
	case "out_of_order":
		if f.HoldMs == 0 {
			return 1000
		}
		return f.HoldMs
	}
	return f.DelayMs
}

// breakerFailure says whether an error of this category counts towards
// opening a breaker: faults the server's health explains.
func breakerFailure(category string) bool {
	switch category {
	case "TIMEOUT", "TRANSIENT", "UNAVAILABLE", "RATE_LIMIT", "UNKNOWN_OUTCOME":
		return true
	}
	return false
}

func kindNames() []string {
	out := make([]string, 0, len(faultKinds))
	for k := range faultKinds {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
