package demo

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"
)

type todoList struct {
	Items      []todo `json:"items"`
	Total      int    `json:"total"`
	NextOffset *int   `json:"nextOffset"`
}

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestTodoLifecycle(t *testing.T) {
	now := fixedNow
	h := connect(t, Options{Now: func() time.Time { return now }})
	var before todoList
	h.ok("list_todos", `{}`, &before)
	if before.Total != 3 {
		t.Fatalf("seeded todos = %d, want 3", before.Total)
	}

	var created todo
	h.ok("create_todo", `{"title": "Write the report", "description": "Q2 numbers"}`, &created)
	if !uuidV4.MatchString(created.ID) {
		t.Errorf("id %q is not a UUIDv4", created.ID)
	}
	if created.Title != "Write the report" || created.Description != "Q2 numbers" || created.Completed ||
		created.CreatedAt != "2025-03-14T15:09:26Z" || created.UpdatedAt != created.CreatedAt {
		t.Errorf("created = %+v", created)
	}

	var got todo
	h.ok("get_todo", `{"id": "`+created.ID+`"}`, &got)
	if got != created {
		t.Errorf("get = %+v, want %+v", got, created)
	}

	now = now.Add(time.Hour)
	var updated todo
	h.ok("update_todo", `{"id": "`+created.ID+`", "completed": true}`, &updated)
	if !updated.Completed || updated.Title != created.Title || updated.UpdatedAt != "2025-03-14T16:09:26Z" || updated.CreatedAt != created.CreatedAt {
		t.Errorf("updated = %+v", updated)
	}
	// Same arguments again: nothing changes, not even updatedAt (idempotent).
	now = now.Add(time.Hour)
	var again todo
	h.ok("update_todo", `{"id": "`+created.ID+`", "completed": true}`, &again)
	if again != updated {
		t.Errorf("repeated update changed the todo: %+v", again)
	}

	var done todoList
	h.ok("list_todos", `{"completed": true}`, &done)
	if done.Total != 2 || done.Items[1].ID != created.ID {
		t.Errorf("completed list = %+v", done)
	}
	var found todoList
	h.ok("list_todos", `{"query": "q2 NUMBERS"}`, &found)
	if found.Total != 1 || found.Items[0].ID != created.ID {
		t.Errorf("query = %+v", found)
	}

	var del struct {
		Deleted bool
		ID      string
	}
	h.ok("delete_todo", `{"id": "`+created.ID+`"}`, &del)
	if !del.Deleted || del.ID != created.ID {
		t.Errorf("delete = %+v", del)
	}
	h.fails("get_todo", `{"id": "`+created.ID+`"}`, "not found")
	h.fails("delete_todo", `{"id": "`+created.ID+`"}`, "not found")
	var after todoList
	h.ok("list_todos", `{}`, &after)
	if after.Total != 3 {
		t.Errorf("after delete: %d todos", after.Total)
	}
}

func TestTodoPagination(t *testing.T) {
	h := connect(t, Options{})
	for i := range 12 {
		h.ok("create_todo", fmt.Sprintf(`{"title": "task %d"}`, i), nil)
	}
	var seen []string
	offset := 0
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("pagination does not end")
		}
		var page todoList
		h.ok("list_todos", `{"limit": 4, "offset": `+strconv.Itoa(offset)+`}`, &page)
		if page.Total != 15 {
			t.Fatalf("total = %d", page.Total)
		}
		for _, it := range page.Items {
			seen = append(seen, it.ID)
		}
		if page.NextOffset == nil {
			break
		}
		offset = *page.NextOffset
	}
	if len(seen) != 15 {
		t.Errorf("paged through %d todos, want 15", len(seen))
	}
	uniq := map[string]bool{}
	for _, id := range seen {
		uniq[id] = true
	}
	if len(uniq) != 15 {
		t.Errorf("ids repeat across pages: %d unique", len(uniq))
	}
	var past todoList
	h.ok("list_todos", `{"offset": 100}`, &past)
	if len(past.Items) != 0 || past.Total != 15 || past.NextOffset != nil {
		t.Errorf("past the end = %+v", past)
	}
}

func TestClearCompleted(t *testing.T) {
	h := connect(t, Options{})
	h.ok("create_todo", `{"title": "done already", "completed": true}`, nil)
	var res struct{ DeletedCount int }
	h.ok("clear_completed", `{}`, &res)
	if res.DeletedCount != 2 {
		t.Errorf("deleted %d, want 2 (one seeded, one created)", res.DeletedCount)
	}
	h.ok("clear_completed", `{}`, &res)
	if res.DeletedCount != 0 {
		t.Errorf("second clear deleted %d", res.DeletedCount)
	}
	var left todoList
	h.ok("list_todos", `{}`, &left)
	for _, it := range left.Items {
		if it.Completed {
			t.Errorf("completed todo survived: %+v", it)
		}
	}
	if left.Total != 2 {
		t.Errorf("left = %d", left.Total)
	}
}

func TestTodoErrors(t *testing.T) {
	h := connect(t, Options{})
	h.fails("create_todo", `{}`, "title")
	h.fails("create_todo", `{"title": ""}`)
	h.fails("create_todo", `{"title": "   "}`, "blank")
	h.fails("create_todo", `{"title": "x", "priority": 1}`)
	h.fails("update_todo", `{"id": "00000000-0000-4000-8000-000000000000", "title": "x"}`, "not found")
	var list todoList
	h.ok("list_todos", `{}`, &list)
	h.fails("update_todo", `{"id": "`+list.Items[0].ID+`"}`, "nothing to update")
	h.fails("list_todos", `{"limit": 0}`)
	h.fails("list_todos", `{"limit": 101}`)
	h.fails("list_todos", `{"completed": "yes"}`)
	h.fails("get_todo", `{}`, "id")
	h.fails("clear_completed", `{"all": true}`)
}

// Seeded servers hand out the same ids; concurrent creates never collide.
func TestTodoIDsDeterministicAndConcurrent(t *testing.T) {
	a := connect(t, Options{Seed: 7})
	b := connect(t, Options{Seed: 7})
	var ta, tb todo
	a.ok("create_todo", `{"title": "x"}`, &ta)
	b.ok("create_todo", `{"title": "x"}`, &tb)
	if ta.ID != tb.ID {
		t.Errorf("same seed, different ids: %s %s", ta.ID, tb.ID)
	}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.ok("create_todo", fmt.Sprintf(`{"title": "c%d"}`, i), nil)
		}()
	}
	wg.Wait()
	var all todoList
	a.ok("list_todos", `{"limit": 100}`, &all)
	if all.Total != 24 {
		t.Errorf("total = %d, want 24", all.Total)
	}
	ids := map[string]bool{}
	for _, it := range all.Items {
		ids[it.ID] = true
	}
	if len(ids) != 24 {
		t.Errorf("%d unique ids for 24 todos", len(ids))
	}
}
