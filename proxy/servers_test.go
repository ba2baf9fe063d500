package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// referenceCall is one tools/call of a reference server's transcript.
type referenceCall struct {
	tool string
	args map[string]any
}

// referenceTranscript lists, lists and calls what the server offers and
// returns every answer as JSON, one per line, plus the progress the client
// was sent.
func referenceTranscript(t *testing.T, s *mcp.ClientSession, calls []referenceCall, progress func() []string) string {
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
	tools, err := s.ListTools(ctx, nil)
	add("tools/list", tools, err)
	caps := s.InitializeResult().Capabilities
	if caps.Resources != nil {
		res, err := s.ListResources(ctx, nil)
		add("resources/list", res, err)
		if err == nil && len(res.Resources) > 0 {
			rr, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: res.Resources[0].URI})
			add("resources/read", rr, err)
		}
		rt, err := s.ListResourceTemplates(ctx, nil)
		add("resources/templates/list", rt, err)
	}
	if caps.Prompts != nil {
		pl, err := s.ListPrompts(ctx, nil)
		add("prompts/list", pl, err)
		if err == nil && len(pl.Prompts) > 0 {
			gp, err := s.GetPrompt(ctx, &mcp.GetPromptParams{Name: pl.Prompts[0].Name})
			add("prompts/get", gp, err)
		}
	}
	for i, c := range calls {
		p := &mcp.CallToolParams{Name: c.tool, Arguments: c.args}
		if c.tool == "trigger-long-running-operation" {
			p.SetProgressToken(fmt.Sprint("tok-", i))
		}
		r, err := s.CallTool(ctx, p)
		add("tools/call "+c.tool, r, err)
	}
	add("ping", nil, s.Ping(ctx, nil))
	return strings.Join(append(out, progress()...), "\n")
}

