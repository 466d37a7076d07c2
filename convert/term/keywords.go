package term

import "strings"

// kwClass tells how a JSON Schema keyword's value is written in MCP-Term:
// schemas become types, everything else is written as plain data.
type kwClass uint8

const (
	kwData      kwClass = iota // any JSON value, written as DATA
	kwSchema                   // one schema, written as a TYPE
	kwSchemaArr                // an array of schemas, written as (TYPE ...)
	kwSchemaMap                // an object of schemas, written as (KEY TYPE ...)
)

var keywordClass = map[string]kwClass{
	"items": kwSchema, "additionalItems": kwSchema, "contains": kwSchema,
	"additionalProperties": kwSchema, "propertyNames": kwSchema, "not": kwSchema,
	"if": kwSchema, "then": kwSchema, "else": kwSchema, "unevaluatedItems": kwSchema,
	"unevaluatedProperties": kwSchema, "contentSchema": kwSchema,
	"allOf": kwSchemaArr, "anyOf": kwSchemaArr, "oneOf": kwSchemaArr, "prefixItems": kwSchemaArr,
	"properties": kwSchemaMap, "patternProperties": kwSchemaMap, "dependentSchemas": kwSchemaMap,
}

func classOf(kw string) kwClass { return keywordClass[kw] }

// Keywords that only constrain one JSON type: on any other type they pass.
// Splitting a type array or an (opt T) relies on this.
var (
	stringKeywords = set("minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType", "contentSchema")
	numberKeywords = set("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
	arrayKeywords  = set("items", "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems",
		"contains", "minContains", "maxContains", "unevaluatedItems")
	objectKeywords = set("properties", "required", "additionalProperties", "patternProperties", "propertyNames",
		"minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "unevaluatedProperties")
	annotationKeywords = set("title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment")
)

func set(ks ...string) map[string]bool {
	m := make(map[string]bool, len(ks))
	for _, k := range ks {
		m[k] = true
	}
	return m
}

// appliesTo reports whether keyword kw constrains instances of JSON type t
// ("integer" counts as "number").
func appliesTo(kw, t string) bool {
	switch t {
	case "string":
		return stringKeywords[kw]
	case "number", "integer":
		return numberKeywords[kw]
	case "array":
		return arrayKeywords[kw]
	case "object":
		return objectKeywords[kw]
	}
	return false
}

func typeSpecific(kw string) bool {
	return stringKeywords[kw] || numberKeywords[kw] || arrayKeywords[kw] || objectKeywords[kw]
}

// leftOutKey reports schema keys that are not model-facing: they are counted
// in Document.LeftOut instead of being rendered.
func leftOutKey(k string) bool {
	return k == "$schema" || strings.HasPrefix(k, "x-")
}

// simpleTypes maps MCP-Term's bare type words to JSON Schema type names.
var simpleTypes = map[string]string{
	"string": "string", "number": "number", "integer": "integer", "bool": "boolean",
	"null": "null", "object": "object", "array": "array",
}

// typeWord is the inverse of simpleTypes.
var typeWord = map[string]string{
	"string": "string", "number": "number", "integer": "integer", "boolean": "bool",
	"null": "null", "object": "object", "array": "array",
}

// readerTypeAliases are further bare words the reader accepts, mostly from
// the original MCP-Term design notes.
var readerTypeAliases = map[string]string{
	"int": "integer", "boolean": "boolean", "float": "number", "keyword": "string",
	"str": "string", "map": "object", "list": "array",
}

// typeHeads are the symbols that start a type form. A parameter, property or
// deftype with one of these names is printed quoted so it never reads as a
// type form.
var typeHeads = set("or", "one", "all", "not", "opt", "const", "enum", "list", "tuple", "map", "rec",
	"tagged", "tagged-any", "json", "obj", "in", "input", "->", "declare", "deftype")

// reservedTypeNames cannot be deftype names.
var reservedTypeNames = set("string", "number", "integer", "bool", "null", "object", "array", "any",
	"never", "bytes", "int", "boolean", "float", "keyword", "str", "nil", "true", "false")
