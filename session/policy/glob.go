package policy

import (
	"errors"
	"unicode"
	"unicode/utf8"
)

// pattern is a compiled glob over tool names. Unlike path.Match, '/' and '.'
// are ordinary characters: tool names such as "github.create_issue" or
// "fs/read" are single names, and "github.*" should match them. Matching
// ignores letter case (simple Unicode folding): a server's Delete_File is
// the user's delete_file.
type pattern struct {
	src   string
	items []item
	// literal is set when the pattern has no wildcards; text is then the
	// one name it matches (escapes removed).
	literal bool
	text    string
}

type itemKind uint8

const (
	lit   itemKind = iota // one rune
	any1                  // ?
	star                  // *
	class                 // [...]
)

type item struct {
	kind   itemKind
	r      rune
	negate bool
	ranges [][2]rune
}

func compile(src string) (pattern, error) {
	if !utf8.ValidString(src) {
		return pattern{}, errors.New("is not valid UTF-8")
	}
	p := pattern{src: src}
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRuneInString(src[i:])
		i += n
		switch r {
		case '*':
			if len(p.items) > 0 && p.items[len(p.items)-1].kind == star {
				continue // ** is *
			}
			p.items = append(p.items, item{kind: star})
		case '?':
			p.items = append(p.items, item{kind: any1})
		case '\\':
			if i >= len(src) {
				return pattern{}, errors.New("ends with a lone backslash")
			}
			r, n = utf8.DecodeRuneInString(src[i:])
			i += n
			p.items = append(p.items, item{kind: lit, r: r})
		case '[':
			it, next, err := parseClass(src, i)
			if err != nil {
				return pattern{}, err
			}
			p.items = append(p.items, it)
			i = next
		default:
			p.items = append(p.items, item{kind: lit, r: r})
		}
	}
	p.literal = true
	text := make([]rune, 0, len(p.items))
	for _, it := range p.items {
		if it.kind != lit {
			p.literal = false
			break
		}
		text = append(text, it.r)
	}
	if p.literal {
		p.text = string(text)
	}
	return p, nil
}

// parseClass reads a [...] class whose body starts at i.
func parseClass(src string, i int) (item, int, error) {
	it := item{kind: class}
	if i < len(src) && (src[i] == '!' || src[i] == '^') {
		it.negate = true
		i++
	}
	first := true
	for {
		if i >= len(src) {
			return item{}, 0, errors.New("has an unterminated [ class")
		}
		r, n := utf8.DecodeRuneInString(src[i:])
		if r == ']' && !first {
			return it, i + n, nil
		}
		first = false
		i += n
		if r == '\\' {
			if i >= len(src) {
				return item{}, 0, errors.New("ends with a lone backslash")
			}
			r, n = utf8.DecodeRuneInString(src[i:])
			i += n
		}
		lo, hi := r, r
		if i+1 < len(src) && src[i] == '-' && src[i+1] != ']' {
			hi, n = utf8.DecodeRuneInString(src[i+1:])
			i += 1 + n
			if hi < lo {
				return item{}, 0, errors.New("has a backwards range in a [ class")
			}
		}
		it.ranges = append(it.ranges, [2]rune{lo, hi})
	}
}

// one reports whether the item matches r in any letter case.
func (it item) one(r rune) bool {
	switch it.kind {
	case lit:
		return foldEq(r, it.r)
	case any1:
		return true
	case class:
		in := false
		for f := r; ; {
			if it.inRanges(f) {
				in = true
				break
			}
			if f = unicode.SimpleFold(f); f == r {
				break
			}
		}
		return in != it.negate
	}
	return false
}

func (it item) inRanges(r rune) bool {
	for _, rg := range it.ranges {
		if r >= rg[0] && r <= rg[1] {
			return true
		}
	}
	return false
}

// foldEq is rune equality under simple case folding, as strings.EqualFold.
func foldEq(a, b rune) bool {
	if a == b {
		return true
	}
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}

// matchAny reports the first of names the pattern matches.
func (p pattern) matchAny(names []string) (string, bool) {
	for _, n := range names {
		if n != "" && p.match(n) {
			return n, true
		}
	}
	return "", false
}

// match reports whether the whole name matches. It backtracks only to the
// last star, so it runs in O(len(name) * len(pattern)) at worst.
func (p pattern) match(name string) bool {
	rs := []rune(name)
	pi, ni := 0, 0
	starP, starN := -1, 0
	for ni < len(rs) {
		switch {
		case pi < len(p.items) && p.items[pi].kind == star:
			starP, starN = pi, ni
			pi++
		case pi < len(p.items) && p.items[pi].one(rs[ni]):
			pi++
			ni++
		case starP >= 0:
			starN++
			pi, ni = starP+1, starN
		default:
			return false
		}
	}
	for pi < len(p.items) && p.items[pi].kind == star {
		pi++
	}
	return pi == len(p.items)
}
