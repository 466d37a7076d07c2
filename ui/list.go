package ui

// listNav is the cursor and scroll offset of a list that shows height rows of
// n. Every list pane embeds one so scrolling behaves the same everywhere.
type listNav struct {
	cursor, offset int
	n, height      int
}

func (l *listNav) setLen(n int) {
	l.n = n
	l.clamp()
}

func (l *listNav) setHeight(h int) {
	l.height = max(h, 1)
	l.clamp()
}

func (l *listNav) move(delta int) {
	l.cursor += delta
	l.clamp()
}

func (l *listNav) top()    { l.cursor = 0; l.clamp() }
func (l *listNav) bottom() { l.cursor = l.n - 1; l.clamp() }

// scroll moves the window without moving the cursor off it (mouse wheel).
func (l *listNav) scroll(delta int) {
	l.offset += delta
	if l.offset > l.n-l.height {
		l.offset = l.n - l.height
	}
	if l.offset < 0 {
		l.offset = 0
	}
	if l.cursor < l.offset {
		l.cursor = l.offset
	}
	if l.cursor >= l.offset+l.height {
		l.cursor = l.offset + l.height - 1
	}
	l.clampCursor()
}

// click selects the row at y (0 = first visible row); false if empty space.
func (l *listNav) click(y int) bool {
	i := l.offset + y
	if y < 0 || i >= l.n {
		return false
	}
	l.cursor = i
	return true
}

func (l *listNav) clampCursor() {
	if l.cursor >= l.n {
		l.cursor = l.n - 1
	}
	if l.cursor < 0 {
		l.cursor = 0
	}
}

func (l *listNav) clamp() {
	l.clampCursor()
	if l.height < 1 {
		l.height = 1
	}
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	if l.cursor >= l.offset+l.height {
		l.offset = l.cursor - l.height + 1
	}
	if l.offset > l.n-l.height {
		l.offset = l.n - l.height
	}
	if l.offset < 0 {
		l.offset = 0
	}
}

// visible is the half-open index range of rows on screen.
func (l *listNav) visible() (from, to int) {
	return l.offset, min(l.offset+l.height, l.n)
}
