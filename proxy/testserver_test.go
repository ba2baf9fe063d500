package proxy

import (
	"context"
	"fmt"
	"log"
	"os"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMain makes the test binary an MCP server over stdio when
// FAULTLENS_TEST_SERVER=1, so the tests can run a real SDK server as the
// proxy's child without node.
func TestMain(m *testing.M) {
	if os.Getenv("FAULTLENS_TEST_SERVER") == "1" {
		if err := testServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			log.Fatal(err)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type textArgs struct {
	Text           string `json:"text"`
	IdempotencyKey string `json:"idempotency_key,omitempty"`
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// testServer has a tool for every kind of traffic the proxy must pass
// through: plain results, several content items, a server-side error,
// sampling and elicitation requests to the client, progress and log
// notifications; and a resource and a prompt.
func testServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "faultlens-test-server", Version: "1.0.0"}, nil)
	yes, no := true, false
	notes := 0
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, a textArgs) (*mcp.CallToolResult, any, error) {
			return textResult("echo: " + a.Text), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "write_note", Annotations: &mcp.ToolAnnotations{DestructiveHint: &yes, IdempotentHint: no}},
		func(_ context.Context, _ *mcp.CallToolRequest, a textArgs) (*mcp.CallToolResult, any, error) {
			notes++
			return textResult(fmt.Sprintf("saved note %d: %s", notes, a.Text)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "note_count", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest, textArgs) (*mcp.CallToolResult, any, error) {
			return textResult(fmt.Sprintf("%d notes", notes)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "pages", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest, textArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "p1"}, &mcp.TextContent{Text: "p2"}, &mcp.TextContent{Text: "p3"}, &mcp.TextContent{Text: "p4"}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail"},
		func(context.Context, *mcp.CallToolRequest, textArgs) (*mcp.CallToolResult, any, error) {
			r := textResult("boom")
			r.IsError = true
			return r, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "ask_model"},
		func(ctx context.Context, req *mcp.CallToolRequest, a textArgs) (*mcp.CallToolResult, any, error) {
			//nolint:staticcheck // sampling is deprecated, yet servers still send it: the proxy must pass it
			res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 10,
				Messages: []*mcp.SamplingMessage{ //nolint:staticcheck // as above
					{Role: "user", Content: &mcp.TextContent{Text: a.Text}}}})
			if err != nil {
				return nil, nil, err
			}
			return textResult(fmt.Sprintf("model said %v", res.Content.(*mcp.TextContent).Text)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "ask_user"},
		func(ctx context.Context, req *mcp.CallToolRequest, a textArgs) (*mcp.CallToolResult, any, error) {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: a.Text,
				RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}}})
			if err != nil {
				return nil, nil, err
			}
			return textResult("user chose " + res.Action), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "progress"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ textArgs) (*mcp.CallToolResult, any, error) {
			if tok := req.Params.GetProgressToken(); tok != nil {
				for i := 1; i <= 3; i++ {
					_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: 3})
				}
			}
			//nolint:staticcheck // logging is deprecated as sampling is
			msg := &mcp.LoggingMessageParams{Level: "info", Data: "progress done"}
			_ = req.Session.Log(ctx, msg) //nolint:staticcheck // as above
			return textResult("done"), nil, nil
		})
	s.AddResource(&mcp.Resource{URI: "note://first", Name: "first", MIMEType: "text/plain"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "note://first", MIMEType: "text/plain", Text: "first note"}}}, nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "greet"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "hello"}}}}, nil
	})
	return s
}
