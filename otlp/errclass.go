package otlp

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Error categories of the contract (error.category, failure.category).
const (
	catTimeout     = "TIMEOUT"
	catRateLimit   = "RATE_LIMIT"
	catAuthn       = "AUTHN"
	catAuthz       = "AUTHZ"
	catNotFound    = "NOT_FOUND"
	catValidation  = "VALIDATION"
	catConflict    = "CONFLICT"
	catUnavailable = "UNAVAILABLE"
	catTransient   = "TRANSIENT"
	catInternal    = "INTERNAL"
)

// spanError is what a failed span says about its failure.
type spanError struct {
	code      string // error.type, else exception.type, else the HTTP status code
	category  string
	message   string // exception.message, else the span status message
	retryable bool
}

// httpCategories maps HTTP status codes to categories.
var httpCategories = map[int64]string{
	400: catValidation, 401: catAuthn, 403: catAuthz, 404: catNotFound,
	408: catTimeout, 409: catConflict, 410: catNotFound, 422: catValidation,
	429: catRateLimit, 502: catUnavailable, 503: catUnavailable, 504: catTimeout,
}

// grpcCategories maps gRPC status codes (rpc.grpc.status_code) to categories.
var grpcCategories = map[int64]string{
	3: catValidation, 4: catTimeout, 5: catNotFound, 6: catConflict,
	7: catAuthz, 8: catRateLimit, 14: catUnavailable, 16: catAuthn,
}

// textCategories lists, in the order they are tried, the phrases that name
// a category inside an error type or message once it is normalised by
// normaliseErrorText (lower case, words split, punctuation as spaces).
var textCategories = []struct {
	category string
	phrases  []string
}{
	{catTimeout, []string{"timeout", "timed out", "deadline exceeded", "etimedout"}},
	{catRateLimit, []string{"rate limit", "ratelimit", "too many requests", "resource exhausted", "quota", "throttl"}},
	{catAuthn, []string{"unauthenticated", "unauthorized", "authentication", "invalid api key"}},
	{catAuthz, []string{"forbidden", "permission", "access denied"}},
	{catNotFound, []string{"not found", "notfound", "no such", "enoent"}},
	{catValidation, []string{"validation", "invalid argument", "invalid parameter", "invalid input", "bad request", "unprocessable", "value error"}},
	{catConflict, []string{"conflict", "already exists"}},
	{catUnavailable, []string{"unavailable", "connection refused", "econnrefused", "connection reset", "econnreset", "connection error", "unreachable", "bad gateway"}},
}

// statusInText finds an HTTP status code written as a word of its own.
var statusInText = regexp.MustCompile(`\b[45][0-9][0-9]\b`)

// retryableCategory says whether the contract treats a category as worth
// re-sending the same request.
func retryableCategory(category string) bool {
	switch category {
	case catTimeout, catRateLimit, catUnavailable, catTransient:
		return true
	}
	return false
}

// classifyError reads why a failed span failed. The sources are tried from
// the most to the least precise: http.response.status_code (or the older
// http.status_code), rpc.grpc.status_code, error.type, the last exception
// event's exception.type and exception.message, and the span status
// message. The first source that names a category wins; none gives INTERNAL.
func classifyError(s *span) *spanError {
	excType, excMsg := lastException(s)
	errType := attrStr(s.attrs, "error.type")
	httpCode, hasHTTP := attrInt(s.attrs, "http.response.status_code", "http.status_code")
	e := &spanError{code: errType, message: excMsg}
	if e.code == "" {
		e.code = excType
	}
	if e.code == "" && hasHTTP {
		e.code = strconv.FormatInt(httpCode, 10)
	}
	if e.message == "" {
		e.message = s.statusMsg
	}
	e.category = categoryOf(s, httpCode, hasHTTP, errType, excType, excMsg)
	e.retryable = retryableCategory(e.category)
	return e
}

// categoryOf applies the source order of classifyError.
func categoryOf(s *span, httpCode int64, hasHTTP bool, texts ...string) string {
	if c, ok := httpCategories[httpCode]; ok && hasHTTP {
		return c
	}
	if code, ok := attrInt(s.attrs, "rpc.grpc.status_code"); ok {
		if c, ok := grpcCategories[code]; ok {
			return c
		}
	}
	for _, t := range append(texts, s.statusMsg) {
		if c := categoryOfText(t); c != "" {
			return c
		}
	}
	return catInternal
}

// categoryOfText finds a category named in an error type or message, by
// phrase first and then by an HTTP status code written in it.
func categoryOfText(text string) string {
	if text == "" {
		return ""
	}
	norm := normaliseErrorText(text)
	for _, tc := range textCategories {
		for _, p := range tc.phrases {
			if strings.Contains(norm, p) {
				return tc.category
			}
		}
	}
	for _, m := range statusInText.FindAllString(text, -1) {
		n, _ := strconv.ParseInt(m, 10, 64)
		if c, ok := httpCategories[n]; ok {
			return c
		}
	}
	return ""
}

// normaliseErrorText lower-cases an error type or message and splits the
// words that exception class names and enum constants glue together:
// "APITimeoutError" → "api timeout error", "PERMISSION_DENIED" →
// "permission denied".
func normaliseErrorText(text string) string {
	rs := []rune(text)
	var b strings.Builder
	for i, r := range rs {
		if i > 0 && unicode.IsUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				b.WriteByte(' ')
			}
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		} else {
			b.WriteByte(' ')
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// lastException returns exception.type and exception.message of the last
// "exception" event of a span: the one recorded closest to its end.
func lastException(s *span) (excType, excMsg string) {
	for i := s.events.Len() - 1; i >= 0; i-- {
		ev := s.events.At(i)
		if ev.Name() == "exception" {
			return attrStr(ev.Attributes(), "exception.type"), attrStr(ev.Attributes(), "exception.message")
		}
	}
	return "", ""
}
