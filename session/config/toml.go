package config

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// addTOML adds the servers of a Codex config.toml, its [mcp_servers.NAME]
// tables, turned into the JSON values every other file gives (so resolve,
// the expander and the secrets rules are the same for them). The file is
// read with github.com/BurntSushi/toml: TOML 1.0, no dependencies, errors
// with line and column, and the keys in file order (MetaData.Keys), which a
// Go map loses.
func (s *Set) addTOML(src Source, data []byte, dir string) error {
	var top map[string]any
	md, err := toml.Decode(string(data), &top)
	if err != nil {
		return tomlError(src.Path, err)
	}
	raw, ok := top["mcp_servers"]
	if !ok {
		if src.Scope != "" {
			return nil // a discovered Codex config without servers is normal
		}
		return fmt.Errorf("config: %s: has no [mcp_servers.NAME] table (is this a Codex config file?)", src.Path)
	}
	tbl, ok := raw.(map[string]any)
	if !ok {
		return fmt.Errorf("config: %s: mcp_servers is a TOML %s, want tables [mcp_servers.NAME]", src.Path, tomlKind(raw))
	}
	var names []string
	seen := map[string]bool{}
	for _, k := range md.Keys() {
		if len(k) >= 2 && k[0] == "mcp_servers" && !seen[k[1]] {
			if _, ok := tbl[k[1]]; ok {
				seen[k[1]] = true
				names = append(names, k[1])
			}
		}
	}
	var rest []string
	for name := range tbl {
		if !seen[name] {
			rest = append(rest, name)
		}
	}
	sort.Strings(rest)
	obj := ojson.NewObject()
	for _, name := range append(names, rest...) {
		obj.Set(name, fromTOML(tbl[name]))
	}
	return s.addServers(src, obj, dir, nil)
}

// fromTOML turns a decoded TOML value into JSON: tables into objects (keys
// sorted), arrays into arrays, dates and times into their TOML text.
func fromTOML(x any) *ojson.Value {
	switch v := x.(type) {
	case string:
		return ojson.NewString(v)
	case bool:
		return ojson.NewBool(v)
	case int64:
		return ojson.NewInt(v)
	case float64:
		return ojson.NewNumber(strconv.FormatFloat(v, 'g', -1, 64))
	case time.Time:
		return ojson.NewString(v.Format(time.RFC3339Nano))
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		obj := ojson.NewObject()
		for _, k := range keys {
			obj.Set(k, fromTOML(v[k]))
		}
		return obj
	case []map[string]any:
		arr := ojson.NewArray()
		for _, item := range v {
			arr.Items = append(arr.Items, fromTOML(item))
		}
		return arr
	case []any:
		arr := ojson.NewArray()
		for _, item := range v {
			arr.Items = append(arr.Items, fromTOML(item))
		}
		return arr
	case fmt.Stringer: // toml.LocalDate, LocalTime, LocalDatetime
		return ojson.NewString(v.String())
	}
	return ojson.NewString(fmt.Sprint(x))
}

// tomlKind names a decoded value's TOML type for an error.
func tomlKind(x any) string {
	switch x.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case int64:
		return "integer"
	case float64:
		return "float"
	case []any, []map[string]any:
		return "array"
	}
	return "value"
}

// tomlError says where a TOML file is broken as path:line:col.
func tomlError(path string, err error) error {
	var perr toml.ParseError
	if errors.As(err, &perr) {
		return fmt.Errorf("config: %s:%d:%d: %s", path, perr.Position.Line, perr.Position.Col, perr.Message)
	}
	return fmt.Errorf("config: %s: %v", path, err)
}
