// Package simulate writes deterministic, synthetic agent traces in the
// faultlens trace schema v1 (JSON Lines).
//
// A simulated suite is a set of runs of a deep-research agent. Each run plans,
// gathers evidence with tools (search, visit, scholar, python, browser, ...),
// writes an answer and commits exactly one terminal state; in a fault-injected
// suite most runs carry one injected fault from the seeds' fault-injection set
// (parameter, network, service, resource, permission, strategy and state
// layers), together with the reaction a correct agent should show.
//
// Two agent policies react to the same faults: Careful does what the seeds
// prescribe (bounded retries of retryable errors, Retry-After, argument fixes,
// source and tool switches, idempotency keys, status queries, breakers,
// declared degradations, one sealed terminal), Naive shows the classic defects
// (blind retries, retry storms, masked success, hidden degradation, calls
// through an open breaker, duplicate queries, unsealed terminals). Mixed picks
// one per run.
//
// Output is a pure function of Options: the same Options give the same bytes.
// Lines are written roughly in timestamp order across overlapping runs and are
// built by hand (no reflection), so that millions of events per second can be
// written.
package simulate
