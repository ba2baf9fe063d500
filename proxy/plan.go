package proxy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Plan is a fault plan: which tools/call requests get which fault, the
// reaction a correct agent shows, and an optional circuit breaker.
type Plan struct {
	// Name names the plan (the file name without .yaml when absent).
	Name string `yaml:"name"`
	// What says in one line what the plan injects.
	What string `yaml:"what"`
	// Samples are tried in order; the first that selects a call injects.
	Samples []Sample `yaml:"samples"`
	// Breaker is the per-tool circuit breaker, nil for none.
	Breaker *Breaker `yaml:"breaker"`
	// Moves name the recovery of a new action after a failed call.
	Moves []Move `yaml:"moves"`
}

// Sample selects calls and says what to inject into them.
type Sample struct {
	// Tool is a path.Match glob over tool names.
	Tool string `yaml:"tool"`
	// SideEffect, when set, narrows the sample to tools whose annotations
	// give this side effect (none, idempotent, write).
	SideEffect string `yaml:"side_effect"`
	// Calls selects among the matching calls of a run; nil selects all.
	Calls *Selector `yaml:"calls"`
	// Fault is what the selected calls get.
	Fault Fault `yaml:"fault"`
	// Class is the contract's fault.class; defaults from the kind.
	Class string `yaml:"class"`
	// Name is the run's scenario; defaults to <class>.<kind>.
	Name string `yaml:"name"`
	// Expect is the correct reaction.
	Expect Expect `yaml:"expect"`
}

// Selector picks calls by their 1-based index among a run's calls of the
// sample's tools.
type Selector struct {
	// Nth lists the selected indexes.
	Nth []int `yaml:"nth"`
	// Every selects every k-th call.
	Every int `yaml:"every"`
	// From selects the call with this index and every later one.
	From int `yaml:"from"`
	// Share selects a seeded fraction of the calls.
	Share float64 `yaml:"share"`
}

// Fault is one fault kind and its parameters.
type Fault struct {
	// Kind is one of the kinds in faultKinds.
	Kind string `yaml:"kind"`
	// Field is the argument a validation error names.
	Field string `yaml:"field"`
	// DelayMs is the wait of timeout, queue and unknown_outcome.
	DelayMs int64 `yaml:"delay_ms"`
	// RetryAfterMs is the wait a rate limit asks for.
	RetryAfterMs int64 `yaml:"retry_after_ms"`
	// Keep is how many content items a partial result keeps (0: half).
	Keep int `yaml:"keep"`
	// HoldMs bounds how long out_of_order holds an answer back.
	HoldMs int64 `yaml:"hold_ms"`
}

// Expect is the contract's fault.expect.
type Expect struct {
	// Action is the expected reaction (retry, fix_args, ..., stop).
	Action string `yaml:"action"`
	// Terminal is the expected claimed terminal.
	Terminal string `yaml:"terminal"`
}

// Breaker is a per-tool circuit breaker.
type Breaker struct {
	// Tool is a glob over the tools that have a breaker (each its own).
	Tool string `yaml:"tool"`
	// Failures in a row open it.
	Failures int `yaml:"failures"`
	// CooldownMs is how long it stays open before half-opening.
	CooldownMs int64 `yaml:"cooldown_ms"`
	// Mode is enforce (fail fast while open) or advisory (forward anyway).
	Mode string `yaml:"mode"`
}

// Move names the recovery of a new action of a matching tool that follows
// a failed call.
type Move struct {
	// Tool is a glob over tool names.
	Tool string `yaml:"tool"`
	// Recovery is a contract recovery move (switch_source, query_status, ...).
	Recovery string `yaml:"recovery"`
}

var (
	expectActions   = []string{"retry", "fix_args", "backoff", "switch_source", "switch_tool", "back_to_search", "query_status", "degrade", "stop"}
	expectTerminals = []string{"completed", "partial", "failed", "cancelled"}
	recoveryMoves   = []string{"fix_args", "switch_source", "switch_tool", "back_to_search", "query_status"}
	faultClasses    = []string{"parameter", "network", "service", "resource", "permission", "strategy", "state"}
)

// ParsePlan reads a plan from YAML; name labels errors and is the default
// plan name.
func ParsePlan(name string, data []byte) (*Plan, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var p Plan
	if err := dec.Decode(&p); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("plan %s: empty", name)
		}
		return nil, fmt.Errorf("plan %s: %w", name, err)
	}
	if p.Name == "" {
		p.Name = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("plan %s: %w", name, err)
	}
	return &p, nil
}

