package ui

import "testing"

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
