package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// stripJSONC turns JSON with comments and trailing commas (VS Code's "JSONC")
// into plain JSON of the same length: comments and the offending commas
// become spaces, newlines stay, so decoder offsets still point at the right
// line and column of the original file.
func stripJSONC(src []byte) []byte {
	out := bytes.Clone(src)
	// a UTF-8 byte order mark is allowed by VS Code, not by encoding/json
	if bytes.HasPrefix(out, []byte("\xef\xbb\xbf")) {
		out[0], out[1], out[2] = ' ', ' ', ' '
	}
	blank := func(from, to int) {
		for k := from; k < to; k++ {
			if out[k] != '\n' && out[k] != '\r' {
				out[k] = ' '
			}
		}
	}
	lastComma := -1 // offset of a comma not yet followed by a value
	for i := 0; i < len(out); i++ {
		switch c := out[i]; c {
		case '"':
			lastComma = -1
			i++
			for i < len(out) && out[i] != '"' {
				if out[i] == '\\' {
					i++
				}
				i++
			}
		case '/':
			if i+1 < len(out) && out[i+1] == '/' {
				j := i
				for j < len(out) && out[j] != '\n' {
					j++
				}
				blank(i, j)
				i = j - 1
			} else if i+1 < len(out) && out[i+1] == '*' {
				j := bytes.Index(out[i+2:], []byte("*/"))
				if j < 0 {
					return out // unterminated comment: let the decoder report it
				}
				end := i + 2 + j + 2
				blank(i, end)
				i = end - 1
			} else {
				lastComma = -1
			}
		case ',':
			lastComma = i
		case '}', ']':
			if lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma = -1
		case ' ', '\t', '\n', '\r':
		default:
			lastComma = -1
		}
	}
	return out
}

// positioned turns a JSON decoding error into one that says line and column.
func positioned(path string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	off := int64(-1)
	msg := err.Error()
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
		if off > 0 && off <= int64(len(data)) && msg != "unexpected end of JSON input" {
			off-- // Offset is just past the offending byte
		}
	case errors.As(err, &typ):
		off = typ.Offset
		msg = fmt.Sprintf("%s is a JSON %s, want %s", orTop(typ.Field), typ.Value, typ.Type)
	}
	if off < 0 || off > int64(len(data)) {
		return fmt.Errorf("config: %s: %s", path, msg)
	}
	line, col := 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Errorf("config: %s:%d:%d: %s", path, line, col, msg)
}

func orTop(field string) string {
	if field == "" {
		return "the top level"
	}
	return field
}
