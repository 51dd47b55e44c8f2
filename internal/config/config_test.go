package config

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

// homes points the user config at a temp dir and returns its file path.
func homes(t *testing.T) (userFile string) {
	t.Helper()
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	return filepath.Join(xdg, "shoebox", "config.toml")
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadLibraryWinsOverUser(t *testing.T) {
	user := homes(t)
	dest := t.TempDir()
	writeFile(t, user, `
# my defaults
template = "{year}/{month}/{name}{ext}"
mode = "move"
workers = 3
verify = true
video_tz = "Europe/Berlin"
`)
	writeFile(t, LibraryPath(dest), `template = "{year}/{year}-{month}-{day}/{name}{ext}"
dedup = false
workers = 1
`)
	s, sources, err := Load(dest)
	if err != nil {
		t.Fatal(err)
	}
	want := Settings{
		Template: ptr("{year}/{year}-{month}-{day}/{name}{ext}"), Mode: ptr("move"), Workers: ptr(1),
		Dedup: ptr(false), Verify: ptr(true), VideoTZ: ptr("Europe/Berlin"),
	}
	if s.String() != want.String() {
		t.Errorf("Load = %v\nwant   %v", s, want)
	}
	if len(sources) != 2 || sources[0] != user || sources[1] != LibraryPath(dest) {
		t.Errorf("sources = %q, want user then library file", sources)
	}
	if s.Hidden != nil || s.FollowLinks != nil || s.NoMtime != nil || s.UnknownDir != nil {
		t.Errorf("keys in neither file are set: %v", s)
	}
}

func TestLoadWithoutFiles(t *testing.T) {
	homes(t)
	s, sources, err := Load(filepath.Join(t.TempDir(), "new-library"))
	if err != nil || !s.IsZero() || len(sources) != 0 {
		t.Errorf("Load with no files = %v, %q, %v; want nothing set", s, sources, err)
	}
}

func TestUserPathFallsBackToHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)        // os.UserHomeDir on Unix
	t.Setenv("USERPROFILE", home) // and on Windows
	for _, xdg := range []string{"", "relative/dir"} {
		t.Setenv("XDG_CONFIG_HOME", xdg)
		if got, want := UserPath(), filepath.Join(home, ".config", "shoebox", "config.toml"); got != want {
			t.Errorf("XDG_CONFIG_HOME=%q: UserPath = %q, want %q", xdg, got, want)
		}
	}
	writeFile(t, filepath.Join(home, ".config", "shoebox", "config.toml"), "hidden = true\n")
	s, sources, err := Load(t.TempDir())
	if err != nil || s.Hidden == nil || !*s.Hidden || len(sources) != 1 {
		t.Errorf("Load from ~/.config = %v, %q, %v", s, sources, err)
	}
}

// backupDir is an absolute path on this system (a drive letter on
// Windows), written in TOML as a literal string (no escapes).
var backupDir = map[bool]string{false: "/media/backup/Photos", true: `D:\Backup\Photos`}[runtime.GOOS == "windows"]

func TestAllKeys(t *testing.T) {
	homes(t)
	dest := t.TempDir()
	writeFile(t, LibraryPath(dest), `template = "{year}/{name}{ext}"
mode = "hardlink"
workers = 8
dedup = true
unknown_dir = "undated"
video_tz = "+02:00"
tz = "Asia/Kolkata"
no_mtime = true
verify = true
follow_links = true
hidden = false
backup = '`+backupDir+`'
`)
	s, _, err := Load(dest)
	if err != nil {
		t.Fatal(err)
	}
	want := "template={year}/{name}{ext} mode=hardlink workers=8 dedup=true unknown_dir=undated " +
		"video_tz=+02:00 tz=Asia/Kolkata no_mtime=true verify=true follow_links=true hidden=false backup=" + backupDir
	if s.String() != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
}

func TestMerge(t *testing.T) {
	base := Settings{Mode: ptr("copy"), Workers: ptr(4), Dedup: ptr(true)}
	over := Settings{Workers: ptr(2), Dedup: ptr(false), Hidden: ptr(true)}
	got := base.Merge(over)
	if got.String() != "mode=copy workers=2 dedup=false hidden=true" {
		t.Errorf("Merge = %v", got)
	}
	if *base.Workers != 4 || base.Hidden != nil {
		t.Errorf("Merge changed its receiver: %v", base)
	}
	if got := base.Merge(Settings{}); got.String() != base.String() {
		t.Errorf("Merge with nothing = %v, want %v", got, base)
	}
}

