package ui

// rect is a screen area, for placing panes and hit-testing the mouse.
type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool {
	return r.w > 0 && r.h > 0 && x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// page is one screen of the workbench.
type page int

const (
	pageTools page = iota
	pageCompose
	pageExplore
)

func (p page) String() string { return [...]string{"Tools", "Compose", "Explore"}[p] }

// focus names the pane that gets keys.
type focus int

const (
	focusTools focus = iota
	focusSchema
	focusComposer
	focusResults
	focusExplore
	numFocus
)

// layout is computed once per resize: every pane's outer rectangle on every
// page. Panes get their inner sizes from these minus their style's frame.
type layout struct {
	width, height int
	wide          bool
	header        rect
	body          rect
	status        rect // status line and help bar

	tools, schema             rect // pageTools
	ctools, composer, results rect // pageCompose; ctools is empty when narrow
	explore                   rect // pageExplore
}

// toolsChrome is the tool list's width besides the name: frame, code,
// category, badges, counts and the spaces between.
const toolsChrome = 32

const (
	headerLines = 2
	footerLines = 2
	// wideWidth is where the tool list gets its own column next to the
	// other panes instead of sharing the height.
	wideWidth = 110
)

// computeLayout lays the panes out for a w x h screen. nameW is the
// longest tool name, so the tool list can be as wide as it needs (up to
// 45% of the screen) to show names whole: servers have tools that differ
// only in their last words.
func computeLayout(w, h, nameW int) layout {
	w, h = max(w, 20), max(h, 8)
	l := layout{width: w, height: h, wide: w >= wideWidth}
	l.header = rect{0, 0, w, headerLines}
	l.status = rect{0, h - footerLines, w, footerLines}
	l.body = rect{0, headerLines, w, h - headerLines - footerLines}
	b := l.body
	if l.wide {
		lw := clamp(max(w*32/100, nameW+toolsChrome), 36, max(w*45/100, 36))
		l.tools = rect{b.x, b.y, lw, b.h}
		l.schema = rect{b.x + lw, b.y, b.w - lw, b.h}
		l.ctools = l.tools
		rw := b.w - lw
		ch := b.h / 2
		if b.h >= 14 {
			ch = clamp(b.h*45/100, 8, b.h-6)
		}
		l.composer = rect{b.x + lw, b.y, rw, ch}
		l.results = rect{b.x + lw, b.y + ch, rw, b.h - ch}
	} else {
		// Short terminals split evenly; taller ones give each pane a
		// useful minimum.
		th, ch := b.h/2, b.h/2
		if b.h >= 10 {
			th = clamp(b.h*2/5, 5, b.h-5)
		}
		if b.h >= 11 {
			ch = clamp(b.h/2, 7, b.h-4)
		}
		l.tools = rect{b.x, b.y, b.w, th}
		l.schema = rect{b.x, b.y + th, b.w, b.h - th}
		l.composer = rect{b.x, b.y, b.w, ch}
		l.results = rect{b.x, b.y + ch, b.w, b.h - ch}
	}
	l.explore = b
	return l
}

func clamp(v, lo, hi int) int {
	if hi < lo {
		hi = lo
	}
	return max(lo, min(v, hi))
}

// panesOn lists the focusable panes of a page in tab order.
func (l layout) panesOn(p page) []focus {
	switch p {
	case pageTools:
		return []focus{focusTools, focusSchema}
	case pageCompose:
		if l.wide {
			return []focus{focusTools, focusComposer, focusResults}
		}
		return []focus{focusComposer, focusResults}
	default:
		return []focus{focusExplore}
	}
}

// sizeOf is pane f's rectangle on the page it is largest on (the tool
// list is as large on the compose page as on its own, when it is shown
// there at all).
func (l layout) sizeOf(f focus) rect {
	switch f {
	case focusTools:
		return l.tools
	case focusSchema:
		return l.schema
	case focusComposer:
		return l.composer
	case focusResults:
		return l.results
	}
	return l.explore
}

// rectOf is where pane f sits on page p (zero when it is not shown).
func (l layout) rectOf(p page, f focus) rect {
	switch {
	case p == pageTools && f == focusTools:
		return l.tools
	case p == pageTools && f == focusSchema:
		return l.schema
	case p == pageCompose && f == focusTools:
		return l.ctools
	case p == pageCompose && f == focusComposer:
		return l.composer
	case p == pageCompose && f == focusResults:
		return l.results
	case p == pageExplore && f == focusExplore:
		return l.explore
	}
	return rect{}
}
