package proxy

import (
	"bufio"
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"
)

// echoUpstream is a scripted server: it keeps every message it is sent and
// answers each request whose id it knows with a canned line, sending the
// lines of before first.
type echoUpstream struct {
	mu      sync.Mutex
	got     []string
	answers map[string][]string // request id -> lines to send
	msgs    chan []byte
}

func (u *echoUpstream) Send(msg []byte) {
	u.mu.Lock()
	u.got = append(u.got, string(msg))
	u.mu.Unlock()
	env, ok := parseEnvelope(msg)
	if !ok || env.ID == nil {
		return
	}
	for _, l := range u.answers[idKey(env.ID)] {
		u.msgs <- []byte(l)
	}
}
func (u *echoUpstream) Messages() <-chan []byte { return u.msgs }
func (u *echoUpstream) Restart() error          { return nil }
func (u *echoUpstream) Close() error            { close(u.msgs); return nil }
func (u *echoUpstream) Signal(os.Signal)        {}

// TestBytesPassThrough: without a plan every message passes in both
// directions as the bytes it arrived as: odd spacing and key order, unicode
// escapes, unknown methods and notifications, batches, server requests
// (sampling, elicitation, roots) and the client's answers to them, errors,
// cancellation, progress, list_changed.
func TestBytesPassThrough(t *testing.T) {
	client := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{"sampling":{},"roots":{"listChanged":true}},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{ "method" : "notifications/initialized" , "jsonrpc":"2.0" }`,
		`{"jsonrpc":"2.0","id":"s-7","method":"vendor/unknownThing","params":{"x":"\u00e9\u2028","n":1.50}}`,
		`[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}]`,
		`{"jsonrpc":"2.0","id":"srv-1","result":{"model":"m","role":"assistant","content":{"type":"text","text":"ok"}}}`,
		`{"jsonrpc":"2.0","id":"srv-2","error":{"code":-1,"message":"user declined"}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4,"reason":"changed my mind"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"b":1,"a":[true,null]},"_meta":{"progressToken":"p1"}}}`,
		`not json at all`,
	}
	server := map[string][]string{
		`1`: {`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-03-26","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"s","version":"1"}}}`},
		`"s-7"`: {
			`{"jsonrpc":"2.0","id":"srv-1","method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}`,
			`{"jsonrpc":"2.0","id":"srv-2","method":"elicitation/create","params":{"message":"sure?","requestedSchema":{"type":"object"}}}`,
			`{"jsonrpc":"2.0","id":"srv-3","method":"roots/list"}`,
			`{"jsonrpc":"2.0","id":"s-7","error":{"code":-32601,"message":"Method not found","data":{"method":"vendor/unknownThing"}}}`,
		},
		`5`: {
			`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1,"total":2}}`,
			`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`,
			`{"jsonrpc":"2.0","method":"vendor/unknownNotification","params":{}}`,
			`{"id":5,"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"hi"}],"extra":{"kept":true}}}`,
			`[{"jsonrpc":"2.0","id":3,"result":{}}]`,
		},
	}
	up := &echoUpstream{answers: server, msgs: make(chan []byte, 64)}
	var out bytes.Buffer
	var events bytes.Buffer
	err := New(Options{SessionID: "s", Events: &events}).Serve(strings.NewReader(strings.Join(client, "\n")+"\n"), &out, up)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(up.got, "\n"); got != strings.Join(client, "\n") {
		t.Errorf("the server got:\n%s\nwant:\n%s", got, strings.Join(client, "\n"))
	}
	var want []string
	for _, id := range []string{`1`, `"s-7"`, `5`} {
		want = append(want, server[id]...)
	}
	var got []string
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		got = append(got, sc.Text())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the client got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := strings.Count(events.String(), `"type":"tool_call"`); n != 1 {
		t.Errorf("%d tool_call events, want 1:\n%s", n, events.String())
	}
}
