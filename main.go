// Command faultlens reads the traces that AI agents write and tells the truth
// about their runs. See README.md.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/charmbracelet/x/term"

	"github.com/faultlens/faultlens/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Run(ctx, os.Args[1:], cli.Streams{
		In: os.Stdin, Out: os.Stdout, Err: os.Stderr,
		OutTTY: term.IsTerminal(os.Stdout.Fd()),
		ErrTTY: term.IsTerminal(os.Stderr.Fd()),
	})
	stop()
	os.Exit(code)
}
