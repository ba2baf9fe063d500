package proxy

import (
	"encoding/json"
	"strings"
	"time"
)

// tsLayout is the contract's RFC 3339 timestamp, in UTC to the microsecond
// (DuckDB's precision): an agent answering at once still calls after the
// failure it answers, which milliseconds would not show.
const tsLayout = "2006-01-02T15:04:05.000000Z07:00"

func stamp(t time.Time) string { return t.UTC().Format(tsLayout) }

// toolCallEvent is the contract's tool_call event as the proxy writes it.
type toolCallEvent struct {
	Type           string        `json:"type"`
	RunID          string        `json:"run_id"`
	TS             string        `json:"ts"`
	Seq            int64         `json:"seq"`
	SchemaVersion  int           `json:"schema_version"`
	CallID         string        `json:"call_id"`
	ActionID       string        `json:"action_id"`
	Attempt        int           `json:"attempt,omitempty"`
	Recovery       string        `json:"recovery,omitempty"`
	RecoveryOf     string        `json:"recovery_of,omitempty"`
	Tool           string        `json:"tool"`
	ArgsDigest     string        `json:"args_digest"`
	SideEffect     string        `json:"side_effect,omitempty"`
	IdempotencyKey string        `json:"idempotency_key,omitempty"`
	EnqueuedAt     string        `json:"enqueued_at"`
	StartedAt      string        `json:"started_at"`
	EndedAt        string        `json:"ended_at"`
	Status         string        `json:"status"`
	Error          *contractErr  `json:"error,omitempty"`
	Circuit        string        `json:"circuit,omitempty"`
	Injected       *injectedNote `json:"injected,omitempty"`
}

// contractErr is the contract's error object of a tool_call.
type contractErr struct {
	Code            string `json:"code"`
	Category        string `json:"category"`
	Retryable       bool   `json:"retryable"`
	RetryAfterMs    int64  `json:"retry_after_ms,omitempty"`
	SideEffectState string `json:"side_effect_state,omitempty"`
	Message         string `json:"message,omitempty"`
}

// injectedNote is an extension field: which sample injected which fault.
type injectedNote struct {
	Sample string `json:"sample"`
	Kind   string `json:"kind"`
	Class  string `json:"class"`
}

// runEvent is the contract's run event.
type runEvent struct {
	Type          string     `json:"type"`
	RunID         string     `json:"run_id"`
	TS            string     `json:"ts"`
	SchemaVersion int        `json:"schema_version"`
	Suite         string     `json:"suite"`
	Scenario      string     `json:"scenario"`
	Fault         *runFault  `json:"fault,omitempty"`
	Agent         *agentInfo `json:"agent,omitempty"`
	StartedAt     string     `json:"started_at"`
}

type runFault struct {
	Class      string `json:"class"`
	Kind       string `json:"kind"`
	TargetTool string `json:"target_tool"`
	Expect     *struct {
		Action   string `json:"action,omitempty"`
		Terminal string `json:"terminal,omitempty"`
	} `json:"expect,omitempty"`
}

type agentInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// callEvent renders a finished call.
func (c *call) event(seq int64) toolCallEvent {
	e := toolCallEvent{
		Type: "tool_call", RunID: c.run.id, TS: stamp(c.end), Seq: seq, SchemaVersion: 1,
		CallID: c.callID, ActionID: c.actionID, Recovery: c.recovery, RecoveryOf: c.recoveryOf,
		Tool: c.tool, ArgsDigest: c.digest, SideEffect: c.side, IdempotencyKey: c.idemKey,
		EnqueuedAt: stamp(c.enq), StartedAt: stamp(c.start), EndedAt: stamp(c.end),
		Status: c.status, Circuit: c.circuit,
	}
	if c.attempt > 1 {
		e.Attempt = c.attempt
	}
	if c.err != nil {
		e.Error = &contractErr{c.err.Code, c.err.Category, c.err.Retryable, c.err.RetryAfterMs, c.err.SideEffect, c.err.Message}
	}
	if c.sample != nil {
		e.Injected = &injectedNote{c.sample.Name, c.sample.Fault.Kind, c.sample.Class}
	}
	return e
}

// runEvent renders a run's run event.
func (r *run) event(suite string, agent *agentInfo) runEvent {
	e := runEvent{
		Type: "run", RunID: r.id, TS: stamp(r.started), SchemaVersion: 1,
		Suite: suite, Scenario: "baseline", Agent: agent, StartedAt: stamp(r.started),
	}
	if s := r.fired; s != nil {
		e.Scenario = s.Name
		kind := s.Fault.Kind
		if rest, ok := strings.CutPrefix(s.Name, s.Class+"."); ok && rest != "" {
			kind = rest // the scenario's own kind, as the simulator names it
		}
		e.Fault = &runFault{Class: s.Class, Kind: kind, TargetTool: r.firedTool}
		if s.Expect.Action != "" || s.Expect.Terminal != "" {
			e.Fault.Expect = &struct {
				Action   string `json:"action,omitempty"`
				Terminal string `json:"terminal,omitempty"`
			}{s.Expect.Action, s.Expect.Terminal}
		}
	}
	return e
}

func line(v any) []byte {
	b, _ := json.Marshal(v)
	return append(b, '\n')
}
