package ingest

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// The contract's shape for the key/type scan (keyscan.go): every object's
// keys and the JSON type of each, generated from CanonicalArrowSchema.

// fieldKind is the JSON type a contract field takes.
type fieldKind uint8

const (
	kindString fieldKind = iota
	kindInteger
	kindBoolean
	kindObject
	kindStrings
)

// shape is one contract object: its keys, their kinds and the shapes of
// the objects among them. byLen lists the indices of the keys of each
// length, so that a key is found by a few byte comparisons.
type shape struct {
	names []string
	kinds []fieldKind
	subs  []*shape
	byLen [][]int
	ts    []bool // the top level's: the timestamps ingest.checked's regexes judge
}

// contractShape is the contract's top-level object, built once.
var contractShape = sync.OnceValue(func() *shape {
	sh := shapeOf(CanonicalArrowSchema.Fields())
	sh.ts = make([]bool, len(sh.names))
	for _, name := range ruleTimestampFields {
		sh.ts[sh.find([]byte(name))] = true
	}
	return sh
})

func shapeOf(fs []arrow.Field) *shape {
	sh := &shape{}
	for i, f := range fs {
		kind, sub := kindString, (*shape)(nil)
		switch f.Type.ID() {
		case arrow.INT64:
			kind = kindInteger
		case arrow.BOOL:
			kind = kindBoolean
		case arrow.LIST:
			kind = kindStrings
		case arrow.STRUCT:
			kind, sub = kindObject, shapeOf(f.Type.(*arrow.StructType).Fields())
		}
		sh.names, sh.kinds, sh.subs = append(sh.names, f.Name), append(sh.kinds, kind), append(sh.subs, sub)
		for len(sh.byLen) <= len(f.Name) {
			sh.byLen = append(sh.byLen, nil)
		}
		sh.byLen[len(f.Name)] = append(sh.byLen[len(f.Name)], i)
	}
	return sh
}

// find is the index of key in sh, or -1.
func (sh *shape) find(key []byte) int {
	if len(key) >= len(sh.byLen) {
		return -1
	}
	for _, i := range sh.byLen[len(key)] {
		if string(key) == sh.names[i] {
			return i
		}
	}
	return -1
}
