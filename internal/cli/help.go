package cli

import "fmt"

const mainHelp = `shoebox — sort a pile of photos and videos into a library by capture date

Usage:
  shoebox sort [flags] SRC... DEST   sort photos and videos from SRC into DEST
  shoebox explain FILE...            show every date found in a file and which one wins
  shoebox log DEST                   list the runs recorded in a library
  shoebox undo [--dry-run] [DEST] [RUN-ID]
                                     reverse the last run into DEST (default: .), or the run named
  shoebox index DEST                 build or refresh the duplicate index of a library
  shoebox check [--read-data] DEST   compare a library with what shoebox recorded of it
  shoebox relayout -t TEMPLATE DEST  move a library's files to a new layout (undoable)
  shoebox completion SHELL          print a completion script (bash, zsh, fish, powershell)
  shoebox version                    print the version
  shoebox help [COMMAND]             show help for a command

Examples:
  shoebox sort --dry-run --report plan.html /media/card ~/Pictures/Library
                                     see what would happen, as a page to read
  shoebox sort /media/card ~/Pictures/Library
  shoebox sort --mode move ~/Downloads/phone ~/Pictures/Library
  shoebox explain IMG_0042.HEIC
  shoebox undo ~/Pictures/Library

Run "shoebox help sort" (or shoebox sort --help) for every flag of sort.

Exit codes: 0 done, 1 fatal error, 2 bad command line, 3 done but some files
failed or could not be read, 130 interrupted (run the same command to resume).
`

