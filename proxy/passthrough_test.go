package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// proxied runs an in-process proxy over a child server and connects an SDK
// client to it. stop closes the client and returns the proxy's events.
type proxied struct {
	session *mcp.ClientSession
	events  *bytes.Buffer
	done    chan error
	mu      sync.Mutex
	notes   []string // notifications the client saw
}

func testServerArgv(t *testing.T) []string {
	t.Helper()
	t.Setenv("FAULTLENS_TEST_SERVER", "1")
	return []string{os.Args[0]}
}

func clientOptions(notes func(string)) *mcp.ClientOptions {
	return &mcp.ClientOptions{
		//nolint:staticcheck // sampling is deprecated, yet clients and servers still send it: the proxy must pass it
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			in := req.Params.Messages[0].Content.(*mcp.TextContent).Text
			return &mcp.CreateMessageResult{ //nolint:staticcheck // as above
				Model: "mock", Role: "assistant", Content: &mcp.TextContent{Text: "re: " + in}}, nil
		},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, nil
		},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			notes(fmt.Sprintf("progress %v/%v", req.Params.Progress, req.Params.Total))
		},
		//nolint:staticcheck // logging is deprecated as sampling is, and passed through the same
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			notes(fmt.Sprintf("log %s %v", req.Params.Level, req.Params.Data))
		},
	}
}

func startProxied(t *testing.T, argv []string, opt Options, version string) *proxied {
	t.Helper()
	child, err := StartChild(argv, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	return startOver(t, child, opt, version)
}

func startOver(t *testing.T, up Upstream, opt Options, version string) *proxied {
	t.Helper()
	px := &proxied{events: new(bytes.Buffer), done: make(chan error, 1)}
	if opt.Events == nil {
		opt.Events = px.events
	}
	if opt.SessionID == "" && opt.RunID == "" {
		opt.SessionID = "s1"
	}
	cr, pw := io.Pipe() // proxy -> client
	pr, cw := io.Pipe() // client -> proxy
	go func() {
		px.done <- New(opt).Serve(pr, pw, up)
		_ = pw.Close()
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "0.1"}, clientOptions(px.note))
	s, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: cr, Writer: cw}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	px.session = s
	return px
}

func (px *proxied) note(s string) {
	px.mu.Lock()
	px.notes = append(px.notes, s)
	px.mu.Unlock()
}

func (px *proxied) stop(t *testing.T) string {
	t.Helper()
	_ = px.session.Close()
	select {
	case err := <-px.done:
		if err != nil {
			t.Fatalf("proxy: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the proxy did not end after the client closed")
	}
	return px.events.String()
}

// transcript runs every kind of request the test server answers and
// returns the answers as JSON, one per line, then the notifications seen.
func transcript(t *testing.T, s *mcp.ClientSession, notes func() []string) string {
	t.Helper()
	ctx := context.Background()
	var out []string
	add := func(what string, v any, err error) {
		if err != nil {
			out = append(out, what+" error: "+err.Error())
			return
		}
		b, _ := json.Marshal(v)
		out = append(out, what+" "+string(b))
	}
	//nolint:staticcheck // logging is deprecated, yet clients still set it: the proxy must pass it
	level := &mcp.SetLoggingLevelParams{Level: "info"}
	add("logging/setLevel", nil, s.SetLoggingLevel(ctx, level)) //nolint:staticcheck // as above
	tools, err := s.ListTools(ctx, nil)
	add("tools/list", tools, err)
	for _, c := range []struct{ name, text string }{
		{"echo", "hi"}, {"write_note", "n1"}, {"note_count", ""}, {"pages", ""}, {"fail", ""},
		{"ask_model", "weather?"}, {"ask_user", "proceed?"}, {"no_such_tool", ""},
	} {
		r, err := s.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: map[string]any{"text": c.text}})
		add("tools/call "+c.name, r, err)
	}
	params := &mcp.CallToolParams{Name: "progress", Arguments: map[string]any{"text": ""}}
	params.SetProgressToken("tok-1")
	r, err := s.CallTool(ctx, params)
	add("tools/call progress", r, err)
	res, err := s.ListResources(ctx, nil)
	add("resources/list", res, err)
	rr, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "note://first"})
	add("resources/read", rr, err)
	_, err = s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "note://missing"})
	add("resources/read missing", nil, err)
	pl, err := s.ListPrompts(ctx, nil)
	add("prompts/list", pl, err)
	gp, err := s.GetPrompt(ctx, &mcp.GetPromptParams{Name: "greet"})
	add("prompts/get", gp, err)
	add("ping", nil, s.Ping(ctx, nil))
	time.Sleep(50 * time.Millisecond) // notifications sent before the last answer arrive before it; this is slack only
	out = append(out, notes()...)
	return strings.Join(out, "\n")
}

// TestPassThroughSDK: a client session through the proxy without a plan
// gets the same answers and notifications as one connected to the server
// directly, including a server-side tool error, an unknown tool and a
// missing resource; under protocol 2025-11-25 also the server's sampling
// and elicitation requests to the client during a call (2026-07-28 refuses
// those, and says so in the answer, which must pass through too).
func TestPassThroughSDK(t *testing.T) {
	for _, c := range []struct {
		version string
		must    []string
	}{
		{"2025-11-25", []string{"progress 3/3", "log info progress done", "user chose accept", "model said re: weather?", "unknown tool"}},
		{"", []string{"progress 3/3", "cannot be sent while serving a request", "unknown tool"}},
	} {
		t.Run("protocol "+c.version, func(t *testing.T) {
			argv := testServerArgv(t)
			var mu sync.Mutex
			var direct []string
			client := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "0.1"}, clientOptions(func(s string) { mu.Lock(); direct = append(direct, s); mu.Unlock() }))
			ds, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: exec.Command(argv[0])}, &mcp.ClientSessionOptions{ProtocolVersion: c.version})
			if err != nil {
				t.Fatal(err)
			}
			want := transcript(t, ds, func() []string { mu.Lock(); defer mu.Unlock(); return direct })
			_ = ds.Close()

			px := startProxied(t, argv, Options{}, c.version)
			got := transcript(t, px.session, func() []string { px.mu.Lock(); defer px.mu.Unlock(); return px.notes })
			events := px.stop(t)
			if got != want {
				t.Errorf("through the proxy:\n%s\n\ndirect:\n%s", got, want)
			}
			for _, w := range c.must {
				if !strings.Contains(got, w) {
					t.Errorf("the transcript lacks %q: the test server did not exercise it\n%s", w, got)
				}
			}
			if n := strings.Count(events, `"type":"tool_call"`); n != 9 {
				t.Errorf("%d tool_call events, want 9 (one per tools/call):\n%s", n, events)
			}
			if n := strings.Count(events, `"type":"run"`); n != 1 {
				t.Errorf("%d run events, want 1", n)
			}
		})
	}
}
