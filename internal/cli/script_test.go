package cli

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/shoebox-photos/shoebox/internal/fixture"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// The scripts in testdata/script run the real command in a fresh temp dir
// each, as a user would type it: see there for what they check.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"shoebox": func() { os.Exit(Main(os.Args[1:])) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"mkjpeg":    mkjpeg,
			"mkxmpjpeg": mkxmpjpeg,
			"mkmov":     mkmov,
			"mtime":     setMtime,
			"firstword": firstWord,
			"writefile": writeFileCmd,
			"flipbyte":  flipByte,
			"mkzip":     mkzip,
			"mktar":     mktar,
		},
		Condition: func(cond string) (bool, error) {
			if cond == "wine" { // a Wine limitation, not Windows behaviour: docs/platforms.md
				return fsxtest.UnderWine(), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("TZ", "UTC")
			// A shoebox built with -race sleeps a second as it exits
			// (atexit_sleep_ms, default 1000), which made the scripts'
			// hundreds of runs take ten times their work; races are
			// still reported, as the program finds them.
			gorace, set := os.LookupEnv("GORACE")
			if !set {
				gorace = "atexit_sleep_ms=0"
			}
			env.Setenv("GORACE", gorace)
			return nil
		},
	})
}

// mkjpeg FILE DATE [MAKE] [model=MODEL] [gps=UTCDATE] writes a real JPEG whose EXIF
// DateTimeOriginal is DATE (2006-01-02T15:04:05), or no EXIF at all when
// DATE is "none" (a scan), and, with gps=, whose GPS
// time stamp is UTCDATE; the file's bytes depend on FILE's base name, so
// two names never make identical files unless asked with the same name.
func mkjpeg(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: mkjpeg FILE DATE [MAKE] [gps=UTCDATE]")
	}
	if args[1] == "none" {
		ts.Check(os.WriteFile(mkdirFor(ts, args[0]), undatedJPEG(args[0]), 0o644))
		return
	}
	when, err := time.Parse("2006-01-02T15:04:05", args[1])
	ts.Check(err)
	e := fixture.EXIF{When: when, Camera: fixture.Camera{Make: "Canon", Model: "EOS"}}
	for _, a := range args[2:] {
		if v, ok := strings.CutPrefix(a, "gps="); ok {
			e.GPS, err = time.Parse("2006-01-02T15:04:05", v)
			ts.Check(err)
			continue
		}
		if v, ok := strings.CutPrefix(a, "model="); ok {
			e.Camera.Model = v
			continue
		}
		e.Camera.Make = a
	}
	name := mkdirFor(ts, args[0])
	e.Comment = filepath.Base(name)
	ts.Check(os.WriteFile(name, fixture.JPEG(e), 0o644))
}

