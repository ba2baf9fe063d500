// Command faultlens reads the traces that AI agents write and tells the truth
// about their runs. See README.md.
package main

func main() {}
