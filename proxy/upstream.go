package proxy

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
)

// Upstream is the MCP server side of the proxy.
type Upstream interface {
	// Send queues one message to the server.
	Send(msg []byte)
	// Messages delivers the server's messages; it is closed when the
	// server has gone for good.
	Messages() <-chan []byte
	// Restart stops the server and starts it again; messages sent after it
	// go to the new one.
	Restart() error
	// Close ends the server's input and waits for it to exit.
	Close() error
	// Signal passes a signal on to the server.
	Signal(sig os.Signal)
}

// Child is an MCP server run as a child process speaking stdio.
type Child struct {
	argv   []string
	stderr io.Writer
	msgs   chan []byte

	mu      sync.Mutex
	gen     int // bumped by Restart, so the old process's reader leaves msgs open
	cmd     *exec.Cmd
	in      *outbox
	reader  chan struct{} // closed when a replaced process's reader has finished
	exitErr error
}

// StartChild starts argv as the upstream server; its stderr goes to stderr.
func StartChild(argv []string, stderr io.Writer) (*Child, error) {
	if len(argv) == 0 {
		return nil, errors.New("no server command given (after --)")
	}
	c := &Child{argv: argv, stderr: stderr, msgs: make(chan []byte, 64)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.start(); err != nil {
		return nil, err
	}
	return c, nil
}

// start runs a new process of the command; c.mu is held.
func (c *Child) start() error {
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Stderr = c.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("start %s: %w", c.argv[0], err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("start %s: %w", c.argv[0], err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", c.argv[0], err)
	}
	c.cmd, c.in, c.reader = cmd, newOutbox(stdin, stdin.Close), make(chan struct{})
	go c.read(c.gen, cmd, stdout, c.reader)
	return nil
}

// read forwards the lines of one process's stdout. When that process ends
// and was not replaced by Restart, the server has gone: Messages closes.
func (c *Child) read(gen int, cmd *exec.Cmd, stdout io.Reader, done chan struct{}) {
	br := bufio.NewReaderSize(stdout, 64<<10)
	for {
		b, err := br.ReadBytes('\n')
		if t := bytes.TrimRight(b, "\r\n"); len(bytes.TrimSpace(t)) > 0 {
			c.msgs <- t
		}
		if err != nil {
			break
		}
	}
	err := cmd.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		close(done)
		return
	}
	c.exitErr = err
	close(c.msgs)
}

// Send implements Upstream.
func (c *Child) Send(msg []byte) {
	c.mu.Lock()
	in := c.in
	c.mu.Unlock()
	in.push(msg)
}

// Messages implements Upstream.
func (c *Child) Messages() <-chan []byte { return c.msgs }

// Restart implements Upstream: the old process is killed (a crash, not a
// shutdown) and a new one started from the same command.
func (c *Child) Restart() error {
	c.mu.Lock()
	old, in, done := c.cmd, c.in, c.reader
	c.gen++
	c.mu.Unlock()
	in.close()
	_ = old.Process.Kill()
	<-done
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.start()
}

// Close implements Upstream: the server's stdin is closed once everything
// queued is written; the server is expected to exit on that EOF.
func (c *Child) Close() error {
	c.mu.Lock()
	in := c.in
	c.mu.Unlock()
	in.close()
	return in.wait()
}

// ExitErr is the server's exit status once Messages has closed.
func (c *Child) ExitErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.exitErr
}

// Signal implements Upstream.
func (c *Child) Signal(sig os.Signal) {
	c.mu.Lock()
	p := c.cmd.Process
	c.mu.Unlock()
	_ = p.Signal(sig)
}
