package serve

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

// The two OTLP/HTTP encodings, by the Content-Type an exporter sends.
const (
	contentProto = "application/x-protobuf"
	contentJSON  = "application/json"
)

// DefaultMaxBody is the largest request body accepted, before and after
// decompression: the OpenTelemetry Collector's own default
// (confighttp max_request_body_size, 20 MiB).
const DefaultMaxBody = 20 << 20

// encoding is the wire form of one request, which its answer uses too.
type encoding int

const (
	encProto encoding = iota
	encJSON
)

func (e encoding) contentType() string {
	if e == encJSON {
		return contentJSON
	}
	return contentProto
}

// httpError is a request refused before anything was stored, with the
// status it is answered with.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

// encodingOf reads the Content-Type as the collector's receiver does: the
// media type alone, parameters such as charset ignored.
func encodingOf(r *http.Request) (encoding, bool) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return 0, false
	}
	switch mt {
	case contentProto:
		return encProto, true
	case contentJSON:
		return encJSON, true
	}
	return 0, false
}

// readBody reads the request body, gunzipping it when the exporter
// compressed it. Both the compressed and the plain size are bounded by
// limit, so that a small gzip bomb cannot take the memory either, and the
// plain bytes are reserved in the receiver's budget through m as they are
// read (nil: not metered).
func readBody(w http.ResponseWriter, r *http.Request, limit int64, m *metered) ([]byte, error) {
	body := http.MaxBytesReader(w, r.Body, limit)
	defer func() { _ = body.Close() }() // a request body: the server closes it too, and all of it that counts is read
	var src io.Reader = body
	switch ce := strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Encoding"))); ce {
	case "", "identity":
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(body)
		if err != nil {
			return nil, tooLargeOr(err, "gzip: %v", err)
		}
		defer func() { _ = zr.Close() }() // its only error is the one ReadAll returns already
		src = zr
	default:
		return nil, &httpError{http.StatusBadRequest, fmt.Sprintf("unsupported Content-Encoding %q, supported: gzip", ce)}
	}
	src = io.LimitReader(src, limit+1)
	if m != nil {
		m.r = src
		src = m
	}
	b, err := io.ReadAll(src)
	if err != nil {
		if errors.Is(err, errBusy) || isTimeout(err) {
			return nil, err
		}
		return nil, tooLargeOr(err, "read body: %v", err)
	}
	if int64(len(b)) > limit {
		return nil, &httpError{http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes once decompressed", limit)}
	}
	return b, nil
}

// isTimeout reports whether a read failed on the body deadline.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// tooLargeOr answers 413 when err is the size limit, else 400 with the
// formatted message.
func tooLargeOr(err error, format string, args ...any) error {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return &httpError{http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes", mb.Limit)}
	}
	return &httpError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

// decode parses an ExportTraceServiceRequest with the collector's own
// unmarshalers.
func decode(enc encoding, body []byte) (ptraceotlp.ExportRequest, error) {
	req := ptraceotlp.NewExportRequest()
	var err error
	if enc == encJSON {
		err = req.UnmarshalJSON(body)
	} else {
		err = req.UnmarshalProto(body)
	}
	if err != nil {
		return req, &httpError{http.StatusBadRequest, "invalid ExportTraceServiceRequest: " + err.Error()}
	}
	return req, nil
}
