package simulate

// Scenario describes one injected fault and the reaction a correct agent
// shows. Runs carry it in their run event as scenario = Name and
// fault = {class, kind, target_tool, expect: {action, terminal}}.
type Scenario struct {
	// Name is "<class>.<kind>", or "baseline" for fault-free runs.
	Name string
	// Class is the fault layer: parameter, network, service, resource,
	// permission, strategy or state ("" for baseline).
	Class string
	// Kind is the fault within its layer, e.g. "timeout".
	Kind string
	// TargetTool is the tool the fault hits.
	TargetTool string
	// ExpectAction is the correct reaction (fault.expect.action).
	ExpectAction string
	// ExpectTerminal is the correct claimed terminal (fault.expect.terminal).
	ExpectTerminal string
	// What says in one line what is injected and what a careful agent does.
	What string
}

// BaselineScenario is the scenario name of fault-free runs.
const BaselineScenario = "baseline"

// scenario is a Scenario with the knobs and handlers that simulate it.
type scenario struct {
	Scenario
	task       *taskKind // nil: drawn from baselineTasks
	claims     int       // evidence_required; 0: drawn (1..3)
	secondary  bool      // min_grade is secondary (else drawn)
	targetLast bool      // the fault hits the last claim, not the first
	tight      bool      // retry_budget 0 and a 90 s deadline
	slowQueue  bool      // a 10 minute deadline (queue backlog)
	noPlanner  bool      // never combined with a planner fault
	acquire    func(s *sim, claim int)
	deliver    func(s *sim) // the delivery write, when the fault hits it
}

// fault builds a fault scenario entry.
func fault(class, kind, tool, action, terminal, what string) scenario {
	return scenario{Scenario: Scenario{
		Name: class + "." + kind, Class: class, Kind: kind, TargetTool: tool,
		ExpectAction: action, ExpectTerminal: terminal, What: what,
	}}
}

// catalog lists every scenario; baseline first, then the fault-injection set
// in the seeds' layer order. The order is part of the deterministic output.
var catalog = buildCatalog()

