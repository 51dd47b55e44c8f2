package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/shoebox-photos/shoebox/internal/archive"
	"github.com/shoebox-photos/shoebox/internal/meta"
	"github.com/shoebox-photos/shoebox/internal/pipeline"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/shift"
)

func cmdExplain(env Env, args []string) error {
	fs := newFlags("explain")
	tz := fs.String("video-tz", "local", "")
	camTZ := fs.String("tz", "", "")
	dateTagsFlag := fs.String("date-tags", "", "")
	hidden := fs.Bool("hidden", false, "")
	jsonOut := fs.Bool("json", false, "")
	shifts := fs.StringArray("shift", nil, "")
	noMtime := fs.Bool("no-mtime", false, "")
	trustMtime := fs.Bool("mtime", false, "")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("explain needs at least one file: shoebox explain FILE...")
	}
	loc, err := parseZone(*tz)
	if err != nil {
		return usagef("--video-tz: %s", err)
	}
	photoTZ, err := cameraZone(*camTZ)
	if err != nil {
		return usagef("--tz: %s", err)
	}
	dateTags, err := meta.ParseDateTags(*dateTagsFlag)
	if err != nil {
		return usagef("--date-tags: %s", err)
	}
	if *noMtime && *trustMtime {
		return usagef("--mtime and --no-mtime contradict each other: give one")
	}
	rules, err := shift.Parse(*shifts)
	if err != nil {
		return usagef("%s", err)
	}
	opt := meta.Options{Explain: true, VideoTZ: loc, PhotoTZ: photoTZ, DateTags: dateTags}
	var enc *json.Encoder
	if *jsonOut {
		enc = json.NewEncoder(env.Stdout)
	}
	failed := false
	for _, f := range files {
		st, err := os.Stat(f)
		if _, _, member := archive.Split(f); err != nil && member {
			err = nil // ARCHIVE:MEMBER or ARCHIVE/MEMBER: DecideWith reads it from the archive
		} else if err == nil && st.IsDir() {
			err = errors.New("this is a folder; explain reads files (shoebox explain FOLDER/*)")
		}
		if errors.Is(err, iofs.ErrNotExist) {
			err = errors.New("no such file")
		}
		// The very decision sort makes, companions (sidecars, pairs,
		// Takeout JSON) included: explain never tells another story.
		var d pipeline.Decision
		if err == nil {
			d, err = pipeline.DecideWith(f, opt, pipeline.DecideOptions{Hidden: *hidden, Shift: rules, NoModTime: *noMtime, TrustModTime: *trustMtime})
		}
		if err != nil {
			fmt.Fprintf(env.Stderr, "shoebox: explain %s: %s\n", quote.Path(f), shown(sentence(err)))
			if enc != nil {
				_ = enc.Encode(problemLine{Type: "problem", Path: f, PathBytes: rawBytes(f), Reason: sentence(err)})
			}
			failed = true
			continue
		}
		if enc != nil {
			explainJSON(enc, f, d)
			continue
		}
		explainOne(env.Stdout, f, d)
	}
	if failed {
		return exitError{ExitIncomplete}
	}
	return nil
}

func explainOne(w io.Writer, path string, d pipeline.Decision) {
	in := d.Info
	fmt.Fprintf(w, "%s\n  kind %s, format %s", shown(path), in.Kind, shown(orDash(in.Format)))
	if in.Make != "" || in.Model != "" {
		fmt.Fprintf(w, ", camera %s %s", shown(in.Make), shown(in.Model))
	}
	if in.ContentID != "" {
		fmt.Fprintf(w, ", content id %s", shown(in.ContentID))
	}
	fmt.Fprintln(w)
	if in.Warning != "" {
		fmt.Fprintf(w, "  warning: %s\n", shown(in.Warning))
	}
	for _, n := range d.Notes {
		fmt.Fprintf(w, "  note: %s\n", shown(n))
	}
	for _, c := range in.Candidates {
		mark := " "
		if d.Chosen(c) {
			mark = "*"
		}
		fmt.Fprintf(w, "  %s %-28s %-26q %s", mark, shown(c.Tag), c.Raw, formatDate(c.Date))
		if note := d.Note(c); note != "" {
			fmt.Fprintf(w, "  (%s)", shown(note))
		}
		fmt.Fprintln(w)
	}
	switch d.Role {
	case pipeline.RoleIgnored, pipeline.RoleOrphan:
		fmt.Fprintf(w, "  → left in place: %s\n", shown(strings.TrimSuffix(d.Reason, ": left in place")))
		return
	case pipeline.RoleFollows:
		fmt.Fprintf(w, "  → travels with %s, under its date and name\n", shown(filepath.Base(d.Leader)))
	}
	if d.Date.IsZero() && d.DateNote != "" {
		fmt.Fprintf(w, "  → no date (%s): goes to the unknown folder\n", shown(d.DateNote))
		return
	}
	if d.Date.IsZero() {
		fmt.Fprintln(w, "  → no date: goes to the unknown folder")
		return
	}
	if d.Date.ShiftRule != "" {
		before := d.Date
		before.Wall = d.Date.Unshifted()
		fmt.Fprintf(w, "  shifted %s by --shift %s: %s → %s\n", shift.Format(d.Date.Shift), shown(d.Date.ShiftRule),
			formatDate(before), formatDate(d.Date))
	}
	fmt.Fprintf(w, "  → %s from %s (%s): files under %s\n", formatDate(d.Date), shown(d.Date.Tag), d.Date.Source,
		filepath.FromSlash(d.Date.Wall.Format("2006/2006-01-02")))
}

func formatDate(d meta.Date) string {
	if d.Wall.IsZero() {
		return "-"
	}
	s := d.Wall.Format("2006-01-02 15:04:05.000")
	if d.HasOffset {
		s += time.Date(2000, 1, 1, 0, 0, 0, 0, time.FixedZone("", d.Offset)).Format(" -07:00")
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
