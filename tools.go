//go:build tools

// This file pins the modules the project is built on before every package
// imports them, so parallel work never races on go.mod.
package main

import (
	_ "charm.land/bubbles/v2/key"
	_ "charm.land/bubbletea/v2"
	_ "charm.land/glamour/v2"
	_ "charm.land/lipgloss/v2"
	_ "github.com/alecthomas/chroma/v2"
	_ "github.com/charmbracelet/x/exp/teatest/v2"
	_ "github.com/mark3labs/mcp-go/client"
	_ "github.com/mark3labs/mcp-go/server"
	_ "github.com/pkoukk/tiktoken-go"
	_ "github.com/pkoukk/tiktoken-go-loader"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
)
