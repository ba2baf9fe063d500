package serve

import (
	"fmt"
	"net/http"

	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/pmetric"
)

// The paths of the other two OTLP signals. An SDK configured with one
// base endpoint (OTEL_EXPORTER_OTLP_ENDPOINT) sends metrics and logs there
// too; like metric and log lines in a file, they are read, counted and
// left out, rather than answered 404 into the application's log.
const (
	MetricsPath = "/v1/metrics"
	LogsPath    = "/v1/logs"
)

// otherSignal decodes a body of one of the other signals and says what it
// held.
type otherSignal struct {
	name string
	read func(enc encoding, body []byte) (string, error)
}

var (
	metricsSignal = otherSignal{"metrics", func(enc encoding, body []byte) (string, error) {
		var md pmetric.Metrics
		var err error
		if enc == encJSON {
			md, err = new(pmetric.JSONUnmarshaler).UnmarshalMetrics(body)
		} else {
			md, err = new(pmetric.ProtoUnmarshaler).UnmarshalMetrics(body)
		}
		if err != nil {
			return "", err // md is not valid then
		}
		return fmt.Sprintf("%d data points", md.DataPointCount()), nil
	}}
	logsSignal = otherSignal{"logs", func(enc encoding, body []byte) (string, error) {
		var ld plog.Logs
		var err error
		if enc == encJSON {
			ld, err = new(plog.JSONUnmarshaler).UnmarshalLogs(body)
		} else {
			ld, err = new(plog.ProtoUnmarshaler).UnmarshalLogs(body)
		}
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d log records", ld.LogRecordCount()), nil
	}}
)

// handle answers a request of the signal: 400 when it cannot be read, else
// an empty (fully successful) export response; nothing is stored.
func (sig otherSignal) handle(rc *Receiver) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		enc, ok := acceptPost(w, r)
		if !ok {
			return
		}
		rc.bodyDeadline(w)
		m := &metered{b: &rc.budget}
		defer m.release()
		body, err := readBody(w, r, rc.cfg.MaxBody, m)
		what := ""
		if err == nil {
			if what, err = sig.read(enc, body); err != nil {
				err = &httpError{http.StatusBadRequest, fmt.Sprintf("invalid Export%sServiceRequest: %v", exportName[sig.name], err)}
			}
		}
		if err != nil {
			rc.refuse(w, r, enc, err)
			return
		}
		rc.skipped(r.RemoteAddr, sig.name, what)
		// Both responses are empty when all was accepted.
		if enc == encJSON {
			write(w, contentJSON, http.StatusOK, []byte("{}"))
		} else {
			write(w, contentProto, http.StatusOK, nil)
		}
	}
}

var exportName = map[string]string{"metrics": "Metrics", "logs": "Logs"}