// errorFor writes text as the library config and returns its path and
// Load's error.
func errorFor(t *testing.T, text string) (string, error) {
	t.Helper()
	homes(t)
	dest := t.TempDir()
	writeFile(t, LibraryPath(dest), text)
	_, _, err := Load(dest)
	if err == nil {
		t.Fatalf("Load accepted %q", text)
	}
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("error %v does not wrap ErrInvalid", err)
	}
	return LibraryPath(dest), err
}

func TestUnknownKeys(t *testing.T) {
	tests := []struct{ text, want string }{
		{"workers = 2\nunknown-dir = \"x\"\n", `:2: unknown key "unknown-dir"; did you mean "unknown_dir"?`},
		{"tempalte = \"{year}\"\n", `:1: unknown key "tempalte"; did you mean "template"?`},
		{"\n\nverfiy = true\n", `:3: unknown key "verfiy"; did you mean "verify"?`},
		{"colour = \"red\"\n", `:1: unknown key "colour"; valid keys are template, mode, workers`},
		{"mode = \"copy\"\n[sort]\nmode = \"move\"\n", `:2: unknown key "sort"`},
	}
	for _, tc := range tests {
		path, err := errorFor(t, tc.text)
		if !strings.Contains(err.Error(), path+tc.want) {
			t.Errorf("config %q:\n got  %v\n want %s%s", tc.text, err, path, tc.want)
		}
	}
}

// TestKeysIgnoreCase pins go-toml's matching of keys to fields, which
// ignores case: "Verify" sets verify.
func TestKeysIgnoreCase(t *testing.T) {
	s, err := Parse("x.toml", []byte("Verify = true\nWORKERS = 3\n"))
	if err != nil || s.String() != "workers=3 verify=true" {
		t.Errorf("Parse = %v, %v", s, err)
	}
}

func TestTwoUnknownKeysBothReported(t *testing.T) {
	path, err := errorFor(t, "workerz = 2\nhiden = true\n")
	msg := err.Error()
	if !strings.Contains(msg, path+`:1: unknown key "workerz"; did you mean "workers"?`) ||
		!strings.Contains(msg, path+`:2: unknown key "hiden"; did you mean "hidden"?`) {
		t.Errorf("got %v", err)
	}
	var fe *FileError
	if !errors.As(err, &fe) || fe.Key != "workerz" || fe.Line != 1 {
		t.Errorf("errors.As FileError = %+v", fe)
	}
}

func TestWrongTypesAndValues(t *testing.T) {
	tests := []struct{ text, want string }{
		{"mode = \"copy\"\nworkers = \"four\"\n", ":2: workers must be an integer, not a TOML string"},
		{"workers = 2.5\n", ":1: workers must be an integer, not a TOML float"},
		{"dedup = \"off\"\n", ":1: dedup must be true or false, not a TOML string (write dedup = false, without quotes)"},
		{"template = 7\n", ":1: template must be a quoted string, not a TOML integer"},
		{"workers = 0\n", ":1: workers must be 1 to 256, not 0"},
		{"\nworkers = 1000\n", ":2: workers must be 1 to 256, not 1000"},
		{"verify = true\nmode = \"teleport\"\n", `:2: mode "teleport": want one of copy, move`},
		{"template = \"{yaer}/{name}\"\n", `:1: template "{yaer}/{name}"`},
		{"unknown_dir = \"  \"\n", ":1: unknown_dir must name a folder"},
		{"video_tz = \"\"\n", ":1: video_tz must name a zone"},
		{"mode = \"copy\"\ntz = \" \"\n", ":2: tz must name the zone the camera's clock was set to"},
		{"tz = 2\n", ":1: tz must be a quoted string, not a TOML integer"},
		{"workers = \n", ":1: "},
		{"mode = \"copy\"\nmode = \"move\"\n", ":2: key mode is already defined"},
	}
	for _, tc := range tests {
		path, err := errorFor(t, tc.text)
		if !strings.Contains(err.Error(), path+tc.want) {
			t.Errorf("config %q:\n got  %v\n want %s%s", tc.text, err, path, tc.want)
		}
	}
}

