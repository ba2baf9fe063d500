package report

import (
	"fmt"
	"sort"
	"strings"
)

// unknownArgsLabel introduces the calls whose arguments the trace does not
// record. Unknown arguments are never equal to any, so the duplicate and
// re-send rates cannot see these calls; the reader is told how many there
// are rather than left to read those rates as clean.
const unknownArgsLabel = "calls with unknown arguments (never counted as re-sends or duplicates)"

// unknownArgsList is "tool n, tool n" in tool order, each name passed
// through esc (the format's own escaping of untrusted strings), or "" when
// no call has unknown arguments, so reports of traces that record them
// all do not change.
func unknownArgsList(perTool map[string]int64, esc func(string) string) string {
	tools := make([]string, 0, len(perTool))
	for t, n := range perTool {
		if n > 0 {
			tools = append(tools, t)
		}
	}
	sort.Strings(tools)
	parts := make([]string, len(tools))
	for i, t := range tools {
		parts[i] = fmt.Sprintf("%s %d", esc(t), perTool[t])
	}
	return strings.Join(parts, ", ")
}

// unknownArgsSentence is the label and list as a sentence, for the review
// documents (Markdown, HTML); list is already escaped for its format.
func unknownArgsSentence(list string) string {
	return strings.ToUpper(unknownArgsLabel[:1]) + unknownArgsLabel[1:] + ": " + list + "."
}
