package ingest

import (
	"slices"
	"strings"
	"sync"
)

// Enumerations judged in the scan (issue 12.2, after the timestamps of
// keyscan_ts.go): ingest.checked tests every enumerated field against its
// list of values (22 list_contains and one IN per event). The key/type scan
// holds each value's bytes anyway, so it tests them here; a file whose
// typed lines all pass has those checks skipped (enums_proven). enumRules is
// the one table of the enumerations: TestEnumRulesMatchSQL fails when it and
// the lists of ingest.checked differ. The scan must never prove a value the
// SQL refuses (FuzzScanProvesEnums); leaving one unproven only costs the
// checks.

// enumRule is one enumeration check of ingest.checked: the field at path
// (dotted) of a line of type typ ("" for every line: the type itself) must
// hold one of values when it is not null. An array of strings (degradations)
// must hold only values.
type enumRule struct {
	typ, path string
	values    []string
}

// enumRules are ingest.checked's enumeration checks, in its order.
var enumRules = []enumRule{
	{"", "type", []string{"run", "stage", "tool_call", "model_call", "evidence", "terminal"}},
	{"run", "fault.class", []string{"parameter", "network", "service", "resource", "permission", "strategy", "state"}},
	{"run", "fault.expect.action", []string{"retry", "fix_args", "backoff", "switch_source", "switch_tool", "back_to_search",
		"query_status", "degrade", "stop"}},
	{"run", "fault.expect.terminal", []string{"completed", "partial", "failed", "cancelled"}},
	{"run", "caused_by.cause", []string{"user_followup", "explicit_retry", "auto_recovery"}},
	{"run", "task.min_grade", []string{"primary", "secondary", "reprint", "cache"}},
	{"stage", "stage", []string{"planning", "evidence", "generation", "review", "delivery"}},
	{"stage", "outcome", []string{"ok", "failed", "timeout", "empty", "interrupted", "cancelled"}},
	{"tool_call", "status", []string{"ok", "partial", "error", "fast_fail"}},
	{"tool_call", "recovery", []string{"retry", "fix_args", "switch_source", "switch_tool", "back_to_search", "query_status"}},
	{"tool_call", "side_effect", []string{"none", "idempotent", "write"}},
	{"tool_call", "circuit", []string{"closed", "open", "half_open"}},
	{"tool_call", "error.category", []string{"VALIDATION", "AUTHN", "AUTHZ", "RATE_LIMIT", "TRANSIENT", "TIMEOUT",
		"UNAVAILABLE", "NOT_FOUND", "EMPTY_CONTENT", "SAFETY", "CONFLICT", "PARSE", "UNKNOWN_OUTCOME", "INTERNAL"}},
	{"tool_call", "error.side_effect_state", []string{"none", "committed", "partial", "unknown"}},
	{"tool_call", "source.grade", []string{"primary", "secondary", "reprint", "cache"}},
	{"model_call", "role", []string{"planner", "answer", "reviewer"}},
	{"model_call", "outcome", []string{"ok", "failed", "timeout", "empty"}},
	{"evidence", "grade", []string{"primary", "secondary", "reprint", "cache"}},
	{"evidence", "path", []string{"direct", "degraded"}},
	{"evidence", "status", []string{"confirmed", "candidate", "unsupported"}},
	{"terminal", "terminal", []string{"completed", "partial", "failed", "cancelled"}},
	{"terminal", "reason", []string{"ok", "planning_failed", "evidence_missing", "tool_unavailable", "stream_interrupted",
		"empty_completion", "budget_exhausted", "deadline_exceeded", "user_cancelled", "safety_refusal"}},
	{"terminal", "degradations", []string{"tool", "evidence", "delivery", "safety"}},
}

// maxEnumSlots bounds the distinct enumerated paths (a line scanner holds
// one value per path).
const maxEnumSlots = 32

// enumCheck is a rule of the line's type: the value in slot must be one of
// values.
type enumCheck struct {
	slot   int
	values []string
}

// enumTable is enumRules compiled for the scan: slots are the distinct
// paths (slot 0 is type), checks the rules of each event type (by its index
// in the type rule's values), arrays the values every element of an
// enumerated array must hold, by slot (the values of every rule of the
// path, so that an element proven is allowed whatever the line's type).
type enumTable struct {
	slots  []string
	checks [][]enumCheck
	arrays map[int][]string
}

// enumTableOf compiles rules, the type's rule first.
func enumTableOf(rules []enumRule) *enumTable {
	t := &enumTable{checks: make([][]enumCheck, len(rules[0].values)), arrays: map[int][]string{}}
	for _, r := range rules {
		slot := slices.Index(t.slots, r.path)
		if slot < 0 {
			slot = len(t.slots)
			t.slots = append(t.slots, r.path)
		}
		if r.typ == "" {
			continue
		}
		ty := slices.Index(rules[0].values, r.typ)
		t.checks[ty] = append(t.checks[ty], enumCheck{slot, r.values})
		if old, ok := t.arrays[slot]; ok {
			t.arrays[slot] = slices.DeleteFunc(slices.Clone(old), func(v string) bool { return !slices.Contains(r.values, v) })
		} else {
			t.arrays[slot] = r.values
		}
	}
	if len(t.slots) > maxEnumSlots {
		panic("ingest: more enumerated paths than maxEnumSlots")
	}
	return t
}

// contractEnums is enumRules compiled, built once.
var contractEnums = sync.OnceValue(func() *enumTable { return enumTableOf(enumRules) })

// markEnums sets, in the shapes under top, the slot (plus one) of every
// enumerated field and the values of every enumerated array.
func markEnums(top *shape, t *enumTable) {
	for slot, path := range t.slots {
		sh := top
		parts := strings.Split(path, ".")
		for _, p := range parts[:len(parts)-1] {
			sh = sh.subs[sh.find([]byte(p))]
		}
		k := sh.find([]byte(parts[len(parts)-1]))
		if sh.enum == nil {
			sh.enum = make([]uint8, len(sh.names))
		}
		sh.enum[k] = uint8(slot + 1)
		if sh.kinds[k] == kindStrings {
			if sh.enumArr == nil {
				sh.enumArr = make([][]string, len(sh.names))
			}
			sh.enumArr[k] = t.arrays[slot]
		}
	}
}

// enumValue records the string value b[start:end] of the enumerated field
// of slot (plus one) e; an escaped value is never proven.
func (s *lineScanner) enumValue(e uint8, start, end int, esc bool) {
	if esc {
		s.enumOdd = true
		return
	}
	s.enumAt[e-1] = [2]int32{int32(start), int32(end)}
}

// enumElement judges one element b[start:end] of an enumerated array.
func (s *lineScanner) enumElement(values []string, start, end int, esc bool) {
	if esc || !slices.Contains(values, string(s.b[start:end])) {
		s.enumOdd = true
	}
}

// enumsProven reports whether the line just read holds a type the type's
// rule allows and, in every enumerated field of that type's rules that is
// present, a value the rule allows.
func (s *lineScanner) enumsProven() bool {
	t := contractEnums()
	tv := s.enumAt[0]
	if tv[1] == 0 {
		return false // no type (or null): keep the checks, the line is refused anyway
	}
	ty := slices.Index(enumRules[0].values, string(s.b[tv[0]:tv[1]]))
	if ty < 0 {
		return false
	}
	for _, c := range t.checks[ty] {
		v := s.enumAt[c.slot]
		if v[1] != 0 && !slices.Contains(c.values, string(s.b[v[0]:v[1]])) {
			return false
		}
	}
	return true
}
