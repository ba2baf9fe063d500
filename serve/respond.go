package serve

import (
	"net/http"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
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
// (code, message) in the request's encoding, marshalled by the protobuf
// library as the collector's receiver does.
func writeStatus(w http.ResponseWriter, enc encoding, status int, msg string) {
	st := &spb.Status{Code: grpcCode(status), Message: msg}
	var b []byte
	var err error
	if enc == encJSON {
		b, err = protojson.Marshal(st)
	} else {
		b, err = proto.Marshal(st)
	}
	if err != nil {
		// A Status of an int and a string always marshals; say so plainly
		// if it ever does not, rather than send an empty body.
		writePlain(w, status, msg)
		return
	}
	write(w, enc.contentType(), status, b)
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