// mkxmpjpeg FILE ATTR... writes a real JPEG with no EXIF whose XMP packet
// (APP1) holds the attributes ATTR (photoshop:DateCreated="2003-07-08"), as
// a scan dated in Lightroom or digiKam.
func mkxmpjpeg(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: mkxmpjpeg FILE ATTR...")
	}
	packet := `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
		`<rdf:Description ` + strings.Join(args[1:], " ") + `/></rdf:RDF></x:xmpmeta>`
	seg := append([]byte("http://ns.adobe.com/xap/1.0/\x00"), packet...)
	b := []byte{0xFF, 0xD8, 0xFF, 0xE1, byte((len(seg) + 2) >> 8), byte(len(seg) + 2)}
	b = append(append(b, seg...), undatedJPEG(args[0])[2:]...)
	ts.Check(os.WriteFile(mkdirFor(ts, args[0]), b, 0o644))
}

// undatedJPEG is a JPEG with no EXIF and no date in its name's text: start
// of image, a comment that makes its bytes unique, end of image.
func undatedJPEG(name string) []byte {
	comment := "scan " + filepath.Base(name)
	b := []byte{0xFF, 0xD8, 0xFF, 0xFE, byte((len(comment) + 2) >> 8), byte(len(comment) + 2)}
	return append(append(b, comment...), 0xFF, 0xD9)
}

// mkmov FILE UTCDATE writes a minimal real QuickTime movie whose mvhd
// creation time is UTCDATE (2006-01-02T15:04:05), as a phone writes it.
func mkmov(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: mkmov FILE UTCDATE")
	}
	when, err := time.Parse("2006-01-02T15:04:05", args[1])
	ts.Check(err)
	ts.Check(os.WriteFile(mkdirFor(ts, args[0]), fixture.MOV(when), 0o644))
}

// mtime FILE DATE sets FILE's modification time to DATE
// (2006-01-02T15:04:05), as cp -p or rsync -t carry one over: its change
// time stays now.
func setMtime(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: mtime FILE DATE")
	}
	when, err := time.Parse("2006-01-02T15:04:05", args[1])
	ts.Check(err)
	ts.Check(os.Chtimes(ts.MkAbs(args[0]), when, when))
}

// firstword VAR FILE sets VAR to the first word of FILE's first line (a
// run id from shoebox log), as a shell would cut it, without a shell.
func firstWord(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: firstword VAR FILE")
	}
	words := strings.Fields(strings.SplitN(ts.ReadFile(args[1]), "\n", 2)[0])
	if len(words) == 0 {
		ts.Fatalf("%s: no word on its first line", args[1])
	}
	ts.Setenv(args[0], words[0])
}

// writefile FILE TEXT writes TEXT and a newline to FILE, its folder made:
// a file whose text holds $WORK (expanded outside single quotes), which
// a txtar section cannot, without a shell.
func writeFileCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: writefile FILE TEXT")
	}
	ts.Check(os.WriteFile(mkdirFor(ts, args[0]), []byte(args[1]+"\n"), 0o644))
}

// flipbyte FILE changes one byte in the middle of FILE in place and puts
// its mtime back: a disk's silent corruption, which keeps size and mtime.
func flipByte(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: flipbyte FILE")
	}
	name := ts.MkAbs(args[0])
	info, err := os.Stat(name)
	ts.Check(err)
	b, err := os.ReadFile(name)
	ts.Check(err)
	b[len(b)/2] ^= 0x55
	ts.Check(os.WriteFile(name, b, info.Mode()))
	ts.Check(os.Chtimes(name, info.ModTime(), info.ModTime()))
}

// mkdirFor makes the folder of the script-relative file and returns its path.
func mkdirFor(ts *testscript.TestScript, file string) string {
	name := ts.MkAbs(file)
	ts.Check(os.MkdirAll(filepath.Dir(name), 0o755))
	return name
}

// mkzip ZIP [store] [cut=N] ENTRY... writes a zip archive: each ENTRY is
// NAME=FILE (the member NAME, stored as given, whatever it holds, with
// FILE's bytes and mtime; a NAME may come twice), or encrypted:NAME=FILE
// (the header's encryption flag set over plain bytes). store leaves the
// members uncompressed; cut=N drops the archive's last N bytes (a
// download cut short).
func mkzip(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: mkzip ZIP [store] [cut=N] NAME=FILE...")
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	method, cut := zip.Deflate, 0
	for _, a := range args[1:] {
		if a == "store" {
			method = zip.Store
			continue
		}
		if v, ok := strings.CutPrefix(a, "cut="); ok {
			n, err := strconv.Atoi(v)
			ts.Check(err)
			cut = n
			continue
		}
		spec, encrypted := strings.CutPrefix(a, "encrypted:")
		name, file, ok := strings.Cut(spec, "=")
		if !ok {
			ts.Fatalf("mkzip: %q is not NAME=FILE", a)
		}
		data, err := os.ReadFile(ts.MkAbs(file))
		ts.Check(err)
		info, err := os.Stat(ts.MkAbs(file))
		ts.Check(err)
		fh := &zip.FileHeader{Name: name, Method: method, Modified: info.ModTime()}
		if encrypted {
			fh.Flags |= 0x1
		}
		w, err := zw.CreateHeader(fh)
		ts.Check(err)
		_, err = w.Write(data)
		ts.Check(err)
	}
	ts.Check(zw.Close())
	ts.Check(os.WriteFile(mkdirFor(ts, args[0]), buf.Bytes()[:buf.Len()-cut], 0o644))
}

// mktar TAR [cut=N] ENTRY... writes a tar, gzip'd when TAR ends in .tgz
// or .tar.gz: each ENTRY is NAME=FILE (the member NAME, as given, with
// FILE's bytes and mtime; a NAME may come twice), symlink:NAME=TARGET or
// fifo:NAME. cut=N drops the file's last N bytes (a download cut short).
func mktar(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: mktar TAR [cut=N] NAME=FILE|symlink:NAME=TARGET|fifo:NAME...")
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	cut := 0
	for _, a := range args[1:] {
		if v, ok := strings.CutPrefix(a, "cut="); ok {
			n, err := strconv.Atoi(v)
			ts.Check(err)
			cut = n
			continue
		}
		ts.Check(writeTarEntry(ts, tw, a))
	}
	ts.Check(tw.Close())
	data := buf.Bytes()
	if !strings.HasSuffix(args[0], ".tar") {
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		_, err := zw.Write(data)
		ts.Check(err)
		ts.Check(zw.Close())
		data = gz.Bytes()
	}
	ts.Check(os.WriteFile(mkdirFor(ts, args[0]), data[:len(data)-cut], 0o644))
}

func writeTarEntry(ts *testscript.TestScript, tw *tar.Writer, spec string) error {
	if name, ok := strings.CutPrefix(spec, "fifo:"); ok {
		return tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeFifo, Mode: 0o644})
	}
	link, isLink := strings.CutPrefix(spec, "symlink:")
	if isLink {
		name, target, _ := strings.Cut(link, "=")
		return tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeSymlink, Linkname: target, Mode: 0o777})
	}
	name, file, ok := strings.Cut(spec, "=")
	if !ok {
		ts.Fatalf("mktar: %q is not NAME=FILE", spec)
	}
	data, err := os.ReadFile(ts.MkAbs(file))
	ts.Check(err)
	info, err := os.Stat(ts.MkAbs(file))
	ts.Check(err)
	if err := tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(data)), ModTime: info.ModTime()}); err != nil {
		return err
	}
	_, err = tw.Write(data)
	return err
}
