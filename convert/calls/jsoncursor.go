package calls

import (
	"encoding/json"
	"strings"
)

// jsonCursor reads the text before the cursor of a half-written JSON call
// or AQL document in one pass: the objects and arrays still open, the
// members each object has so far, and the word at the cursor with its role
// (a key being written, or a value). It keeps what completion needs and no
// more; the document is read properly by Read once it is whole.
type jsonCursor struct {
	src     string
	frames  []jsonFrame  // open containers, outermost first
	members []jsonMember // the members of the open objects, frame after frame
	word    string       // the string or literal being typed ("" for none)
	start   int          // where the word starts
	role    jsonRole
}

type jsonRole uint8

const (
	roleNone  jsonRole = iota // nothing goes at the cursor (after a key, between members, ...)
	roleKey                   // an object's key
	roleValue                 // a value: a member's (frames' last key) or an array element
)

// Where an open container is between its items.
const (
	wantKey   uint8 = iota // an object's key (after '{' or ',')
	wantColon              // the ':' after a key
	wantValue              // a value (after ':', '[' or an array's ',')
	wantNext               // ',' or the close
)

type jsonFrame struct {
	obj     bool
	state   uint8
	key     string   // obj: the key of the member being written
	keyAt   [2]int32 // and where it stands
	via     string   // the key of the member this container is the value of; "" in an array or at the top
	inArray bool     // the container is an element of an array
	first   int      // where its members start in jsonCursor.members
	c       *jsonCursor
}

// jsonMember is a member an object has so far, with its value when that
// was a string, both as the offsets of their JSON strings (quotes
// included): no pointers, so the slice grows without the collector's help.
type jsonMember struct {
	key, str [2]int32
	isStr    bool
}

func (c *jsonCursor) text(at [2]int32) string { return jsonString(c.src[at[0]:at[1]]) }

// keyIn is the member's key, decoded.
func (m jsonMember) keyIn(c *jsonCursor) string { return c.text(m.key) }

// members are the members an object has so far. Those of the objects
// inside it are gone once they close, so each open object's are together.
func (f *jsonFrame) members() []jsonMember {
	c := f.c
	for i := range c.frames {
		if &c.frames[i] == f && i+1 < len(c.frames) {
			return c.members[f.first:c.frames[i+1].first]
		}
	}
	return c.members[f.first:]
}

func (f *jsonFrame) str(key string) (string, bool) {
	for _, m := range f.members() {
		if m.isStr && m.keyIn(f.c) == key {
			return f.c.text(m.str), true
		}
	}
	return "", false
}

func (f *jsonFrame) has(key string) bool {
	for _, m := range f.members() {
		if m.keyIn(f.c) == key {
			return true
		}
	}
	return false
}

func scanJSON(src string) *jsonCursor {
	c := &jsonCursor{src: src, start: len(src), members: make([]jsonMember, 0, 32)}
	top := func() *jsonFrame {
		if len(c.frames) == 0 {
			return nil
		}
		return &c.frames[len(c.frames)-1]
	}
	// value records that a value was written in the open container, and
	// where, when it is a string.
	value := func(str [2]int32, isStr bool) {
		if f := top(); f != nil {
			if f.obj && f.state == wantValue {
				c.members = append(c.members, jsonMember{key: f.keyAt, str: str, isStr: isStr})
			}
			f.state = wantNext
		}
	}
	i := bodyStart(src)
	for i < len(src) {
		b := src[i]
		switch b {
		case ' ', '\t', '\n', '\r':
			i++
		case '{', '[':
			f := jsonFrame{obj: b == '{', state: wantKey, first: len(c.members), c: c}
			if b == '[' {
				f.state = wantValue
			}
			if p := top(); p != nil {
				if p.obj {
					f.via = p.key
				} else {
					f.inArray = true
				}
			}
			c.frames = append(c.frames, f)
			i++
		case '}', ']':
			if n := len(c.frames); n > 0 {
				c.members = c.members[:c.frames[n-1].first]
				c.frames = c.frames[:n-1]
				value([2]int32{}, false)
			}
			i++
		case ',':
			if f := top(); f != nil {
				f.state = wantValue
				if f.obj {
					f.state = wantKey
				}
			}
			i++
		case ':':
			if f := top(); f != nil && f.state == wantColon {
				f.state = wantValue
			}
			i++
		case '"':
			end, closed := jsonStringEnd(src, i)
			if !closed {
				c.word, c.start = src[i:], i
				c.role = c.roleHere()
				return c
			}
			at := [2]int32{int32(i), int32(end)}
			if f := top(); f != nil && f.obj && f.state == wantKey {
				f.key, f.keyAt, f.state = jsonString(src[i:end]), at, wantColon
			} else {
				value(at, true)
			}
			if end == len(src) { // a string just closed is the word still
				c.word, c.start = src[i:], i
				c.role = roleNone
				if f := top(); f != nil {
					if f.state == wantColon {
						f.state, c.role = wantKey, roleKey
						f.key = ""
					} else if f.state == wantNext {
						f.state, c.role = wantValue, roleValue
						if f.obj && len(c.members) > f.first {
							c.members = c.members[:len(c.members)-1]
						}
					}
				}
				return c
			}
			i = end
		default:
			j := i
			for j < len(src) && !jsonDelim[src[j]] {
				j++
			}
			if j == len(src) {
				c.word, c.start = src[i:], i
				c.role = c.roleHere()
				return c
			}
			value([2]int32{}, false)
			i = j
		}
	}
	c.role = c.roleHere()
	return c
}

// jsonDelim ends a literal (true, 12, a stray word).
var jsonDelim = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, '{': true, '}': true, '[': true, ']': true, ',': true, ':': true, '"': true}

// bodyStart is where the document starts, past the white space and the ;
// comment lines that may precede any call (as aqlBody skips them).
func bodyStart(src string) int {
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case ' ', '\t', '\r', '\n', '\f', '\v':
		case ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		default:
			return i
		}
	}
	return len(src)
}

// roleHere is what goes where the innermost container stands.
func (c *jsonCursor) roleHere() jsonRole {
	if len(c.frames) == 0 {
		return roleNone
	}
	switch c.frames[len(c.frames)-1].state {
	case wantKey:
		return roleKey
	case wantValue:
		return roleValue
	}
	return roleNone
}

// jsonStringEnd finds the end of the JSON string that starts at src[i].
func jsonStringEnd(src string, i int) (int, bool) {
	j := i + 1
	for {
		k := strings.IndexByte(src[j:], '"')
		if k < 0 {
			return len(src), false
		}
		b := strings.IndexByte(src[j:j+k], '\\')
		if b < 0 {
			return j + k + 1, true
		}
		j += b + 2 // past the escaped character
		if j > len(src) {
			return len(src), false
		}
	}
}

// jsonString decodes a closed JSON string; one it cannot decode stands as
// written.
func jsonString(raw string) string {
	if strings.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1]
	}
	var s string
	if json.Unmarshal([]byte(raw), &s) != nil {
		return raw[1 : len(raw)-1]
	}
	return s
}