// LoadPlan reads a plan file, or the shipped plan of that name when no
// such file exists and the argument has no path separator or extension.
func LoadPlan(arg string) (*Plan, error) {
	data, err := os.ReadFile(arg)
	if err == nil {
		return ParsePlan(arg, data)
	}
	if errors.Is(err, os.ErrNotExist) && !strings.ContainsAny(arg, `/\`) && filepath.Ext(arg) != ".yaml" && filepath.Ext(arg) != ".yml" {
		if p, ok := ShippedPlan(arg); ok {
			return p, nil
		}
		return nil, fmt.Errorf("plan %s: neither a file nor a shipped plan (faultlens proxy plans lists them)", arg)
	}
	return nil, fmt.Errorf("plan: %w", err)
}

func (p *Plan) check() error {
	for i := range p.Samples {
		s := &p.Samples[i]
		if err := s.check(); err != nil {
			return fmt.Errorf("sample %d: %w", i+1, err)
		}
	}
	if b := p.Breaker; b != nil {
		if b.Tool == "" {
			b.Tool = "*"
		}
		if _, err := path.Match(b.Tool, ""); err != nil {
			return fmt.Errorf("breaker: tool %q: %w", b.Tool, err)
		}
		if b.Failures < 1 {
			return fmt.Errorf("breaker: failures must be at least 1, not %d", b.Failures)
		}
		if b.CooldownMs < 0 {
			return fmt.Errorf("breaker: cooldown_ms must not be negative")
		}
		if b.Mode == "" {
			b.Mode = "enforce"
		}
		if b.Mode != "enforce" && b.Mode != "advisory" {
			return fmt.Errorf("breaker: mode %q is neither enforce nor advisory", b.Mode)
		}
	}
	for i, m := range p.Moves {
		if _, err := path.Match(m.Tool, ""); err != nil || m.Tool == "" {
			return fmt.Errorf("moves %d: tool %q is not a glob", i+1, m.Tool)
		}
		if !oneOf(m.Recovery, recoveryMoves) {
			return fmt.Errorf("moves %d: recovery %q is not one of %s", i+1, m.Recovery, strings.Join(recoveryMoves, ", "))
		}
	}
	return nil
}

func (s *Sample) check() error {
	if s.Tool == "" {
		return fmt.Errorf("tool is missing (use \"*\" for every tool)")
	}
	if _, err := path.Match(s.Tool, ""); err != nil {
		return fmt.Errorf("tool %q: %w", s.Tool, err)
	}
	if s.SideEffect != "" && !oneOf(s.SideEffect, []string{"none", "idempotent", "write"}) {
		return fmt.Errorf("side_effect %q is not one of none, idempotent, write", s.SideEffect)
	}
	k, ok := faultKinds[s.Fault.Kind]
	if !ok {
		return fmt.Errorf("fault kind %q is not one of %s", s.Fault.Kind, strings.Join(kindNames(), ", "))
	}
	if s.Class == "" {
		s.Class = k.class
	}
	if !oneOf(s.Class, faultClasses) {
		return fmt.Errorf("class %q is not one of %s", s.Class, strings.Join(faultClasses, ", "))
	}
	if s.Name == "" {
		s.Name = s.Class + "." + s.Fault.Kind
	}
	if s.Expect.Action != "" && !oneOf(s.Expect.Action, expectActions) {
		return fmt.Errorf("expect.action %q is not one of %s", s.Expect.Action, strings.Join(expectActions, ", "))
	}
	if s.Expect.Terminal != "" && !oneOf(s.Expect.Terminal, expectTerminals) {
		return fmt.Errorf("expect.terminal %q is not one of %s", s.Expect.Terminal, strings.Join(expectTerminals, ", "))
	}
	if s.Fault.DelayMs < 0 || s.Fault.RetryAfterMs < 0 || s.Fault.HoldMs < 0 || s.Fault.Keep < 0 {
		return fmt.Errorf("fault parameters must not be negative")
	}
	if c := s.Calls; c != nil {
		for _, n := range c.Nth {
			if n < 1 {
				return fmt.Errorf("calls.nth: %d is not a call index (they count from 1)", n)
			}
		}
		if c.Every < 0 || c.From < 0 || c.Share < 0 || c.Share > 1 {
			return fmt.Errorf("calls: every and from must be positive, share within [0, 1]")
		}
		set := 0
		for _, b := range []bool{len(c.Nth) > 0, c.Every > 0, c.From > 0, c.Share > 0} {
			if b {
				set++
			}
		}
		if set != 1 {
			return fmt.Errorf("calls: give exactly one of nth, every, from, share")
		}
	}
	return nil
}

func oneOf(v string, list []string) bool {
	for _, x := range list {
		if v == x {
			return true
		}
	}
	return false
}
