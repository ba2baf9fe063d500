package simulate

// The fixed vocabulary of the simulated world: tools, sources, error objects
// and task kinds. Every string here is plain ASCII without quotes, so lines
// can be built without escaping.

// toolInfo describes one tool the agent can call.
type toolInfo struct {
	id      uint64 // mixes into args digests
	name    string
	version string
	schema  string
	side    string // side_effect written on every call; "" = none (omitted)
	execMin int64  // minimum execution ms
	execAvg int64  // mean extra execution ms (exponential), capped at execCap
	execCap int64
}

var (
	toolSearch  = &toolInfo{1, "search", "2.3.1", "search.v2", "", 250, 500, 3000}
	toolVisit   = &toolInfo{2, "visit", "1.8.0", "visit.v3", "", 400, 1400, 8000}
	toolScholar = &toolInfo{3, "scholar", "1.2.0", "scholar.v1", "", 600, 1200, 7000}
	toolPython  = &toolInfo{4, "python", "3.12.4", "python.v1", "idempotent", 1500, 2500, 10000}
	toolBrowser = &toolInfo{5, "browser", "0.9.4", "browser.v1", "", 2000, 2500, 10000}
	toolSend    = &toolInfo{6, "send_message", "1.1.0", "message.v2", "write", 100, 200, 1500}
	toolMsgStat = &toolInfo{7, "message_status", "1.1.0", "message.v2", "", 80, 120, 800}
	toolSave    = &toolInfo{8, "save_report", "1.0.3", "report.v1", "write", 120, 200, 1500}
	toolGetRep  = &toolInfo{9, "get_report", "1.0.3", "report.v1", "", 80, 120, 800}
)

// sourceInfo is where a tool's result came from.
type sourceInfo struct {
	name     string
	grade    grade
	fallback bool
}

var (
	srcOfficial = &sourceInfo{"docs.official", gradePrimary, false}
	srcRelease  = &sourceInfo{"release-notes.official", gradePrimary, false}
	srcPublic   = &sourceInfo{"public-docs.official", gradePrimary, false}
	srcMirror   = &sourceInfo{"docs-mirror.backup", gradeSecondary, true}
	srcBackup   = &sourceInfo{"docs-backup.service", gradeSecondary, true}
	srcReprint  = &sourceInfo{"community-reprint.blog", gradeReprint, false}
	srcCache    = &sourceInfo{"page-cache", gradeCache, true}
	srcScholar  = &sourceInfo{"scholar.index", gradePrimary, false}
	srcDataset  = &sourceInfo{"dataset.official", gradePrimary, false}
)

// grade is an evidence grade; its value is the contract's grade score.
type grade int

const (
	gradeCache grade = iota
	gradeReprint
	gradeSecondary
	gradePrimary
)

var gradeNames = [...]string{"cache", "reprint", "secondary", "primary"}

func (g grade) String() string { return gradeNames[g] }

// errInfo is a structured tool error as the gateway reports it.
type errInfo struct {
	code      string
	category  string
	retryable bool
	side      string // side_effect_state
	message   string
}

