package demo

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

const maxTodos = 1000

type todo struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Completed   bool   `json:"completed"`
	CreatedAt   string `json:"createdAt"`
	UpdatedAt   string `json:"updatedAt"`
}

const todoProps = `{
      "id": {"type": "string", "format": "uuid"},
      "title": {"type": "string"},
      "description": {"type": "string"},
      "completed": {"type": "boolean"},
      "createdAt": {"type": "string", "format": "date-time"},
      "updatedAt": {"type": "string", "format": "date-time"}
    },
    "required": ["id", "title", "description", "completed", "createdAt", "updatedAt"],
    "additionalProperties": false`

const todoOutput = `{
  "type": "object",
  "properties": ` + todoProps + `
}`

const idInput = `{
  "type": "object",
  "properties": {
    "id": {"type": "string", "format": "uuid", "description": "The todo's id"}
  },
  "required": ["id"],
  "additionalProperties": false
}`

const listTodosInput = `{
  "type": "object",
  "properties": {
    "completed": {"type": "boolean", "description": "Only todos with this status; all if omitted"},
    "query": {"type": "string", "description": "Case-insensitive text to look for in title and description"},
    "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 50},
    "offset": {"type": "integer", "minimum": 0, "default": 0}
  },
  "additionalProperties": false
}`

const listTodosOutput = `{
  "type": "object",
  "properties": {
    "items": {"type": "array", "items": {"$ref": "#/$defs/Todo"}},
    "total": {"type": "integer", "description": "Matching todos before pagination"},
    "nextOffset": {"type": "integer", "description": "Offset of the next page; absent on the last page"}
  },
  "required": ["items", "total"],
  "additionalProperties": false,
  "$defs": {
    "Todo": {
      "type": "object",
      "properties": ` + todoProps + `
    }
  }
}`

const createTodoInput = `{
  "type": "object",
  "properties": {
    "title": {"type": "string", "minLength": 1, "maxLength": 500},
    "description": {"type": "string", "maxLength": 5000},
    "completed": {"type": "boolean", "default": false}
  },
  "required": ["title"],
  "additionalProperties": false
}`

const updateTodoInput = `{
  "type": "object",
  "properties": {
    "id": {"type": "string", "format": "uuid"},
    "title": {"type": "string", "minLength": 1, "maxLength": 500},
    "description": {"type": "string", "maxLength": 5000},
    "completed": {"type": "boolean"}
  },
  "required": ["id"],
  "additionalProperties": false
}`

const deleteTodoOutput = `{
  "type": "object",
  "properties": {
    "deleted": {"type": "boolean"},
    "id": {"type": "string"}
  },
  "required": ["deleted", "id"],
  "additionalProperties": false
}`

const clearCompletedOutput = `{
  "type": "object",
  "properties": {
    "deletedCount": {"type": "integer"}
  },
  "required": ["deletedCount"],
  "additionalProperties": false
}`

func (st *state) addTodoTools(s *server.MCPServer) {
	st.add(s, tool("list_todos", "List Todos",
		"List todo items, newest last. Filter by completion status or by text in the title and description; page with limit and offset.",
		listTodosInput, listTodosOutput, hints("List Todos", true, false, true)), st.listTodos)
	st.add(s, tool("get_todo", "Get Todo",
		"Get one todo item by its id.",
		idInput, todoOutput, hints("Get Todo", true, false, true)), st.getTodo)
	st.add(s, tool("create_todo", "Create Todo",
		"Create a todo item. Returns it with its new id.",
		createTodoInput, todoOutput, hints("Create Todo", false, false, false)), st.createTodo)
	st.add(s, tool("update_todo", "Update Todo",
		"Change the title, description or completion status of a todo item. Fields left out keep their value.",
		updateTodoInput, todoOutput, hints("Update Todo", false, true, true)), st.updateTodo)
	st.add(s, tool("delete_todo", "Delete Todo",
		"Delete a todo item by its id. This cannot be undone.",
		idInput, deleteTodoOutput, hints("Delete Todo", false, true, true)), st.deleteTodo)
	st.add(s, tool("clear_completed", "Clear Completed Todos",
		"Delete every completed todo item. Returns how many were deleted.",
		`{"type": "object", "properties": {}, "additionalProperties": false}`,
		clearCompletedOutput, hints("Clear Completed Todos", false, true, true)), st.clearCompleted)
}

func (st *state) stamp() string { return st.now().UTC().Format(time.RFC3339) }

