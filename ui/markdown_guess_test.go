package ui

import (
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

func TestLooksLikeMarkdown(t *testing.T) {
	cases := []struct {
		text string
		want bool
	}{
		{"# Static table lookup for hostnames.\n127.0.0.1\tlocalhost\n::1\tlocalhost", false},
		{"#!/bin/sh\necho hi", false},
		{"# Title\n\nSome text.\n\n- one\n- two", true},
		{"## Results\n| a | b |\n|---|---|", true},
		{"plain words with a [link](http://x) and **bold**", true},
		{"just one line of text", false},
		{"#hashtag and more #tags", false},
	}
	for _, c := range cases {
		if got := looksLikeMarkdown(c.text); got != c.want {
			t.Errorf("looksLikeMarkdown(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

func TestStructuredEchoesText(t *testing.T) {
	obj, _ := ojson.Parse([]byte(`{"id": 1, "title": "x"}`))
	text := func(s string) []contentBlock { return []contentBlock{{Type: "text", Text: s}} }
	if !structuredEchoesText(text(`{"title":"x","id":1}`), obj) {
		t.Error("the same object in another key order should count as an echo")
	}
	if structuredEchoesText(text(`{"id": 2, "title": "x"}`), obj) {
		t.Error("a different object is not an echo")
	}
	if structuredEchoesText(text("created todo 1"), obj) {
		t.Error("prose is not an echo")
	}
}
