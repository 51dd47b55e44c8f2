package layout

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/shoebox-photos/shoebox/internal/spell"
)

// Fields are the values a Template is expanded with.
type Fields struct {
	Time        time.Time // wall clock (fields read directly, location ignored)
	Name        string    // original base name without extension
	Ext         string    // original extension with dot, e.g. ".JPG" ("" if none)
	Make, Model string
	Kind        string // "photo", "video"
	Counter     int    // per-directory sequence, assigned by the planner
	// Dir is the folder the source file is in and Root the source root it
	// was found under (as the scan gives them), for {folder} and {source}.
	Dir, Root string
	// Album is the title of the Takeout album Dir is, from the album's
	// metadata.json, for {album}; "" uses the album folder's name.
	Album string
}

// Template is a parsed destination layout like
// "{year}/{year}-{month}-{day}/{name}{ext}", precompiled into parts.
type Template struct {
	src        string
	segments   [][]part
	hasCounter bool

	counterOnce sync.Once
	counterRe   *regexp.Regexp // see CounterOf
}

type tokenKind uint8

const (
	literal tokenKind = iota
	tokYear
	tokYY
	tokMonth
	tokMonthName
	tokMon
	tokDay
	tokHour
	tokMinute
	tokSecond
	tokDate
	tokName
	tokExt
	tokMake
	tokModel
	tokKind
	tokCounter
	tokFolder
	tokSource
	tokAlbum
)

type modifier uint8

const (
	asIs modifier = iota
	lower
	upper
)

type part struct {
	kind  tokenKind
	text  string // the literal, for kind == literal
	mod   modifier
	width int // zero-padding width of {counter:N}; which parent for {folder:N}
}

type tokenSpec struct {
	kind tokenKind
	text bool // takes :lower / :upper
}

// tokens lists every token name; the order is the one shown in
// suggestions when two are equally close.
var tokenNames = []string{"year", "yy", "month", "monthname", "mon", "day", "hour", "minute", "second", "date", "name", "ext", "make", "model", "kind", "counter", "folder", "source", "album"}

var tokens = map[string]tokenSpec{
	"year": {tokYear, false}, "yy": {tokYY, false}, "month": {tokMonth, false},
	"monthname": {tokMonthName, true}, "mon": {tokMon, true}, "day": {tokDay, false},
	"hour": {tokHour, false}, "minute": {tokMinute, false}, "second": {tokSecond, false},
	"date": {tokDate, false}, "name": {tokName, true}, "ext": {tokExt, true},
	"make": {tokMake, true}, "model": {tokModel, true}, "kind": {tokKind, true},
	"counter": {tokCounter, false},
	"folder":  {tokFolder, true}, "source": {tokSource, true}, "album": {tokAlbum, true},
}

// ParseError says what is wrong with a template and where (Pos counts
// bytes from 1).
type ParseError struct {
	Template string
	Pos      int
	Msg      string
}

func (e *ParseError) Error() string {
	if e.Pos > 0 {
		return fmt.Sprintf("layout %q, position %d: %s", e.Template, e.Pos, e.Msg)
	}
	return fmt.Sprintf("layout %q: %s", e.Template, e.Msg)
}

// Parse compiles a template; see the package documentation for the tokens
// and the rules a template must follow.
func Parse(s string) (*Template, error) {
	p := &parser{src: s}
	if err := p.checkWhole(); err != nil {
		return nil, err
	}
	if err := p.run(); err != nil {
		return nil, err
	}
	t := &Template{src: s, segments: p.segments, hasCounter: p.counterSeen}
	if err := p.checkLastSegment(); err != nil {
		return nil, err
	}
	return t, nil
}

// HasCounter reports whether the template uses {counter}.
func (t *Template) HasCounter() bool { return t.hasCounter }

// String returns the template as written.
func (t *Template) String() string { return t.src }

type parser struct {
	src         string
	segments    [][]part
	current     []part
	lit         strings.Builder
	segStart    int // byte offset where the current segment began
	lastStart   int // byte offset where the last closed segment began
	counterSeen bool
}

