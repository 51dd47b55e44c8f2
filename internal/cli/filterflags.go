package cli

import (
	"errors"
	"io"
	iofs "io/fs"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/shoebox-photos/shoebox/internal/filter"
	"github.com/shoebox-photos/shoebox/internal/quote"
)

// filterFlags are sort's flags that narrow an import.
type filterFlags struct {
	include, exclude          []string
	kind, ext, minSize, maxSz string
	since, until              string
	maxDepth                  int
	skipUnknown               bool
	now                       time.Time // the clock --since 7d counts back from
	includeFrom, excludeFrom  string    // list files of patterns; "-": stdin
	filesFrom                 string    // list file of paths; "-": stdin
	stdin                     io.Reader
}

func (f *filterFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&f.include, "include", nil, "") // repeatable; a comma is part of a pattern
	fs.StringArrayVar(&f.exclude, "exclude", nil, "")
	fs.StringVar(&f.kind, "kind", "", "")
	fs.StringVar(&f.ext, "ext", "", "")
	fs.IntVar(&f.maxDepth, "max-depth", 0, "")
	fs.StringVar(&f.minSize, "min-size", "", "")
	fs.StringVar(&f.maxSz, "max-size", "", "")
	fs.StringVar(&f.includeFrom, "include-from", "", "")
	fs.StringVar(&f.excludeFrom, "exclude-from", "", "")
	fs.StringVar(&f.filesFrom, "files-from", "", "")
	fs.StringVar(&f.since, "since", "", "")
	fs.StringVar(&f.until, "until", "", "")
	fs.BoolVar(&f.skipUnknown, "skip-unknown", false, "")
}

// filter checks the flags and builds the filter; nil when none is given.
func (f *filterFlags) filter() (*filter.Filter, error) {
	flt := &filter.Filter{Include: f.include, Exclude: f.exclude, Exts: filter.ParseExts(f.ext), MaxDepth: f.maxDepth,
		SkipUnknown: f.skipUnknown}
	for _, p := range append(append([]string(nil), f.include...), f.exclude...) {
		if err := filter.CheckPattern(p); err != nil {
			return nil, usagef("pattern %q: %s", p, err)
		}
	}
	if err := f.lists(flt); err != nil {
		return nil, err
	}
	if err := f.kinds(flt); err != nil {
		return nil, err
	}
	if f.maxDepth < 0 {
		return nil, usagef("--max-depth: want 1 or more (1: only files directly in SRC), not %d", f.maxDepth)
	}
	if err := f.sizes(flt); err != nil {
		return nil, err
	}
	if err := f.dates(flt); err != nil {
		return nil, err
	}
	if !flt.Active() {
		return nil, nil
	}
	return flt, nil
}

// lists reads --include-from, --exclude-from and --files-from.
func (f *filterFlags) lists(flt *filter.Filter) error {
	stdinBy := ""
	for _, l := range []struct{ flag, file string }{
		{"--include-from", f.includeFrom}, {"--exclude-from", f.excludeFrom}, {"--files-from", f.filesFrom},
	} {
		if l.file != "-" {
			continue
		}
		if stdinBy != "" {
			return usagef("%s - and %s - both ask for stdin: only one of them can read stdin", stdinBy, l.flag)
		}
		stdinBy = l.flag
	}
	patterns := func(flag, file string, to *[]string) error {
		if file == "" {
			return nil
		}
		entries, err := f.readList(flag, file)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := filter.CheckPattern(e.Text); err != nil {
				return usagef("%s: line %d of %s: pattern %q: %s", flag, e.N, quote.Path(file), e.Text, err)
			}
			*to = append(*to, e.Text)
		}
		return nil
	}
	if err := patterns("--include-from", f.includeFrom, &flt.Include); err != nil {
		return err
	}
	if err := patterns("--exclude-from", f.excludeFrom, &flt.Exclude); err != nil {
		return err
	}
	if f.filesFrom != "" {
		entries, err := f.readList("--files-from", f.filesFrom)
		if err != nil {
			return err
		}
		flt.Files = filter.NewListed(entries)
	}
	return nil
}

// readList reads a list file, or stdin for "-", bounded (filter.ReadList).
func (f *filterFlags) readList(flag, file string) ([]filter.Line, error) {
	if file == "-" {
		if f.stdin == nil {
			return nil, usagef("%s -: no stdin to read", flag)
		}
		entries, err := filter.ReadList(f.stdin, "stdin")
		if err != nil {
			return nil, usagef("%s: %s", flag, err)
		}
		return entries, nil
	}
	fh, err := os.Open(file)
	if err != nil {
		return nil, usagef("%s %s: %s", flag, quote.Path(file), openReason(err))
	}
	defer fh.Close()
	if st, err := fh.Stat(); err == nil && st.IsDir() {
		return nil, usagef("%s %s: a folder, not a list file", flag, quote.Path(file))
	}
	entries, err := filter.ReadList(fh, file)
	if err != nil {
		return nil, usagef("%s: %s", flag, err)
	}
	return entries, nil
}

func (f *filterFlags) kinds(flt *filter.Filter) error {
	for _, k := range strings.Split(f.kind, ",") {
		switch k = strings.ToLower(strings.TrimSpace(k)); k {
		case "":
		case "photo", "video":
			flt.Kinds = append(flt.Kinds, k)
		default:
			return usagef("--kind: want photo or video, not %q", k)
		}
	}
	return nil
}

func (f *filterFlags) sizes(flt *filter.Filter) error {
	for _, s := range []struct {
		flag, v string
		to      *int64
	}{{"--min-size", f.minSize, &flt.MinSize}, {"--max-size", f.maxSz, &flt.MaxSize}} {
		if s.v == "" {
			continue
		}
		n, err := filter.ParseSize(s.v)
		if err != nil {
			return usagef("%s: %s", s.flag, err)
		}
		*s.to = n
	}
	if flt.MaxSize > 0 && flt.MinSize > flt.MaxSize {
		return usagef("--min-size is larger than --max-size: no file could pass")
	}
	return nil
}

func (f *filterFlags) dates(flt *filter.Filter) error {
	if f.since != "" {
		start, _, err := filter.ParseWhen(f.since, f.now)
		if err != nil {
			return usagef("--since: %s", err)
		}
		flt.Since = start
	}
	if f.until != "" {
		_, end, err := filter.ParseWhen(f.until, f.now)
		if err != nil {
			return usagef("--until: %s", err)
		}
		flt.Until = end
	}
	if !flt.Since.IsZero() && !flt.Until.IsZero() && !flt.Since.Before(flt.Until) {
		return usagef("--since is after --until: no file could pass")
	}
	return nil
}

// openReason is why a file could not be opened, in a few words.
func openReason(err error) string {
	var pe *iofs.PathError
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		return "no such file"
	case errors.Is(err, iofs.ErrPermission):
		return "permission denied"
	case errors.As(err, &pe):
		return pe.Err.Error()
	}
	return err.Error()
}
