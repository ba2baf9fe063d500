// Package textsafe makes untrusted strings from traces inert before they
// reach a terminal, a CSV file, Markdown or HTML.
//
// A trace records whatever an agent, a tool or a model emitted, so any
// string in it may carry terminal escape sequences (an OSC 52 clipboard
// write, a window-title change, cursor moves that repaint a report), bidi
// controls that reorder what a reader sees, spreadsheet formulas or Markdown
// that breaks a table. Every function here returns valid UTF-8 and returns
// its input unchanged, without allocating, when there is nothing to do.
//
// Terminal is the base layer; CSVCell, Markdown and HTML apply it first and
// then the escaping their format needs. None of them truncates: width is the
// formatter's business.
package textsafe