// newID makes a version 4 UUID from the server's seeded generator.
func (st *state) newID() string {
	var b [16]byte
	for i := 0; i < 16; i += 8 {
		v := st.rng.Uint64()
		for j := range 8 {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// find returns the index of a todo; st.mu must be held.
func (st *state) find(id string) int {
	return slices.IndexFunc(st.todos, func(t *todo) bool { return t.ID == id })
}

func (st *state) listTodos(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		Completed *bool  `json:"completed"`
		Query     string `json:"query"`
		Limit     *int   `json:"limit"`
		Offset    int    `json:"offset"`
	}
	if err := bind(req, &a); err != nil {
		return toolErr("%v", err)
	}
	limit := 50
	if a.Limit != nil {
		limit = *a.Limit
	}
	if limit < 1 || limit > 100 || a.Offset < 0 {
		return toolErr("limit must be 1-100 and offset at least 0")
	}
	q := strings.ToLower(a.Query)
	st.mu.Lock()
	var match []todo
	for _, t := range st.todos {
		if a.Completed != nil && t.Completed != *a.Completed {
			continue
		}
		if q != "" && !strings.Contains(strings.ToLower(t.Title+"\n"+t.Description), q) {
			continue
		}
		match = append(match, *t)
	}
	st.mu.Unlock()
	out := struct {
		Items      []todo `json:"items"`
		Total      int    `json:"total"`
		NextOffset *int   `json:"nextOffset,omitempty"`
	}{Items: []todo{}, Total: len(match)}
	if a.Offset < len(match) {
		end := min(len(match), a.Offset+limit)
		out.Items = match[a.Offset:end]
		if end < len(match) {
			out.NextOffset = &end
		}
	}
	return result(out)
}

func (st *state) getTodo(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		ID string `json:"id"`
	}
	if err := bind(req, &a); err != nil {
		return toolErr("%v", err)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	i := st.find(a.ID)
	if i < 0 {
		return toolErr("todo %q not found", a.ID)
	}
	return result(*st.todos[i])
}

func (st *state) createTodo(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		Title       string `json:"title"`
		Description string `json:"description"`
		Completed   bool   `json:"completed"`
	}
	if err := bind(req, &a); err != nil {
		return toolErr("%v", err)
	}
	if strings.TrimSpace(a.Title) == "" {
		return toolErr("title must not be blank")
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.todos) >= maxTodos {
		return toolErr("the demo keeps at most %d todos; delete some first", maxTodos)
	}
	now := st.stamp()
	t := &todo{ID: st.newID(), Title: a.Title, Description: a.Description, Completed: a.Completed, CreatedAt: now, UpdatedAt: now}
	st.todos = append(st.todos, t)
	return result(*t)
}

func (st *state) updateTodo(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		ID          string  `json:"id"`
		Title       *string `json:"title"`
		Description *string `json:"description"`
		Completed   *bool   `json:"completed"`
	}
	if err := bind(req, &a); err != nil {
		return toolErr("%v", err)
	}
	if a.Title == nil && a.Description == nil && a.Completed == nil {
		return toolErr("nothing to update: give title, description or completed")
	}
	if a.Title != nil && strings.TrimSpace(*a.Title) == "" {
		return toolErr("title must not be blank")
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	i := st.find(a.ID)
	if i < 0 {
		return toolErr("todo %q not found", a.ID)
	}
	t := st.todos[i]
	changed := false
	if a.Title != nil && *a.Title != t.Title {
		t.Title, changed = *a.Title, true
	}
	if a.Description != nil && *a.Description != t.Description {
		t.Description, changed = *a.Description, true
	}
	if a.Completed != nil && *a.Completed != t.Completed {
		t.Completed, changed = *a.Completed, true
	}
	if changed {
		t.UpdatedAt = st.stamp()
	}
	return result(*t)
}

func (st *state) deleteTodo(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct {
		ID string `json:"id"`
	}
	if err := bind(req, &a); err != nil {
		return toolErr("%v", err)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	i := st.find(a.ID)
	if i < 0 {
		return toolErr("todo %q not found", a.ID)
	}
	st.todos = slices.Delete(st.todos, i, i+1)
	return result(struct {
		Deleted bool   `json:"deleted"`
		ID      string `json:"id"`
	}{true, a.ID})
}

func (st *state) clearCompleted(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a struct{}
	if err := bind(req, &a); err != nil {
		return toolErr("%v", err)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	before := len(st.todos)
	st.todos = slices.DeleteFunc(st.todos, func(t *todo) bool { return t.Completed })
	return result(struct {
		DeletedCount int `json:"deletedCount"`
	}{before - len(st.todos)})
}

func (st *state) seedTodos() {
	now := st.stamp()
	for _, t := range []struct {
		title, desc string
		done        bool
	}{
		{"Read the MCP-Term draft", "docs/mcp-term.md, then try mcpterm convert on a real tool list", true},
		{"Try a batch call", "(batch (1 (list_todos)) (2 (file_read \"/etc/hosts\")))", false},
		{"Compare token counts", "mcpterm tokens on the demo server and on server-everything", false},
	} {
		st.todos = append(st.todos, &todo{ID: st.newID(), Title: t.title, Description: t.desc, Completed: t.done, CreatedAt: now, UpdatedAt: now})
	}
}
