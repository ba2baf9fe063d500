package serve

import (
	"encoding/binary"
	"encoding/json"
	"net/http"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

// gRPC status codes used in error bodies (google.rpc.Code), chosen from the
// HTTP status as the collector's receiver does.
const (
	codeInvalidArgument   = 3
	codeResourceExhausted = 8
	codeInternal          = 13
	codeUnavailable       = 14
)

func grpcCode(status int) int32 {
	switch status {
	case http.StatusBadRequest:
		return codeInvalidArgument
	case http.StatusRequestEntityTooLarge, http.StatusTooManyRequests:
		return codeResourceExhausted
	case http.StatusServiceUnavailable:
		return codeUnavailable
	}
	return codeInternal
}

// writeExport answers a request that was stored (or had nothing to store)
// with an ExportTraceServiceResponse; its partial_success tells the exporter
// how many spans were rejected and why.
func writeExport(w http.ResponseWriter, enc encoding, rejected int64, message string) {
	resp := ptraceotlp.NewExportResponse()
	if rejected > 0 || message != "" {
		resp.PartialSuccess().SetRejectedSpans(rejected)
		resp.PartialSuccess().SetErrorMessage(message)
	}
	var b []byte
	var err error
	if enc == encJSON {
		b, err = resp.MarshalJSON()
	} else {
		b, err = resp.MarshalProto()
	}
	if err != nil {
		writeStatus(w, enc, http.StatusInternalServerError, "marshal response: "+err.Error())
		return
	}
	write(w, enc.contentType(), http.StatusOK, b)
}

// writeStatus answers an error the way OTLP/HTTP asks: a google.rpc.Status
// (code, message) in the request's encoding. Status has two scalar fields,
// so it is written by hand rather than by pulling in genproto for it.
func writeStatus(w http.ResponseWriter, enc encoding, status int, msg string) {
	code := grpcCode(status)
	var b []byte
	if enc == encJSON {
		b, _ = json.Marshal(struct {
			Code    int32  `json:"code"`
			Message string `json:"message"`
		}{code, msg})
	} else {
		b = statusProto(code, msg)
	}
	write(w, enc.contentType(), status, b)
}

// statusProto encodes google.rpc.Status{code: 1 (varint), message: 2 (bytes)}.
func statusProto(code int32, msg string) []byte {
	var b []byte
	if code != 0 {
		b = append(b, 1<<3|0)
		b = binary.AppendUvarint(b, uint64(code))
	}
	if msg != "" {
		b = append(b, 2<<3|2)
		b = binary.AppendUvarint(b, uint64(len(msg)))
		b = append(b, msg...)
	}
	return b
}

// writePlain answers before the encoding is known (wrong method or media
// type), in plain text as the collector does.
func writePlain(w http.ResponseWriter, status int, msg string) {
	write(w, "text/plain; charset=utf-8", status, []byte(msg))
}

func write(w http.ResponseWriter, contentType string, status int, b []byte) {
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(status)
	_, _ = w.Write(b) // nothing to do if the client went away
}