func buildCatalog() []*scenario {
	list := []scenario{
		{Scenario: Scenario{Name: BaselineScenario, What: "no fault injected"}},
		with(fault("parameter", "missing_field", "python", "fix_args", "completed", "python rejects a call without a required field; fix the field under a new action"), taskAnalysis, acquireBadArgs(errMissingField)),
		with(fault("parameter", "wrong_type", "search", "fix_args", "completed", "search rejects a string where an integer is due; fix the type"), nil, acquireBadArgs(errWrongType)),
		with(fault("parameter", "out_of_range", "scholar", "fix_args", "completed", "scholar rejects an out-of-range year; fix the value"), taskLiterature, acquireBadArgs(errOutOfRange)),
		with(fault("network", "timeout", "visit", "retry", "completed", "visit times out once; retry with backoff"), nil, acquireTimeout),
		with(fault("network", "reset", "visit", "retry", "completed", "connection reset on visit; retry with backoff"), nil, acquireReset),
		with(fault("network", "intermittent", "search", "retry", "completed", "search fails now and then; bounded retries"), nil, acquireIntermittent),
		with(fault("network", "persistent", "visit", "switch_source", "completed", "host stays down, breaker opens; switch to the backup mirror and declare the degradation"), nil, acquirePersistent),
		with(fault("service", "rate_limit", "search", "backoff", "completed", "search answers 429 with retry_after_ms; wait that long"), nil, acquireRateLimit),
		with(fault("service", "queue_backlog", "python", "stop", "completed", "python job queues 347 s and runs 13 s; wait, do not cancel or re-send"), taskAnalysis, acquireQueueBacklog),
		with(fault("service", "partial_return", "scholar", "degrade", "partial", "scholar returns one of two claims; deliver partial with the gap declared"), taskLiterature, acquirePartialReturn),
		with(fault("service", "backup_unavailable", "visit", "switch_source", "partial", "primary and backup both down; keep the reprint as a candidate and stop with partial"), nil, acquireBackupDown),
		with(fault("resource", "not_found", "visit", "back_to_search", "completed", "page is gone (404); search for its new location"), nil, acquireNotFound),
		with(fault("resource", "redirect_loop", "visit", "switch_source", "completed", "page redirects in a loop; use the release notes instead"), nil, acquireRedirectLoop),
		with(fault("resource", "empty_dynamic_page", "visit", "switch_tool", "completed", "page has no text without scripts; render it with browser"), nil, acquireEmptyPage),
		with(fault("resource", "content_version_change", "visit", "back_to_search", "completed", "page changed since the search snapshot; search again for the current version"), nil, acquireVersionChange),
		with(fault("permission", "login_required", "visit", "switch_source", "completed", "page needs a login; use the public original instead of bypassing"), nil, acquireLogin),
		with(fault("permission", "tenant_boundary", "visit", "stop", "failed", "resource belongs to another tenant; stop, do not bypass"), nil, acquireTenant),
		with(fault("permission", "restricted_content", "visit", "stop", "partial", "last claim is restricted content; stop and deliver partial with the gap"), nil, acquireRestricted),
		with(fault("strategy", "duplicate_query", "search", "fix_args", "completed", "planner repeats an earlier query; reformulate instead of re-sending"), nil, acquireDuplicateQuery),
		with(fault("strategy", "same_source_reprint", "visit", "back_to_search", "completed", "search leads to a reprint without a version date; keep it as a candidate and find the original"), nil, acquireReprint),
		with(fault("strategy", "wrong_tool", "visit", "switch_tool", "completed", "visit asked to compute aggregates; switch to python"), taskAnalysis, acquireWrongTool),
		with(fault("strategy", "budget_exhausted", "visit", "stop", "partial", "retry budget is spent when the last visit times out; stop with partial"), nil, acquireBudgetExhausted),
		with(fault("state", "concurrent_return", "visit", "retry", "completed", "parallel visits, one times out and its late answer arrives after the retry; ignore it"), nil, acquireConcurrent),
		with(fault("state", "cancel", "visit", "stop", "cancelled", "user cancels during a visit; stop and commit cancelled"), nil, acquireCancel),
		with(fault("state", "restart", "visit", "retry", "completed", "worker restarts mid-visit; resume from the checkpoint and retry only that call"), nil, acquireRestart),
		with(fault("state", "stale_overwrite", "save_report", "query_status", "completed", "report write hits a newer version; read it before writing again"), taskReport, nil),
		with(fault("state", "unknown_write_outcome", "send_message", "query_status", "completed", "message send times out with unknown outcome; query its status, never re-send blindly"), taskNotify, nil),
	}
	out := make([]*scenario, len(list))
	for i := range list {
		sc := list[i]
		tune(&sc)
		out[i] = &sc
	}
	return out
}

// with attaches a task and an evidence handler to a fault entry.
func with(sc scenario, task *taskKind, acquire func(*sim, int)) scenario {
	sc.task = task
	sc.acquire = acquire
	return sc
}

// tune sets the per-scenario knobs that make a careful agent's outcome match
// the scenario's expectation.
func tune(sc *scenario) {
	switch sc.Name {
	case "network.persistent", "service.backup_unavailable", "strategy.same_source_reprint":
		sc.secondary = true // a secondary-grade fallback must be able to satisfy
	case "service.partial_return":
		sc.claims = 2
	case "service.queue_backlog":
		sc.slowQueue = true
	case "permission.tenant_boundary":
		sc.claims = 1
	case "state.concurrent_return":
		sc.claims = 2 // both claims are visited in parallel
	case "permission.restricted_content", "strategy.duplicate_query", "state.restart":
		sc.claims = 2
		sc.targetLast = true
	case "strategy.budget_exhausted":
		sc.claims = 2
		sc.targetLast = true
		sc.tight = true
	case "state.stale_overwrite":
		sc.deliver = deliverStaleOverwrite
	case "state.unknown_write_outcome":
		sc.deliver = deliverUnknownWrite
	}
	// Runs whose correct reaction is "stop" must show no failed step before
	// the fault, so they never get an extra planner fault.
	sc.noPlanner = sc.ExpectAction == "stop"
}

// Scenarios lists the fault-injection scenarios (without baseline) in a
// fixed order.
func Scenarios() []Scenario {
	out := make([]Scenario, 0, len(catalog)-1)
	for _, sc := range catalog[1:] {
		out = append(out, sc.Scenario)
	}
	return out
}

// lookupScenario finds a scenario by name, or nil.
func lookupScenario(name string) *scenario {
	for _, sc := range catalog {
		if sc.Name == name {
			return sc
		}
	}
	return nil
}
