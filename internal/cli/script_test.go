package cli

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"shoebox/internal/fixture"
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
			"mkjpeg": mkjpeg,
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("TZ", "UTC")
			return nil
		},
	})
}

// mkjpeg FILE DATE [MAKE] writes a real JPEG whose EXIF DateTimeOriginal is
// DATE (2006-01-02T15:04:05); the file's bytes depend on FILE's base name,
// so two names never make identical files unless asked with the same name.
func mkjpeg(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: mkjpeg FILE DATE [MAKE]")
	}
	when, err := time.Parse("2006-01-02T15:04:05", args[1])
	ts.Check(err)
	cam := fixture.Camera{Make: "Canon", Model: "EOS"}
	if len(args) > 2 {
		cam.Make = args[2]
	}
	name := ts.MkAbs(args[0])
	base := name[strings.LastIndex(name, "/")+1:]
	ts.Check(os.MkdirAll(name[:len(name)-len(base)], 0o755))
	ts.Check(os.WriteFile(name, fixture.JPEG(fixture.EXIF{When: when, Camera: cam, Comment: base}), 0o644))
}
