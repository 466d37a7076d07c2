package term

import (
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// resolvePointer follows a local reference ("#", "#/$defs/X", any JSON
// pointer) within root. It returns the target and the canonical pointer.
func resolvePointer(root *ojson.Value, ref string) (*ojson.Value, string, bool) {
	if !strings.HasPrefix(ref, "#") {
		return nil, "", false
	}
	frag := ref[1:]
	if strings.Contains(frag, "%") {
		dec, ok := percentDecode(frag)
		if !ok {
			return nil, "", false
		}
		frag = dec
	}
	if frag == "" {
		return root, "", true
	}
	if frag[0] != '/' {
		return nil, "", false
	}
	cur := root
	for _, seg := range strings.Split(frag[1:], "/") {
		seg = unescapePointer(seg)
		switch cur.Kind {
		case ojson.Object:
			next := cur.Get(seg)
			if next == nil {
				return nil, "", false
			}
			cur = next
		case ojson.Array:
			i, ok := atoi(seg)
			if !ok || i >= len(cur.Items) {
				return nil, "", false
			}
			cur = cur.Items[i]
		default:
			return nil, "", false
		}
	}
	if cur.Kind != ojson.Object && cur.Kind != ojson.Bool {
		return nil, "", false
	}
	return cur, frag, true
}

func atoi(s string) (int, bool) {
	if s == "" || len(s) > 9 || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

func percentDecode(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		h, l := unhex(s[i+1]), unhex(s[i+2])
		if h < 0 || l < 0 {
			return "", false
		}
		b.WriteByte(byte(h<<4 | l))
		i += 2
	}
	return b.String(), true
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func unescapePointer(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
}

func escapePointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}
