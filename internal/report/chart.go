package report

import (
	"fmt"
	"html"
	"html/template"
	"sort"
	"strings"
)

// The charts are plain SVG written here rather than drawn by a script: the
// page must render the same with JavaScript off and in a headless browser.

var monthNames = [...]string{"", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

func sortedYears(months map[int]*[13]int64) []int {
	ys := make([]int, 0, len(months))
	for y := range months {
		ys = append(ys, y)
	}
	sort.Ints(ys)
	if len(ys) > 0 && ys[0] == 0 { // files with no date come last
		ys = append(ys[1:], 0)
	}
	return ys
}

func yearTotal(m *[13]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// yearChart draws one bar per capture year, "no date" last.
func yearChart(months map[int]*[13]int64) template.HTML {
	years := sortedYears(months)
	if len(years) == 0 {
		return ""
	}
	const slot, barW, top, plot, foot = 56, 38, 22, 150, 28
	var maxV int64 = 1
	for _, y := range years {
		maxV = max(maxV, yearTotal(months[y]))
	}
	w := len(years)*slot + 16
	var b strings.Builder
	// No width attribute: the page's CSS scales the chart to its card,
	// never past the size it is drawn at, so every year shows.
	fmt.Fprintf(&b, `<svg class="chart" id="year-chart" role="img" aria-label="files per year" style="max-width:%dpx" viewBox="0 0 %d %d" xmlns="http://www.w3.org/2000/svg">`,
		w, w, top+plot+foot)
	fmt.Fprintf(&b, `<line class="axis" x1="4" x2="%d" y1="%d" y2="%d"/>`, w-4, top+plot, top+plot)
	for i, y := range years {
		n := yearTotal(months[y])
		h := max(int(float64(plot)*float64(n)/float64(maxV)), 2)
		x := 8 + i*slot + (slot-barW)/2
		label, class := fmt.Sprint(y), "bar"
		if y == 0 {
			label, class = "no date", "bar nodate"
		}
		fmt.Fprintf(&b, `<g class="%s" data-year="%d" data-count="%d"><title>%s: %s files</title>`, class, y, n, label, group(n))
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" rx="3"/>`, x, top+plot-h, barW, h)
		fmt.Fprintf(&b, `<text class="count" x="%d" y="%d">%s</text>`, x+barW/2, top+plot-h-6, group(n))
		fmt.Fprintf(&b, `<text class="label" x="%d" y="%d">%s</text></g>`, x+barW/2, top+plot+18, html.EscapeString(label))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// monthChart draws, for each dated year, a row of twelve bars on one scale,
// so busy months stand out across the years.
func monthChart(months map[int]*[13]int64) template.HTML {
	var years []int
	var maxV int64
	for _, y := range sortedYears(months) {
		m := months[y]
		if y == 0 {
			continue
		}
		years = append(years, y)
		for _, v := range m[1:] {
			maxV = max(maxV, v)
		}
	}
	if maxV == 0 {
		return "" // no file has a known month
	}
	const label, col, barW, head, row, plot, note = 58, 38, 26, 20, 62, 40, 150
	w := label + 12*col + note
	var b strings.Builder
	// Scaled by the page's CSS to the card's width.
	fmt.Fprintf(&b, `<svg class="chart" id="month-chart" role="img" aria-label="files per month" viewBox="0 0 %d %d" xmlns="http://www.w3.org/2000/svg">`,
		w, head+len(years)*row)
	for m := 1; m <= 12; m++ {
		fmt.Fprintf(&b, `<text class="label" x="%d" y="14">%s</text>`, label+(m-1)*col+col/2, monthNames[m])
	}
	for i, y := range years {
		base := head + i*row + row - 8
		fmt.Fprintf(&b, `<text class="year" x="4" y="%d">%d</text>`, base-4, y)
		fmt.Fprintf(&b, `<line class="axis" x1="%d" x2="%d" y1="%d" y2="%d"/>`, label, label+12*col, base, base)
		m := months[y]
		for mo := 1; mo <= 12; mo++ {
			monthBar(&b, y, mo, m[mo], maxV, label+(mo-1)*col+(col-barW)/2, base, barW, plot)
		}
		if m[0] > 0 {
			fmt.Fprintf(&b, `<text class="note" x="%d" y="%d">+%s month not known</text>`, label+12*col+8, base-4, group(m[0]))
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

func monthBar(b *strings.Builder, year, month int, n, maxV int64, x, base, barW, plot int) {
	if n == 0 {
		return
	}
	h := max(int(float64(plot)*float64(n)/float64(maxV)), 2)
	fmt.Fprintf(b, `<g class="bar" data-month="%d-%02d" data-count="%d"><title>%s %d: %s files</title>`, year, month, n, monthNames[month], year, group(n))
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" rx="2"/>`, x, base-h, barW, h)
	fmt.Fprintf(b, `<text class="count small" x="%d" y="%d">%s</text></g>`, x+barW/2, base-h-3, group(n))
}

// breakable is s, escaped, with a line-break opportunity after each path
// separator: a long library path in the title wraps between folder names,
// not inside a word.
func breakable(s string) template.HTML {
	e := html.EscapeString(s)
	e = strings.ReplaceAll(e, "/", "/<wbr>")
	e = strings.ReplaceAll(e, `\`, `\<wbr>`)
	return template.HTML(e)
}

// group writes n with thousands separators: 1,234,567.
func group(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + group(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