func TestOversizedAndUnreadable(t *testing.T) {
	path, err := errorFor(t, "# "+strings.Repeat("x", maxConfigSize)+"\n")
	if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "over") {
		t.Errorf("oversized config: %v", err)
	}
	homes(t)
	dest := t.TempDir()
	if err := os.MkdirAll(LibraryPath(dest), 0o755); err != nil { // a directory where the file should be
		t.Fatal(err)
	}
	_, _, err = Load(dest)
	if err == nil || !strings.Contains(err.Error(), LibraryPath(dest)) || errors.Is(err, ErrInvalid) {
		t.Errorf("config path is a directory: err = %v, want a read error naming it", err)
	}
}

func TestSaveLibraryRoundTrip(t *testing.T) {
	homes(t)
	dest := filepath.Join(t.TempDir(), "library") // does not exist yet
	s := Settings{Template: ptr("{year}/{year}-{month}/{name}{ext}"), Mode: ptr("copy"), Workers: ptr(2), Dedup: ptr(false)}
	if err := SaveLibrary(dest, s); err != nil {
		t.Fatal(err)
	}
	got, sources, err := Load(dest)
	if err != nil || got.String() != s.String() || len(sources) != 1 {
		t.Fatalf("Load after SaveLibrary = %v, %q, %v; want %v", got, sources, err, s)
	}
	data, _ := os.ReadFile(LibraryPath(dest))
	if !strings.HasPrefix(string(data), "# shoebox library settings") || strings.Contains(string(data), "hidden") {
		t.Errorf("saved file:\n%s", data)
	}
	if err := SaveLibrary(dest, Settings{Template: ptr("{year}/{name}{ext}")}); err != nil {
		t.Fatal(err)
	}
	got, _, _ = Load(dest)
	if got.String() != "template={year}/{name}{ext}" {
		t.Errorf("second save replaces the file: got %v", got)
	}
	entries, _ := os.ReadDir(filepath.Dir(LibraryPath(dest)))
	if len(entries) != 1 {
		t.Errorf("temporary files left beside the config: %v", entries)
	}
}

// TestSaveLibraryFailsWhereStateDirIsAFile uses a real file in the way of
// the .shoebox directory, which fails even for root.
func TestSaveLibraryFailsWhereStateDirIsAFile(t *testing.T) {
	dest := t.TempDir()
	writeFile(t, filepath.Join(dest, ".shoebox"), "not a directory")
	err := SaveLibrary(dest, Settings{Mode: ptr("copy")})
	if err == nil || !strings.Contains(err.Error(), LibraryPath(dest)) {
		t.Errorf("SaveLibrary with .shoebox a file: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dest, ".shoebox")); string(data) != "not a directory" {
		t.Errorf("SaveLibrary changed the file in its way: %q", data)
	}
}

func TestClosestKey(t *testing.T) {
	for in, want := range map[string]string{
		"follow-links": "follow_links", "nomtime": "no_mtime", "videotz": "video_tz", "WORKERS": "workers",
		"zzzzzzzz": "", "x": "", "dedupe": "dedup", "TZ": "tz", "tzz": "tz",
	} {
		if got := closestKey(in); got != want {
			t.Errorf("closestKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// backup is a library's setting: an absolute folder in the library's
// file; in the user's file it is refused with the line and the reason.
func TestBackupKeyIsTheLibrarys(t *testing.T) {
	user := homes(t)
	dest := t.TempDir()
	writeFile(t, LibraryPath(dest), "backup = \"bak\"\n")
	_, _, err := Load(dest)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "config.toml:1: backup \"bak\" must be an absolute path") {
		t.Errorf("relative backup: %v", err)
	}
	writeFile(t, LibraryPath(dest), "")
	writeFile(t, user, "workers = 2\nbackup = '"+backupDir+"'\n")
	_, _, err = Load(dest)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), user+":2: backup is a library's setting") {
		t.Errorf("backup in the user's config: %v", err)
	}
}
