package proxy

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"time"
)

// run is what the proxy knows of one agent run.
type run struct {
	id        string
	started   time.Time
	seq       int64
	calls     int
	actions   int
	perSample map[int]int        // calls so far that each sample matched (the selectors' k)
	byDigest  map[string]*action // tool + args digest -> its action
	lastFail  *call              // the latest finished call that failed, if it was the latest
	breakers  map[string]*breaker
	fired     *Sample // the first sample that injected into this run
	firedTool string
}

// action is a logical request: calls with the same tool and arguments.
type action struct {
	id       string
	attempts int
	last     string // call id of its latest attempt
}

// call is one tools/call attempt, from the client's request to the answer.
type call struct {
	run        *run
	id         json.RawMessage // the JSON-RPC id
	callID     string
	actionID   string
	attempt    int
	recovery   string
	recoveryOf string
	tool       string
	digest     string
	side       string
	idemKey    string
	traceID    string
	enq        time.Time
	start      time.Time
	end        time.Time
	status     string
	err        *errInfo
	circuit    string
	sample     *Sample
	sampleIdx  int
}

func newRun(id string, now time.Time) *run {
	return &run{id: id, started: now, perSample: map[int]int{}, byDigest: map[string]*action{}, breakers: map[string]*breaker{}}
}

// argsDigest hashes the arguments as canonical JSON (encoding/json sorts
// object keys), so key order and spacing do not make two calls differ.
func argsDigest(tool string, args json.RawMessage) string {
	var v any
	if len(args) > 0 && json.Unmarshal(args, &v) != nil {
		v = string(args)
	}
	canon, _ := json.Marshal(v)
	h := sha256.Sum256(append([]byte(tool+"\x00"), canon...))
	return hex.EncodeToString(h[:8])
}

// place numbers a new call of r and works out its action: the same tool
// and arguments as an earlier call re-send that call's action; a new action
// right after a failed call is a strategy move. An agent that states its
// action id or recovery in _meta is taken at its word.
func (r *run) place(c *call, p *callParams, moves []Move) {
	r.calls++
	c.callID = fmt.Sprintf("%s/c%d", r.id, r.calls)
	key := c.tool + "\x00" + c.digest
	if own := p.metaString("faultlens/action_id"); own != "" {
		key = "meta\x00" + own
	}
	if a, ok := r.byDigest[key]; ok {
		a.attempts++
		c.actionID, c.attempt, c.recovery, c.recoveryOf = a.id, a.attempts, "retry", a.last
		a.last = c.callID
	} else {
		r.actions++
		a := &action{id: fmt.Sprintf("%s/a%d", r.id, r.actions), attempts: 1, last: c.callID}
		r.byDigest[key] = a
		c.actionID, c.attempt = a.id, 1
		if f := r.lastFail; f != nil {
			c.recovery, c.recoveryOf = inferMove(f, c, moves), f.callID
		}
	}
	if own := p.metaString("faultlens/recovery"); own != "" && (own == "retry" || oneOf(own, recoveryMoves)) {
		c.recovery = own
		if c.recoveryOf == "" && r.lastFail != nil {
			c.recoveryOf = r.lastFail.callID
		}
	}
	if c.recovery == "" {
		c.recoveryOf = ""
	}
}

// inferMove names the strategy move of a new action c after the failed
// call f: the plan's moves first; a call that only reads after a write of
// unknown outcome is a status query; else the same tool is a fix of the
// arguments and another tool a switch.
func inferMove(f, c *call, moves []Move) string {
	for _, m := range moves {
		if ok, _ := path.Match(m.Tool, c.tool); ok {
			return m.Recovery
		}
	}
	if f.err != nil && f.err.Category == "UNKNOWN_OUTCOME" && c.side != "write" {
		return "query_status"
	}
	if c.tool == f.tool {
		return "fix_args"
	}
	return "switch_tool"
}

// finished notes a call's outcome for the recovery of the next one.
func (r *run) finished(c *call) {
	switch c.status {
	case "error", "fast_fail", "partial":
		r.lastFail = c
	default:
		r.lastFail = nil
	}
}