// variable are the parts of reference server answers that differ between
// any two sessions: file times (server-filesystem's get_file_info) and the
// temporary directory and memory file each session gets.
var variable = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?|[A-Z][a-z]{2} [A-Z][a-z]{2} \d\d \d{4} \d\d:\d\d:\d\d GMT[+-]\d{4} \([^)]*\)`)

func normalise(s string, dirs ...string) string {
	for _, d := range dirs {
		s = strings.ReplaceAll(s, d, "DIR")
	}
	return variable.ReplaceAllString(s, "TIME")
}

// TestReferenceServers: with no plan the proxy is invisible to a client
// session on the MCP reference servers from npm (server-everything,
// server-filesystem in a temporary directory, server-memory): the same
// answers and progress notifications as without it, after replacing only
// timestamps and each session's own temporary paths. Needs node and
// scripts/mcp-servers/node_modules (npm ci there); skips without them.
func TestReferenceServers(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns node")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH")
	}
	modules, _ := filepath.Abs("../scripts/mcp-servers/node_modules/@modelcontextprotocol")
	if _, err := os.Stat(filepath.Join(modules, "server-memory")); err != nil {
		t.Skip("scripts/mcp-servers/node_modules is not installed: run npm ci there once")
	}
	servers := []struct {
		name  string
		argv  func(dir string) []string
		calls []referenceCall
	}{
		{"everything", func(string) []string {
			return []string{node, filepath.Join(modules, "server-everything/dist/index.js")}
		}, []referenceCall{
			{"echo", map[string]any{"message": "hello"}},
			{"get-sum", map[string]any{"a": 2, "b": 3}},
			{"get-tiny-image", map[string]any{}},
			{"get-structured-content", map[string]any{"location": "New York"}},
			{"get-annotated-message", map[string]any{"messageType": "error", "includeImage": false}},
			{"get-resource-links", map[string]any{"count": 2}},
			{"trigger-long-running-operation", map[string]any{"duration": 1, "steps": 2}},
			{"trigger-sampling-request", map[string]any{"prompt": "hi", "maxTokens": 10}},
			{"trigger-elicitation-request", map[string]any{}},
			{"get-sum", map[string]any{"a": "not a number"}},
			{"no-such-tool", map[string]any{}},
		}},
		{"filesystem", func(dir string) []string {
			return []string{node, filepath.Join(modules, "server-filesystem/dist/index.js"), dir}
		}, []referenceCall{
			{"list_allowed_directories", map[string]any{}},
			{"write_file", map[string]any{"path": "DIR/a.txt", "content": "one\ntwo\n"}},
			{"create_directory", map[string]any{"path": "DIR/sub"}},
			{"edit_file", map[string]any{"path": "DIR/a.txt", "edits": []any{map[string]any{"oldText": "two", "newText": "three"}}}},
			{"read_text_file", map[string]any{"path": "DIR/a.txt"}},
			{"list_directory", map[string]any{"path": "DIR"}},
			{"search_files", map[string]any{"path": "DIR", "pattern": "*.txt"}},
			{"get_file_info", map[string]any{"path": "DIR/a.txt"}},
			{"read_text_file", map[string]any{"path": "/etc/passwd"}},
			{"move_file", map[string]any{"source": "DIR/a.txt", "destination": "DIR/sub/b.txt"}},
			{"directory_tree", map[string]any{"path": "DIR"}},
		}},
		{"memory", func(string) []string {
			return []string{node, filepath.Join(modules, "server-memory/dist/index.js")}
		}, []referenceCall{
			{"create_entities", map[string]any{"entities": []any{map[string]any{"name": "Ada", "entityType": "person", "observations": []any{"wrote programs"}}}}},
			{"create_relations", map[string]any{"relations": []any{map[string]any{"from": "Ada", "to": "Ada", "relationType": "knows"}}}},
			{"add_observations", map[string]any{"observations": []any{map[string]any{"entityName": "Ada", "contents": []any{"liked engines"}}}}},
			{"search_nodes", map[string]any{"query": "engines"}},
			{"read_graph", map[string]any{}},
			{"delete_entities", map[string]any{"entityNames": []any{"Ada"}}},
			{"read_graph", map[string]any{}},
		}},
	}
	for _, srv := range servers {
		t.Run(srv.name, func(t *testing.T) {
			session := func(proxied bool) string {
				dir := t.TempDir()
				dir, _ = filepath.EvalSymlinks(dir)
				t.Setenv("MEMORY_FILE_PATH", filepath.Join(dir, "memory.jsonl"))
				calls := make([]referenceCall, len(srv.calls))
				for i, c := range srv.calls {
					b, _ := json.Marshal(c.args)
					var args map[string]any
					_ = json.Unmarshal([]byte(strings.ReplaceAll(string(b), "DIR", dir)), &args)
					calls[i] = referenceCall{c.tool, args}
				}
				var mu sync.Mutex
				var notes []string
				progress := func() []string { mu.Lock(); defer mu.Unlock(); return notes }
				if !proxied {
					client := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "0.1"}, clientOptions(func(s string) {
						if strings.HasPrefix(s, "progress") {
							mu.Lock()
							notes = append(notes, s)
							mu.Unlock()
						}
					}))
					argv := srv.argv(dir)
					s, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: exec.Command(argv[0], argv[1:]...)}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
					if err != nil {
						t.Fatal(err)
					}
					defer func() { _ = s.Close() }()
					return normalise(referenceTranscript(t, s, calls, progress), dir)
				}
				px := startProxied(t, srv.argv(dir), Options{}, "2025-11-25")
				got := referenceTranscript(t, px.session, calls, func() []string {
					px.mu.Lock()
					defer px.mu.Unlock()
					var out []string
					for _, n := range px.notes {
						if strings.HasPrefix(n, "progress") {
							out = append(out, n)
						}
					}
					return out
				})
				events := px.stop(t)
				if n := strings.Count(events, `"type":"tool_call"`); n != len(calls) {
					t.Errorf("%d tool_call events for %d calls", n, len(calls))
				}
				return normalise(got, dir)
			}
			want, got := session(false), session(true)
			if got != want {
				t.Errorf("through the proxy:\n%s\n\ndirect:\n%s", got, want)
			}
			if strings.Count(want, " error: ") > 2 {
				t.Errorf("the transcript is mostly errors; the server was not exercised:\n%s", want)
			}
		})
	}
}
