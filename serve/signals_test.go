package serve

import (
	"net/http"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/collector/pdata/pmetric"
	"go.opentelemetry.io/collector/pdata/pmetric/pmetricotlp"

	"github.com/faultlens/faultlens/serve/servetest"
)

// TestOtherSignals: metrics and logs sent to the same endpoint are read,
// acknowledged with an empty response and left out, as metric and log
// lines of a file are; a body that cannot be read is still 400.
func TestOtherSignals(t *testing.T) {
	h := newHarness(t, Config{})
	md := pmetric.NewMetrics()
	m := md.ResourceMetrics().AppendEmpty().ScopeMetrics().AppendEmpty().Metrics().AppendEmpty()
	m.SetName("gen_ai.client.token.usage")
	m.SetEmptyGauge().DataPoints().AppendEmpty().SetIntValue(42)
	ld := plog.NewLogs()
	ld.ResourceLogs().AppendEmpty().ScopeLogs().AppendEmpty().LogRecords().AppendEmpty().Body().SetStr("hello")
	ld.ResourceLogs().At(0).ScopeLogs().At(0).LogRecords().AppendEmpty().Body().SetStr("again")

	mj, _ := pmetricotlp.NewExportRequestFromMetrics(md).MarshalJSON()
	lp, _ := plogotlp.NewExportRequestFromLogs(ld).MarshalProto()
	cases := []struct {
		path string
		req  servetest.Request
		want int
		body string
	}{
		{MetricsPath, servetest.Request{Body: mj, ContentType: contentJSON}, 200, "{}"},
		{LogsPath, servetest.Request{Body: lp, ContentType: contentProto, Gzip: true}, 200, ""},
		{MetricsPath, servetest.Request{Body: []byte(`{"resourceMetrics": 7}`), ContentType: contentJSON}, 400, ""},
		{LogsPath, servetest.Request{Body: []byte("x"), ContentType: "text/plain"}, 415, ""},
	}
	for _, c := range cases {
		resp, err := servetest.Post(h.srv.Client(), h.srv.URL+c.path, c.req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Status != c.want || (c.want == 200 && string(resp.Body) != c.body) {
			t.Errorf("%s %s: %d %q, want %d %q", c.path, c.req.ContentType, resp.Status, resp.Body, c.want, c.body)
		}
		if c.want == http.StatusOK && resp.ContentType != c.req.ContentType {
			t.Errorf("%s: answered in %q", c.path, resp.ContentType)
		}
	}
	if got := h.rc.Totals(); got.Skipped != 2 || got.Requests != 0 {
		t.Errorf("totals %+v", got)
	}
	for _, line := range []string{"metrics (1 data points): not traces, skipped", "logs (2 log records): not traces, skipped"} {
		if !strings.Contains(h.log.String(), line+"\n") {
			t.Errorf("log lacks %q:\n%s", line, h.log.String())
		}
	}
	db := h.closeAndOpen()
	if n := count(t, db, "SELECT count(*) FROM files"); n != 0 {
		t.Errorf("%d files rows", n)
	}
}