const sortHelp = `Usage: shoebox sort [flags] SRC... DEST

Copies (or moves, or links) every photo and video found under each SRC into
DEST, at a path made from its capture date. Nothing is ever overwritten: a
file identical to the one already at its target is skipped, a different one
gets a "-1", "-2"... suffix. A killed run leaves no half-written file, and the
same command run again finishes the job. A SRC may be a .zip, .tar, .tgz or
.tar.gz file: its members are sorted without extracting it (--mode copy or
reflink only; docs/archives.md).

The capture date comes from the file's own metadata (EXIF, IPTC, XMP,
QuickTime/MP4, maker records), else a date in its name (IMG_20190704_153000,
PXL_..., WhatsApp IMG-20190704-WA0001), else a modification time that can
be trusted; the full order is in docs/dates.md, and "shoebox explain FILE"
shows every candidate and which one won. Files with no date go to
DEST/unknown/.

The date is the camera's clock, as it showed it. Its UTC offset (used to
tell whether a photo and a video of one name are one shot, e.g. a Live
Photo beside a phone video stored in UTC) comes from EXIF OffsetTime*, or
from the photo's GPS time stamp (the difference from the clock, to the
quarter hour), or else from --tz.

Flags:
  -t, --template T     destination layout (default "{year}/{year}-{month}-{day}/{name}{ext}");
                       a library keeps the one its first sort used: a -t that differs
                       is refused, as it would start a second layout beside the first
      --one-off        with -t: use that template for this run only, beside the
                       library's layout
      --mode M         copy (default), move, hardlink, symlink, reflink
      --workers N      files transferred at once, 1 to 256 (default, or 0: chosen from
                       the storage, 4 on SSDs, 1 per spinning disk, 4 on network shares)
  -n, --dry-run        print the plan, change nothing
      --dedup on|off   skip files whose content is already in DEST or earlier in the run (default on)
      --delete-duplicates (with --mode move) remove a duplicate source once its kept
                       copy is in DEST and verified identical (default: leave it in place)
      --verify         re-read each copy and compare it with its source
      --checksum       compare content even where the import history recognises a file
                       by its stat data (size, mtime, inode, change time), and walk the
                       whole library to rebuild its index
      --reimport       bring back files imported before and since deleted or edited in DEST
      --follow-links   follow symbolic links (loops are detected)
      --hidden         include hidden files and system clutter (.DS_Store, @eaDir ...)
      --unknown-dir D  folder for files with no date (default "unknown")
      --mtime          date a file that has no other date by its modification time even
                       when that looks like a copy's (by default one that is not older
                       than the file's change time, or is from the last 7 days, is not
                       trusted: the file goes to the unknown folder, and is listed);
                       one before 1980 or in the future is never used
      --no-mtime       never date files by modification time: send them to the unknown folder
      --video-tz Z     zone for video times stored in UTC: local (default), UTC, +02:00, Europe/Paris
      --tz Z           the zone the camera's clock was set to (Europe/Paris, UTC, local, +05:30),
                       for photos whose file gives no UTC offset; default: none assumed
      --date-tags LIST which date fields win, first named first (comma-separated, any
                       case; those not named follow in the default order): DateTimeOriginal,
                       XMP:DateCreated, IPTC:DateCreated, XMP:DateTimeOriginal, CreateDate,
                       XMP:CreateDate, IPTC:DigitalCreationDate, Maker, PNG:CreationTime,
                       ModifyDate, XMP:ModifyDate, PNG:DateModify, PNG:DateCreate,
                       QuickTime:CreationDate, QuickTime:CreateDate (the default order)
      --shift RULE     correct a camera's clock (repeatable), the source untouched:
                       "MODEL=+1h30m" (EXIF Model, case ignored), "folder:PATH=-2d3h"
                       (files under that folder), "+1h" (every file); the most specific
                       rule wins; a pair and its sidecars move together
      --backup DIR     also write every file transferred to DIR, under the same path as
                       in the library, from the same reads of the source (--mode copy,
                       move or reflink; a move removes its source only once both copies
                       are durable and verified); journaled: undo removes it too; a
                       failure of either copy fails the file. DIR is an existing
                       folder apart from the library and every source (never created:
                       a drive not connected is refused, exit 2)
      --no-backup      no backup copy this run, though the library's config sets one
      --eject          after a run where every photo and video on the card is in the
                       library, unmount the sources' volume when it is removable or
                       a loop device (Linux: udisksctl or umount; macOS: diskutil
                       eject); never after a failure, never with the library on the
                       same device (a bind mount too), never while a photo or video
                       on it is not in the library (left out by a filter, hidden,
                       outside the folders sorted): the line names them
      --report FILE    also write an HTML report of the run (or of the plan) to FILE
      --log-file FILE  also append what -v prints, the warnings and the summary, each
                       line stamped with its time, to FILE (for cron and the like; only
                       to a log shoebox began, never inside a source or the library)
      --json           write one JSON object per file and a summary object to stdout
  -q, --quiet          print nothing but errors
  -v, --verbose        one line per file: source → destination and why (the date and
                       the field it came from, a rename), or why it stays (the filter's
                       rule, a duplicate, not media)

Narrowing an import (each file left out is counted, and listed with its
reason in --json and the report; a file with no date never passes a date filter):
      --include GLOB   only files whose path below SRC matches (repeatable; "**" spans
                       folders; a pattern without "/" matches any one folder or file name)
      --exclude GLOB   leave out files whose path matches (repeatable), e.g. --exclude Trash
      --include-from FILE  --include each pattern of FILE, one a line (- reads stdin;
                       blank lines and lines starting with # or ; are skipped)
      --exclude-from FILE  --exclude each pattern of FILE, read the same way
      --files-from FILE    only the files FILE lists, one path a line, relative to
                       SRC or absolute (the others are left out, counted)
      --kind K         photo or video
      --ext LIST       only these extensions: --ext jpg,heic,cr2
      --max-depth N    only files at most N folders below SRC (1: directly in SRC)
      --min-size S     leave out files smaller than S (500K, 2M, 1G)
      --max-size S     leave out files larger than S
      --since DATE     taken on or after DATE (2021-07-04, 2021-07, 2021), or within
                       a time ago on the local clock: 7d, 2w, 36h, today, yesterday
      --until DATE     taken on or before DATE (the whole day, month or year named),
                       or before a time ago: --until 2w, taken over two weeks ago
      --skip-unknown   files with no date stay where they are (counted and listed),
                       instead of going to the unknown folder

Output:
  Problems go to stderr as they happen (of many of one kind, the first 5,
  the rest counted in one line at the end; all with -v); a summary follows
  at the end (counts, the bytes transferred, the time and the rate), then
  every failed path again in a short list. While
  a stage runs, a live progress line (what it does, files, files/s; for the
  copy bytes, MB/s and time left from the bytes) shows on a terminal, or a
  plain line every few seconds when stderr is a log. With
  --dry-run each planned file is listed on stdout. --json puts JSON lines
  on stdout instead (see docs/json.md), the readable summary on stderr. --report
  writes one self-contained HTML page after the run, also after a dry run
  or a run where some files failed. Ctrl-C stops after the files in flight;
  the same command run again picks up where it stopped.

Config files:
  Flags not given come from DEST/.shoebox/config.toml, then
  ~/.config/shoebox/config.toml (keys: template, mode, workers, dedup,
  unknown_dir, video_tz, tz, no_mtime, verify, follow_links, hidden). The
  first sort into a library records its template there. backup = "/abs/DIR"
  is read from the library's file only: a standing --backup for every sort
  into it, which fails (exit 2) when DIR is not there, as when its drive is
  not connected; --no-backup skips it for one run.

Template tokens:
  {year} {yy} {month} {monthname} {mon} {day} {hour} {minute} {second} {date}
  {name} {ext} {make} {model} {kind} {counter} {counter:4}
  {folder} (the folder a file was in) {folder:2} (the one above) {source}
  {album} (the Google Takeout album a file is in)
  add :lower or :upper to a text token: {ext:lower}

Examples:
  shoebox sort --dry-run --report plan.html /media/card ~/Pictures/Library
  shoebox sort /media/card ~/Pictures/Library
  shoebox sort -t "{year}/{month}/{date}_{name}{ext:lower}" ~/old-backup ~/Pictures/Library
  shoebox sort --mode move --verify ~/phone-dump /mnt/nas/photos
  shoebox sort --json -q /media/card ~/Pictures/Library | jq 'select(.outcome=="failed")'

Exit codes: 0 done, 1 fatal error, 2 bad command line, 3 some files failed,
130 interrupted (run the same command again to resume).
`

