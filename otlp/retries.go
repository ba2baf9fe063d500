package otlp

import (
	"cmp"
	"slices"
	"time"
)

// inferRetries marks re-sends. OpenTelemetry records each attempt of a
// handled retry as a span of its own and says nothing about which spans are
// attempts of one request, so faultlens infers it, over the whole run and
// whatever the parent spans (agent frameworks put each step of their loop,
// and so a model's re-send of a failed call, under a new parent span):
//
// a tool call C is the next attempt of the action of an earlier call P of
// the same tool when P failed, C came after P (below), and C is linked to P:
// both record arguments and they are equal (the same args digest), or C
// carries P's call id, or C states that it is a re-send
// (http.request.resend_count). Arguments a span does not record are
// unknown, and unknown is never equal: such calls are linked by an explicit
// link only. Of several such P, the latest (by start) is the one.
//
// C came after P when it started once P had ended, or when a model call of
// the run started between P's start and C's: C answers a later model turn.
// The second reading keeps a re-send linked when real clocks jitter (the
// re-send's start a hair before the failed call's recorded end). A call
// that started with P in the same turn cannot react to P's failure, so it
// starts an action of its own, as does every call whose latest namesake
// succeeded.
//
// The calls are ordered by start, end and span id before they are linked,
// so the links do not depend on the order in which spans arrived.
func inferRetries(calls []*toolCall, modelStarts []time.Time) {
	ordered := slices.Clone(calls)
	slices.SortStableFunc(ordered, func(a, b *toolCall) int {
		return cmp.Or(a.start.Compare(b.start), a.end.Compare(b.end), cmp.Compare(a.spanID, b.spanID), cmp.Compare(a.ev.CallID, b.ev.CallID))
	})
	models := slices.Clone(modelStarts)
	slices.SortFunc(models, time.Time.Compare)
	for i, c := range ordered {
		prev := latestLinked(ordered[:i], c, models)
		if prev == nil {
			continue
		}
		c.ev.ActionID = prev.ev.ActionID
		c.ev.Attempt = prev.ev.Attempt + 1
		c.ev.Recovery = recoveryRetry
		c.ev.RecoveryOf = prev.ev.CallID
	}
}

// latestLinked returns the latest of the earlier calls that c is linked to
// (same tool and an equal known digest, the same model call id, or any
// when c states a re-send), when it failed and c came after it; else nil.
func latestLinked(earlier []*toolCall, c *toolCall, models []time.Time) *toolCall {
	for i := len(earlier) - 1; i >= 0; i-- {
		p := earlier[i]
		if p.ev.Tool != c.ev.Tool || !linked(p, c) {
			continue
		}
		if p.ev.Status != statusError || !cameAfter(p, c, models) {
			return nil
		}
		return p
	}
	return nil
}

// linked reports whether c is shown to repeat p's request.
func linked(p, c *toolCall) bool {
	switch {
	case c.digest != "" && c.digest == p.digest:
		return true
	case c.modelID != "" && c.modelID == p.modelID:
		return true
	}
	return c.resend
}

// cameAfter reports whether c started after p had ended, or after a model
// call that started after p.
func cameAfter(p, c *toolCall, models []time.Time) bool {
	if !c.start.Before(p.end) {
		return true
	}
	i, _ := slices.BinarySearchFunc(models, p.start, func(m, t time.Time) int {
		if m.After(t) {
			return 1
		}
		return -1
	})
	return i < len(models) && models[i].Before(c.start)
}