func (p *parser) fail(pos int, format string, args ...any) error {
	return &ParseError{Template: p.src, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) checkWhole() error {
	s := p.src
	switch {
	case strings.TrimSpace(s) == "":
		return p.fail(0, "the template is empty; give one such as {year}/{month}/{name}{ext}")
	case s[0] == '/' || (len(s) >= 2 && s[1] == ':' && isLetter(s[0])):
		return p.fail(1, "the template is an absolute path; it must be relative to the destination")
	}
	return nil
}

func isLetter(b byte) bool { return (b|0x20) >= 'a' && (b|0x20) <= 'z' }

func (p *parser) run() error {
	s := p.src
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '{' && strings.HasPrefix(s[i:], "{{"):
			p.lit.WriteByte('{')
			i += 2
		case c == '}' && strings.HasPrefix(s[i:], "}}"):
			p.lit.WriteByte('}')
			i += 2
		case c == '{':
			n, err := p.token(i)
			if err != nil {
				return err
			}
			i += n
		case c == '}':
			return p.fail(i+1, `"}" closes no "{"; write "}}" for a literal brace`)
		case c == '\\':
			return p.fail(i+1, `a backslash is not a folder separator here; use "/"`)
		case c == '/':
			if err := p.endSegment(i); err != nil {
				return err
			}
			i++
		default:
			p.lit.WriteByte(c)
			i++
		}
	}
	return p.endSegment(len(s))
}

// token parses "{...}" starting at s[i] and returns its length.
func (p *parser) token(i int) (int, error) {
	body := p.src[i+1:]
	end := strings.IndexAny(body, "{}/")
	if end < 0 || body[end] != '}' {
		return 0, p.fail(i+1, `"{" is never closed; write "{{" for a literal brace`)
	}
	pt, err := p.compileToken(i, body[:end])
	if err != nil {
		return 0, err
	}
	p.flushLiteral()
	p.current = append(p.current, pt)
	return end + 2, nil
}

func (p *parser) compileToken(i int, body string) (part, error) {
	if body == "" {
		return part{}, p.fail(i+1, "empty token {}; write {{}} for literal braces")
	}
	name, arg, hasArg := strings.Cut(body, ":")
	spec, ok := tokens[name]
	if !ok {
		return part{}, p.fail(i+1, "unknown token {%s}; did you mean {%s}?", body, closest(name, tokenNames))
	}
	pt := part{kind: spec.kind}
	switch {
	case !hasArg:
	case spec.kind == tokCounter:
		w, ok := counterWidth(arg)
		if !ok {
			return part{}, p.fail(i+1, "{%s}: the counter width must be a digit from 1 to 9, as in {counter:4}", body)
		}
		pt.width = w
	case spec.kind == tokFolder && arg != "lower" && arg != "upper":
		n, ok := counterWidth(arg)
		if !ok {
			return part{}, p.fail(i+1, "{%s}: say which folder up with a digit from 1 to 9, as in {folder:2}, or use :lower or :upper", body)
		}
		pt.width = n
	case !spec.text:
		return part{}, p.fail(i+1, "{%s}: {%s} is a number and takes no modifier", body, name)
	case arg == "lower":
		pt.mod = lower
	case arg == "upper":
		pt.mod = upper
	default:
		return part{}, p.fail(i+1, "{%s}: unknown modifier %q; did you mean :%s?", body, arg, closest(arg, []string{"lower", "upper"}))
	}
	if spec.kind == tokCounter {
		p.counterSeen = true
	}
	return pt, nil
}

func counterWidth(arg string) (int, bool) {
	if len(arg) != 1 || arg[0] < '1' || arg[0] > '9' {
		return 0, false
	}
	return int(arg[0] - '0'), true
}

func (p *parser) flushLiteral() {
	if p.lit.Len() > 0 {
		p.current = append(p.current, part{kind: literal, text: p.lit.String()})
		p.lit.Reset()
	}
}