var (
	errMissingField  = &errInfo{"MISSING_FIELD", "VALIDATION", false, "none", "missing required field 'query'"}
	errWrongType     = &errInfo{"WRONG_TYPE", "VALIDATION", false, "none", "field 'max_results' must be an integer"}
	errOutOfRange    = &errInfo{"OUT_OF_RANGE", "VALIDATION", false, "none", "field 'year_from' must be <= 2026"}
	errTimeout       = &errInfo{"GATEWAY_TIMEOUT", "TIMEOUT", true, "none", "upstream did not answer in time"}
	errClientTimeout = &errInfo{"CLIENT_TIMEOUT", "TIMEOUT", true, "none", "gave up waiting for the call"}
	errReset         = &errInfo{"CONNECTION_RESET", "TRANSIENT", true, "none", "connection reset by peer"}
	errTransient     = &errInfo{"UPSTREAM_503", "TRANSIENT", true, "none", "upstream temporarily unavailable"}
	errUnavailable   = &errInfo{"HOST_UNREACHABLE", "UNAVAILABLE", true, "none", "host unreachable"}
	errCircuitOpen   = &errInfo{"CIRCUIT_OPEN", "UNAVAILABLE", true, "none", "circuit breaker open for host"}
	errRateLimit     = &errInfo{"RATE_LIMITED", "RATE_LIMIT", true, "none", "quota exceeded, retry later"}
	errNotFound      = &errInfo{"HTTP_404", "NOT_FOUND", false, "none", "page not found"}
	errRedirectLoop  = &errInfo{"TOO_MANY_REDIRECTS", "UNAVAILABLE", false, "none", "redirect loop detected"}
	errEmptyPage     = &errInfo{"EMPTY_BODY", "EMPTY_CONTENT", false, "none", "page rendered no text without scripts"}
	errVersionChange = &errInfo{"CONTENT_VERSION_CHANGED", "CONFLICT", false, "none", "page changed since the search snapshot"}
	errLogin         = &errInfo{"LOGIN_REQUIRED", "AUTHN", false, "none", "page requires a signed-in user"}
	errTenant        = &errInfo{"TENANT_BOUNDARY", "AUTHZ", false, "none", "resource belongs to another tenant"}
	errRestricted    = &errInfo{"RESTRICTED_CONTENT", "AUTHZ", false, "none", "content restricted for this caller"}
	errNoNewResults  = &errInfo{"NO_NEW_RESULTS", "EMPTY_CONTENT", false, "none", "query repeats an earlier query"}
	errUnsupported   = &errInfo{"UNSUPPORTED_OPERATION", "VALIDATION", false, "none", "visit cannot compute aggregates"}
	errInterrupted   = &errInfo{"WORKER_RESTARTED", "TRANSIENT", true, "none", "worker restarted during the call"}
	errCancelled     = &errInfo{"CANCELLED", "INTERNAL", false, "none", "cancelled by the user"}
	errStaleVersion  = &errInfo{"VERSION_CONFLICT", "CONFLICT", false, "none", "report has a newer version"}
	errUnknownWrite  = &errInfo{"WRITE_TIMEOUT", "UNKNOWN_OUTCOME", false, "unknown", "no answer after the message was sent"}
)

// taskKind is what the user asked for; it decides the claims and tools.
type taskKind struct {
	name    string
	claims  [3]string
	current bool      // requires_current_evidence
	fetch   *toolInfo // tool that produces the evidence after a search
	src     *sourceInfo
	write   *toolInfo // write tool used in delivery, or nil
}

var (
	taskVersion    = &taskKind{"version_check", [3]string{"current_version", "release_date", "support_window"}, true, toolVisit, srcOfficial, nil}
	taskConfig     = &taskKind{"config_boundary", [3]string{"config_limit", "default_value", "deprecation_status"}, true, toolVisit, srcOfficial, nil}
	taskLiterature = &taskKind{"literature_review", [3]string{"prior_result", "method_comparison", "dataset_size"}, false, toolScholar, srcScholar, nil}
	taskAnalysis   = &taskKind{"data_analysis", [3]string{"metric_value", "trend_direction", "sample_size"}, false, toolPython, srcDataset, nil}
	taskNotify     = &taskKind{"notify_summary", [3]string{"status_summary", "owner", "next_step"}, true, toolVisit, srcOfficial, toolSend}
	taskReport     = &taskKind{"report_update", [3]string{"report_delta", "source_change", "impact"}, true, toolVisit, srcOfficial, toolSave}
)

// baselineTasks are drawn for runs whose scenario does not fix the task.
var baselineTasks = [...]*taskKind{taskVersion, taskVersion, taskConfig, taskConfig, taskLiterature, taskAnalysis, taskNotify, taskReport}

// degradation is a bit set of declared degradation levels.
type degradation uint8

const (
	degradeTool degradation = 1 << iota
	degradeEvidence
)

// degradationNames spells the bits of a degradation set, lowest first (the
// simulated agents only ever declare the first two).
var degradationNames = [...]string{"tool", "evidence", "delivery", "safety"}
