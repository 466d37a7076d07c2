package widget

// List is the cursor and scroll offset of a list that shows Height rows of
// Len. Every list pane embeds one so scrolling behaves the same everywhere.
type List struct {
	Cursor, Offset int
	n, height      int
}

// Len is the number of rows; Height how many are on screen.
func (l *List) Len() int    { return l.n }
func (l *List) Height() int { return l.height }

func (l *List) SetLen(n int) {
	l.n = n
	l.clamp()
}

func (l *List) SetHeight(h int) {
	l.height = max(h, 1)
	l.clamp()
}

func (l *List) Move(delta int) {
	l.Cursor += delta
	l.clamp()
}

func (l *List) Top()    { l.Cursor = 0; l.clamp() }
func (l *List) Bottom() { l.Cursor = l.n - 1; l.clamp() }

// Scroll moves the window without moving the cursor off it (mouse wheel).
func (l *List) Scroll(delta int) {
	l.Offset += delta
	if l.Offset > l.n-l.height {
		l.Offset = l.n - l.height
	}
	if l.Offset < 0 {
		l.Offset = 0
	}
	if l.Cursor < l.Offset {
		l.Cursor = l.Offset
	}
	if l.Cursor >= l.Offset+l.height {
		l.Cursor = l.Offset + l.height - 1
	}
	l.clampCursor()
}

// Click selects the row at y (0 = first visible row); false if empty space.
func (l *List) Click(y int) bool {
	i := l.Offset + y
	if y < 0 || i >= l.n {
		return false
	}
	l.Cursor = i
	return true
}

func (l *List) clampCursor() {
	if l.Cursor >= l.n {
		l.Cursor = l.n - 1
	}
	if l.Cursor < 0 {
		l.Cursor = 0
	}
}

func (l *List) clamp() {
	l.clampCursor()
	if l.height < 1 {
		l.height = 1
	}
	if l.Cursor < l.Offset {
		l.Offset = l.Cursor
	}
	if l.Cursor >= l.Offset+l.height {
		l.Offset = l.Cursor - l.height + 1
	}
	if l.Offset > l.n-l.height {
		l.Offset = l.n - l.height
	}
	if l.Offset < 0 {
		l.Offset = 0
	}
}

// Visible is the half-open index range of rows on screen.
func (l *List) Visible() (from, to int) {
	return l.Offset, min(l.Offset+l.height, l.n)
}