// endSegment closes the segment ending at byte offset end.
func (p *parser) endSegment(end int) error {
	p.flushLiteral()
	seg := p.current
	switch {
	case len(seg) == 0 && end == len(p.src):
		return p.fail(end, `the template ends with "/"; it must end with a file name such as {name}{ext}`)
	case len(seg) == 0:
		return p.fail(end+1, `empty folder name ("//")`)
	case len(seg) == 1 && seg[0].kind == literal && (seg[0].text == "." || seg[0].text == ".."):
		return p.fail(p.segStart+1, "a %q segment is not allowed; every folder must be named", seg[0].text)
	}
	if end < len(p.src) && hasKind(seg, tokCounter) {
		return p.fail(p.segStart+1, "{counter} may only appear in the last segment, the file name")
	}
	if lit := leadingLiteral(seg); lit != "" && (len(seg) == 1 || strings.HasPrefix(lit, ".")) && Reserved(lit) {
		return p.fail(p.segStart+1, "%q is a name shoebox keeps for its own files (its state folder %s and its temp files); pick another name", lit, StateDirName)
	}
	p.segments = append(p.segments, seg)
	p.current = nil
	p.lastStart = p.segStart
	p.segStart = end + 1
	return nil
}

func (p *parser) checkLastSegment() error {
	last := p.segments[len(p.segments)-1]
	switch {
	case !hasKind(last, tokName) && !hasKind(last, tokCounter):
		return p.fail(p.lastStart+1, "the file name has neither {name} nor {counter}, so files would collide constantly; add {name} or {counter}, as in {name}{ext}")
	case !hasKind(last, tokExt):
		return p.fail(p.lastStart+1, "the template drops the extension; end the file name with {ext} or {ext:lower}")
	}
	return nil
}

// leadingLiteral is the text a segment starts with before its first token.
// When it alone is a reserved name (or, starting with a dot, contains
// ".shoebox"), every expansion would be one too: the template is refused
// rather than escaped file after file.
func leadingLiteral(seg []part) string {
	if len(seg) > 0 && seg[0].kind == literal {
		return seg[0].text
	}
	return ""
}

// segmentText writes a compiled segment back as template text, for
// messages: "{make}", "IMG_{counter:4}{ext:lower}".
func segmentText(seg []part) string {
	var b strings.Builder
	for _, pt := range seg {
		if pt.kind == literal {
			b.WriteString(strings.NewReplacer("{", "{{", "}", "}}").Replace(pt.text))
			continue
		}
		b.WriteString("{" + tokenNames[tokenIndex(pt.kind)])
		switch {
		case (pt.kind == tokCounter || pt.kind == tokFolder) && pt.width > 0:
			b.WriteString(":" + string(rune('0'+pt.width)))
		case pt.mod == lower:
			b.WriteString(":lower")
		case pt.mod == upper:
			b.WriteString(":upper")
		}
		b.WriteString("}")
	}
	return b.String()
}

func tokenIndex(k tokenKind) int {
	for i, name := range tokenNames {
		if tokens[name].kind == k {
			return i
		}
	}
	return 0
}

func hasKind(seg []part, k tokenKind) bool {
	for _, pt := range seg {
		if pt.kind == k {
			return true
		}
	}
	return false
}

// closest returns the candidate with the smallest edit distance to s.
func closest(s string, candidates []string) string {
	best, _ := spell.Closest(strings.ToLower(s), candidates)
	return best
}

// TokenNames lists every template token's name, for completion and help.
func TokenNames() []string { return append([]string(nil), tokenNames...) }

// CaseExt cases a group member's ending as the template cases its
// leader's extension: with {ext:lower}, IMG_1.JPG's companions IMG_1.MOV
// and IMG_1.JPG.xmp end in ".mov" and ".jpg.xmp" beside its ".jpg", so a
// group stays one unit under every name transform. A template whose file
// name has several {ext} tokens is cased by the last one.
func (t *Template) CaseExt(ending string) string {
	mod := asIs
	for _, pt := range t.segments[len(t.segments)-1] {
		if pt.kind == tokExt {
			mod = pt.mod
		}
	}
	return string(appendCased(nil, ending, mod))
}