const explainHelp = `Usage: shoebox explain [--tz Z] [--video-tz Z] [--date-tags LIST] [--shift RULE] [--mtime|--no-mtime] [--hidden] [--json] FILE...

Prints every capture-date candidate found in each file (tag, value, offset),
which one wins, and why; "offset from GPS time" when the photo's GPS time
stamp gave its UTC offset. The verdict is the one sort reaches: the files
beside it that sort groups with it (sidecars, Takeout JSON, a THM, the
other half of a RAW+JPEG pair or a Live Photo) are read too, so an undated
photo shows the date it borrows, and a companion the file it travels with.

Flags:
      --tz Z           the zone the camera's clock was set to, for photos whose file
                       gives no UTC offset (as for sort); default: none assumed
      --video-tz Z     zone for video times stored in UTC: local (default), UTC, +02:00
      --date-tags LIST which date fields win (as for sort)
      --shift RULE     the --shift rules sort is given (repeatable): shows the date
                       before and after, and which rule moved it
      --mtime          trust a modification time that looks like a copy's (as sort --mtime)
      --no-mtime       never date by modification time (as sort --no-mtime)
      --hidden         count hidden companions too (as sort --hidden)
      --json           one JSON object per file on stdout (see docs/json.md)
`

var helps = map[string]string{
	"sort":       sortHelp,
	"explain":    explainHelp,
	"log":        "Usage: shoebox log [--json] DEST\n\nLists the runs recorded in DEST/.shoebox/journal, newest last; the first\nword of each line is the run's id, which shoebox undo DEST RUN-ID takes.\nEach sort run shows its state (running; complete; interrupted: Ctrl-C or killed;\nstopped: by an error; undone; partially undone: an undo of it stopped\nbefore its end), its files as its summary counted them, and the run that\nresumed it or the undo that reversed it.\n\nFlags:\n      --json   one JSON object per run on stdout (see docs/json.md)\n",
	"undo":       undoHelp,
	"index":      "Usage: shoebox index [--workers N] DEST\n\nHashes every file in a library (reusing hashes of unchanged files) so later\nruns detect duplicates against it without re-reading it, and rebuilds the\nlibrary index from the same walk: files added to the library by hand are\nthen known to later imports.\n\nFlags:\n      --workers N   files hashed at once, 1 to 256 (default 4)\n",
	"check":      checkHelp,
	"relayout":   relayoutHelp,
	"completion": "Usage: shoebox completion bash|zsh|fish|powershell\n\nPrints a completion script that completes commands, each command's flags,\nmodes and template tokens. For bash: source <(shoebox completion bash);\nfor PowerShell: shoebox completion powershell | Out-String | Invoke-Expression\n",
}

func cmdHelp(env Env, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(env.Stdout, mainHelp)
		return nil
	}
	switch args[0] {
	case "man": // the man page, rendered from these texts (man.go)
		return writeMan(env.Stdout)
	case "-h", "--help", "help", "version":
		// help and version have no flags of their own: their usage lines
		// are in the main help.
		fmt.Fprint(env.Stdout, mainHelp)
		return nil
	}
	h, ok := helps[args[0]]
	if !ok {
		return usagef("no help for %q%s (commands: sort, explain, log, undo, index, check, relayout, completion)", args[0], suggestCommand(args[0]))
	}
	fmt.Fprint(env.Stdout, h)
	return nil
}
