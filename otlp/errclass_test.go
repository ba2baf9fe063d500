package otlp

import (
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// errSpan builds a failed span from attributes, an optional exception event
// and a status message.
func errSpan(attrs map[string]any, excType, excMsg, statusMsg string) *span {
	s := ptrace.NewSpan()
	if err := s.Attributes().FromRaw(attrs); err != nil {
		panic(err)
	}
	if excType != "" || excMsg != "" {
		ev := s.Events().AppendEmpty()
		ev.SetName("exception")
		ev.Attributes().PutStr("exception.type", excType)
		ev.Attributes().PutStr("exception.message", excMsg)
	}
	s.Status().SetCode(ptrace.StatusCodeError)
	s.Status().SetMessage(statusMsg)
	return newSpan(s, pcommon.NewResource(), pcommon.NewInstrumentationScope(), 0)
}

func TestClassifyError(t *testing.T) {
	cases := []struct {
		name                string
		attrs               map[string]any
		excType, excMsg     string
		statusMsg           string
		category, code, msg string
		retryable           bool
	}{
		{name: "http 504", attrs: map[string]any{"http.response.status_code": 504}, category: catTimeout, code: "504", retryable: true},
		{name: "http 408", attrs: map[string]any{"http.response.status_code": 408}, category: catTimeout, code: "408", retryable: true},
		{name: "http 429", attrs: map[string]any{"http.response.status_code": 429}, category: catRateLimit, code: "429", retryable: true},
		{name: "http 401", attrs: map[string]any{"http.response.status_code": 401}, category: catAuthn, code: "401"},
		{name: "http 403", attrs: map[string]any{"http.response.status_code": 403}, category: catAuthz, code: "403"},
		{name: "http 404", attrs: map[string]any{"http.response.status_code": 404}, category: catNotFound, code: "404"},
		{name: "http 400", attrs: map[string]any{"http.response.status_code": 400}, category: catValidation, code: "400"},
		{name: "http 422", attrs: map[string]any{"http.response.status_code": 422}, category: catValidation, code: "422"},
		{name: "http 503", attrs: map[string]any{"http.response.status_code": 503}, category: catUnavailable, code: "503", retryable: true},
		{name: "http 409", attrs: map[string]any{"http.response.status_code": 409}, category: catConflict, code: "409"},
		{name: "http 500", attrs: map[string]any{"http.response.status_code": 500}, category: catInternal, code: "500"},
		{name: "http status as string", attrs: map[string]any{"http.response.status_code": "429"}, category: catRateLimit, code: "429", retryable: true},
		{name: "old http.status_code", attrs: map[string]any{"http.status_code": 403}, category: catAuthz, code: "403"},
		{name: "http wins over error.type", attrs: map[string]any{"http.response.status_code": 404, "error.type": "timeout"}, category: catNotFound, code: "timeout"},
		{name: "500 then exception says timeout", attrs: map[string]any{"http.response.status_code": 500}, excType: "ReadTimeout", category: catTimeout, code: "ReadTimeout", retryable: true, msg: ""},
		{name: "grpc deadline", attrs: map[string]any{"rpc.grpc.status_code": 4}, category: catTimeout, retryable: true},
		{name: "grpc resource exhausted", attrs: map[string]any{"rpc.grpc.status_code": 8}, category: catRateLimit, retryable: true},
		{name: "grpc unauthenticated", attrs: map[string]any{"rpc.grpc.status_code": 16}, category: catAuthn},
		{name: "grpc unavailable", attrs: map[string]any{"rpc.grpc.status_code": 14}, category: catUnavailable, retryable: true},
		{name: "error.type timeout", attrs: map[string]any{"error.type": "timeout"}, category: catTimeout, code: "timeout", retryable: true},
		{name: "error.type java timeout", attrs: map[string]any{"error.type": "java.net.SocketTimeoutException"}, category: catTimeout, code: "java.net.SocketTimeoutException", retryable: true},
		{name: "error.type DEADLINE_EXCEEDED", attrs: map[string]any{"error.type": "DEADLINE_EXCEEDED"}, category: catTimeout, code: "DEADLINE_EXCEEDED", retryable: true},
		{name: "error.type 429", attrs: map[string]any{"error.type": "429"}, category: catRateLimit, code: "429", retryable: true},
		{name: "error.type PERMISSION_DENIED", attrs: map[string]any{"error.type": "PERMISSION_DENIED"}, category: catAuthz, code: "PERMISSION_DENIED"},
		{name: "error.type INVALID_ARGUMENT", attrs: map[string]any{"error.type": "INVALID_ARGUMENT"}, category: catValidation, code: "INVALID_ARGUMENT"},
		{name: "error.type _OTHER", attrs: map[string]any{"error.type": "_OTHER"}, category: catInternal, code: "_OTHER"},
		{name: "exception APITimeoutError", excType: "openai.APITimeoutError", excMsg: "Request timed out.", category: catTimeout, code: "openai.APITimeoutError", msg: "Request timed out.", retryable: true},
		{name: "exception RateLimitError", excType: "RateLimitError", excMsg: "slow down", category: catRateLimit, code: "RateLimitError", msg: "slow down", retryable: true},
		{name: "exception message too many requests", excType: "HTTPError", excMsg: "Too Many Requests", category: catRateLimit, code: "HTTPError", msg: "Too Many Requests", retryable: true},
		{name: "exception Unauthenticated", excType: "grpc.Unauthenticated", category: catAuthn, code: "grpc.Unauthenticated"},
		{name: "exception Unauthorized", excType: "UnauthorizedError", category: catAuthn, code: "UnauthorizedError"},
		{name: "exception Forbidden", excType: "ForbiddenError", category: catAuthz, code: "ForbiddenError"},
		{name: "exception permission denied message", excType: "OSError", excMsg: "permission denied", category: catAuthz, code: "OSError", msg: "permission denied"},
		{name: "exception FileNotFoundError", excType: "FileNotFoundError", excMsg: "[Errno 2] No such file or directory: 'x'", category: catNotFound, code: "FileNotFoundError", msg: "[Errno 2] No such file or directory: 'x'"},
		{name: "exception ValidationError", excType: "pydantic.ValidationError", category: catValidation, code: "pydantic.ValidationError"},
		{name: "exception invalid argument", excType: "Error", excMsg: "invalid argument: top_k must be > 0", category: catValidation, code: "Error", msg: "invalid argument: top_k must be > 0"},
		{name: "exception ServiceUnavailable", excType: "ServiceUnavailable", category: catUnavailable, code: "ServiceUnavailable", retryable: true},
		{name: "exception ECONNREFUSED", excType: "Error", excMsg: "connect ECONNREFUSED 127.0.0.1:8080", category: catUnavailable, code: "Error", msg: "connect ECONNREFUSED 127.0.0.1:8080", retryable: true},
		{name: "exception message with 504", excType: "HTTPError", excMsg: "HTTP 504 from upstream", category: catTimeout, code: "HTTPError", msg: "HTTP 504 from upstream", retryable: true},
		{name: "number glued to a unit is no status", excType: "RuntimeError", excMsg: "gave up after 404ms", category: catInternal, code: "RuntimeError", msg: "gave up after 404ms"},
		{name: "status message only", statusMsg: "upstream connect error or disconnect/reset before headers. reset reason: connection refused", category: catUnavailable, msg: "upstream connect error or disconnect/reset before headers. reset reason: connection refused", retryable: true},
		{name: "status message kept when exception has none", excType: "KeyError", statusMsg: "'city'", category: catInternal, code: "KeyError", msg: "'city'"},
		{name: "nothing at all", category: catInternal},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := classifyError(errSpan(tc.attrs, tc.excType, tc.excMsg, tc.statusMsg))
			want := spanError{code: tc.code, category: tc.category, message: tc.msg, retryable: tc.retryable}
			if *got != want {
				t.Errorf("classifyError = %+v, want %+v", *got, want)
			}
		})
	}
}

func TestRetryableCategory(t *testing.T) {
	for cat, want := range map[string]bool{
		catTimeout: true, catRateLimit: true, catUnavailable: true, catTransient: true,
		catAuthn: false, catAuthz: false, catNotFound: false, catValidation: false, catConflict: false, catInternal: false,
	} {
		if got := retryableCategory(cat); got != want {
			t.Errorf("retryableCategory(%s) = %v, want %v", cat, got, want)
		}
	}
}

func TestNormaliseErrorText(t *testing.T) {
	for in, want := range map[string]string{
		"APITimeoutError":               "api timeout error",
		"PERMISSION_DENIED":             "permission denied",
		"ConnectionRefusedError":        "connection refused error",
		"requests.exceptions.HTTPError": "requests exceptions http error",
		"IOError":                       "io error",
		"":                              "",
	} {
		if got := normaliseErrorText(in); got != want {
			t.Errorf("normaliseErrorText(%q) = %q, want %q", in, got, want)
		}
	}
}
