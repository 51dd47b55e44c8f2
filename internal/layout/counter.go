package layout

import (
	"regexp"
	"strconv"
	"strings"
)

// CounterOf reads back the {counter} value from a file name the template
// produced, so a new import into a folder continues its sequence instead of
// starting again at 1. ok is false for names the template could not have
// made (or when it has no counter). A conflict suffix ("-2" before the
// extension) is tolerated, as the planner may have added one.
func (t *Template) CounterOf(name string) (n int, ok bool) {
	re := t.counterPattern()
	if re == nil {
		return 0, false
	}
	m := re.FindStringSubmatch(name)
	if m == nil {
		m = re.FindStringSubmatch(withoutSuffix(name))
	}
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n > MaxCounter {
		return 0, false
	}
	return n, true
}

// MaxCounter is the highest number read back as a counter. A name with a
// larger one (a serial, a crafted name) is not a counter shoebox wrote:
// continuing after it would run past the integers into negative numbers.
const MaxCounter = 1_000_000_000

// counterPattern compiles, once, a pattern of the file-name segment in
// which the counter is a captured run of digits, other tokens match
// anything ({name} before the counter greedily), and literals match themselves, ignoring case (names collide
// case-insensitively, and :upper/:lower change case).
func (t *Template) counterPattern() *regexp.Regexp {
	t.counterOnce.Do(func() {
		if !t.hasCounter {
			return
		}
		var b strings.Builder
		b.WriteString("(?i)^")
		captured := false
		for _, pt := range t.segments[len(t.segments)-1] {
			switch {
			case pt.kind == literal:
				b.WriteString(regexp.QuoteMeta(pt.text))
			case pt.kind == tokCounter && !captured:
				b.WriteString(`(\d+)`)
				captured = true
			case pt.kind == tokCounter:
				b.WriteString(`\d+`)
			case !captured && pt.kind == tokName:
				// A name before the counter takes all it can, so that its
				// own digits stay its ({name}_{counter}: IMG_1234_1.jpg
				// is number 1); other tokens take as little as they can.
				b.WriteString(`.*`)
			default:
				b.WriteString(`.*?`)
			}
		}
		b.WriteString("$")
		t.counterRe = regexp.MustCompile(b.String())
	})
	return t.counterRe
}

// withoutSuffix undoes WithSuffix: "2021_0007-2.jpg" -> "2021_0007.jpg".
func withoutSuffix(name string) string {
	stem, ext := name, ""
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		stem, ext = name[:i], name[i:]
	}
	i := strings.LastIndexByte(stem, '-')
	if i <= 0 || i == len(stem)-1 {
		return name
	}
	if _, err := strconv.Atoi(stem[i+1:]); err != nil {
		return name
	}
	return stem[:i] + ext
}
