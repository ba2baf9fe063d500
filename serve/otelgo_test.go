package serve

import (
	"context"
	"fmt"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/faultlens/faultlens/metrics"
)

// TestOTelGoSDK: the OpenTelemetry Go SDK's own OTLP/HTTP exporter
// (protobuf, gzip, batch span processor) sends agent runs to the receiver;
// every run is stored and reads back with the figures the spans state. (The
// JS SDK exporters are exercised by cli's TestServeOTelJS and
// scripts/serve-e2e.sh.)
func TestOTelGoSDK(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, Config{})
	exp, err := otlptracehttp.New(ctx,
		otlptracehttp.WithEndpointURL(h.srv.URL+TracesPath),
		otlptracehttp.WithCompression(otlptracehttp.GzipCompression),
	)
	if err != nil {
		t.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exp),
		sdktrace.WithResource(resource.NewSchemaless(attribute.String("service.name", "otel-go-sdk"))),
	)
	tracer := tp.Tracer("faultlens-serve-test")
	const runs = 7
	base := time.Date(2026, 11, 30, 4, 0, 0, 0, time.UTC)
	for n := range runs {
		at := func(ms int) time.Time {
			return base.Add(time.Duration(n)*time.Minute + time.Duration(ms)*time.Millisecond)
		}
		rctx, root := tracer.Start(ctx, "invoke_agent researcher", trace.WithTimestamp(at(0)),
			trace.WithAttributes(attribute.String("gen_ai.operation.name", "invoke_agent"), attribute.String("gen_ai.agent.name", "researcher")))
		child := func(name string, from, to int, fail bool, attrs ...attribute.KeyValue) {
			_, s := tracer.Start(rctx, name, trace.WithTimestamp(at(from)), trace.WithAttributes(attrs...))
			if fail {
				s.SetAttributes(attribute.String("error.type", "timeout"))
				s.SetStatus(codes.Error, "deadline exceeded")
			}
			s.End(trace.WithTimestamp(at(to)))
		}
		chat := []attribute.KeyValue{attribute.String("gen_ai.operation.name", "chat"), attribute.String("gen_ai.request.model", "gpt-4o")}
		child("chat gpt-4o", 100, 900, false, chat...)
		child("execute_tool web_search", 1000, 1500, false, attribute.String("gen_ai.operation.name", "execute_tool"),
			attribute.String("gen_ai.tool.name", "web_search"), attribute.String("gen_ai.tool.call.id", fmt.Sprintf("call_%d_1", n)))
		child("execute_tool fetch_page", 1600, 3600, true, attribute.String("gen_ai.operation.name", "execute_tool"),
			attribute.String("gen_ai.tool.name", "fetch_page"), attribute.String("gen_ai.tool.call.id", fmt.Sprintf("call_%d_2", n)))
		child("chat gpt-4o", 3700, 4500, false, chat...)
		root.End(trace.WithTimestamp(at(5000)))
		if err := tp.ForceFlush(ctx); err != nil { // one run per request, as a short run usually is
			t.Fatal(err)
		}
	}
	if err := tp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if got := h.rc.Totals(); got.Stored != runs || got.Spans != runs*5 || got.Events != runs*5 || got.Failed != 0 {
		t.Fatalf("totals %+v\n%s", got, h.log.String())
	}
	db := h.closeAndOpen()
	rep, err := metrics.ReportBySuite(ctx, db, metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Suites) != 1 || rep.Suites[0].Suite != "otel-go-sdk" || rep.Suites[0].Runs != runs {
		t.Fatalf("suites %+v", rep.Suites)
	}
	st := rep.Suites[0]
	if d := st.Metrics.DuplicateCall; d.Den != 2*runs || d.Num != 0 {
		t.Errorf("tool calls %+v, want %d without duplicates", d, 2*runs)
	}
	var timeouts int64
	for _, r := range st.Recovery {
		if r.Tool == "fetch_page" && r.Category == "TIMEOUT" {
			timeouts = r.Failed
		}
	}
	if timeouts != runs {
		t.Errorf("fetch_page timeouts failed: %d, want %d (%+v)", timeouts, runs, st.Recovery)
	}
}
