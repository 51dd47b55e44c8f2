package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/shoebox-photos/shoebox/internal/fsx"
	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/quote"
	"github.com/shoebox-photos/shoebox/internal/transfer"
)

// ErrInvalid is wrapped by every error about a config file's content, so
// the command line can report it as a usage error.
var ErrInvalid = errors.New("invalid config")

// FileError is a problem at a place in a config file.
type FileError struct {
	Path      string
	Line, Col int    // 1-based; 0 when unknown
	Key       string // the key at fault, if any
	Msg       string
}

func (e *FileError) Error() string {
	at := e.Path
	if e.Line > 0 {
		at = fmt.Sprintf("%s:%d", e.Path, e.Line)
	}
	return fmt.Sprintf("config %s: %s", at, e.Msg)
}

func (e *FileError) Unwrap() error { return ErrInvalid }

const (
	fileName      = "config.toml"
	libraryDir    = ".shoebox"
	maxConfigSize = 1 << 20 // a config is a few lines; anything this big is not one
	MaxWorkers    = 256
)

// UserPath is the user's config file: $XDG_CONFIG_HOME/shoebox/config.toml,
// or ~/.config/shoebox/config.toml when XDG_CONFIG_HOME is unset or not
// absolute (the XDG spec says to ignore a relative one). "" when there is
// no home directory either.
func UserPath() string {
	if d := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "shoebox", fileName)
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".config", "shoebox", fileName)
}

// LibraryPath is the config file of the library at dest.
func LibraryPath(dest string) string { return filepath.Join(dest, libraryDir, fileName) }

// Load reads the user's config and then the library's at dest; the
// library's values win. sources lists the files read, in that order;
// missing files are skipped.
func Load(dest string) (s Settings, sources []string, err error) {
	for _, p := range []string{UserPath(), LibraryPath(dest)} {
		if p == "" {
			continue
		}
		layer, found, err := ReadFile(p)
		if err != nil {
			return Settings{}, sources, err
		}
		if found && layer.Backup != nil && p == UserPath() {
			return Settings{}, sources, &FileError{Path: p, Line: keyLineOf(p, "backup"), Key: "backup",
				Msg: "backup is a library's setting: put it in that library's " + filepath.Join("DEST", libraryDir, fileName) +
					" (one backup folder for every library would mix their files at the same paths)"}
		}
		if found {
			s = s.Merge(layer)
			sources = append(sources, p)
		}
	}
	return s, sources, nil
}

// ReadFile reads one config file; found is false when it does not exist.
func ReadFile(path string) (s Settings, found bool, err error) {
	f, err := fsx.OpenRegular(path, true) // a named pipe there must not hang the run
	if errors.Is(err, os.ErrNotExist) {
		return Settings{}, false, nil
	}
	if err != nil {
		return Settings{}, false, fmt.Errorf("read config %s: %w", quote.Path(path), fsx.Bare(err))
	}
	defer f.Close()
	doc, err := io.ReadAll(io.LimitReader(f, maxConfigSize+1))
	if err != nil {
		return Settings{}, false, fmt.Errorf("read config %s: %w", quote.Path(path), fsx.Bare(err))
	}
	if len(doc) > maxConfigSize {
		return Settings{}, false, &FileError{Path: path, Msg: fmt.Sprintf("file is over %d bytes; is it really a shoebox config?", maxConfigSize)}
	}
	s, err = Parse(path, doc)
	return s, err == nil, err
}

// Parse decodes and checks the TOML text doc, read from path.
func Parse(path string, doc []byte) (Settings, error) {
	var s Settings
	dec := toml.NewDecoder(bytes.NewReader(doc))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Settings{}, decodeError(path, err)
	}
	if err := s.check(path, doc); err != nil {
		return Settings{}, err
	}
	return s, nil
}

// decodeError turns go-toml's errors into messages naming file, line and key.
func decodeError(path string, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		errs := make([]error, 0, len(strict.Errors))
		for i := range strict.Errors {
			errs = append(errs, unknownKey(path, &strict.Errors[i]))
		}
		return errors.Join(errs...)
	}
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		return &FileError{Path: path, Msg: err.Error()}
	}
	line, col := de.Position()
	fe := &FileError{Path: path, Line: line, Col: col, Key: strings.Join(de.Key(), "."), Msg: tomlMessage(de)}
	if k, ok := keyNamed(fe.Key); ok && typeMismatch.MatchString(de.Error()) {
		got := typeMismatch.FindStringSubmatch(de.Error())[1]
		fe.Msg = fmt.Sprintf("%s must be %s, not a TOML %s", k.name, k.want, got)
		if k.want == "true or false" && got == "string" {
			fe.Msg += fmt.Sprintf(" (write %s = false, without quotes)", k.name)
		}
	}
	return fe
}

var typeMismatch = regexp.MustCompile(`cannot decode TOML (\w+) into`)

func tomlMessage(de *toml.DecodeError) string {
	return strings.TrimPrefix(de.Error(), "toml: ")
}

func unknownKey(path string, de *toml.DecodeError) error {
	line, col := de.Position()
	name := strings.Join(de.Key(), ".")
	msg := fmt.Sprintf("unknown key %q", name)
	if hint := closestKey(name); hint != "" {
		msg += fmt.Sprintf("; did you mean %q?", hint)
	} else {
		msg += "; valid keys are " + validKeyList()
	}
	return &FileError{Path: path, Line: line, Col: col, Key: name, Msg: msg}
}

// check rejects values of the right type that cannot work, so the error
// names the file rather than a flag the user never typed.
func (s Settings) check(path string, doc []byte) error {
	bad := func(k, msg string) error {
		return &FileError{Path: path, Line: keyLine(doc, k), Key: k, Msg: msg}
	}
	if s.Workers != nil && (*s.Workers < 1 || *s.Workers > MaxWorkers) {
		return bad("workers", fmt.Sprintf("workers must be 1 to %d, not %d; leave it out to choose by storage", MaxWorkers, *s.Workers))
	}
	if s.Mode != nil {
		if _, err := transfer.ParseMode(*s.Mode); err != nil {
			return bad("mode", fmt.Sprintf("mode %q: want one of copy, move, hardlink, symlink, reflink", *s.Mode))
		}
	}
	if s.Template != nil {
		if _, err := layout.Parse(*s.Template); err != nil {
			return bad("template", fmt.Sprintf("template %q: %v", *s.Template, err))
		}
	}
	if s.UnknownDir != nil && strings.TrimSpace(*s.UnknownDir) == "" {
		return bad("unknown_dir", "unknown_dir must name a folder, not be empty")
	}
	if s.VideoTZ != nil && strings.TrimSpace(*s.VideoTZ) == "" {
		return bad("video_tz", `video_tz must name a zone ("local", "UTC", "Europe/Berlin", "+02:00"), not be empty`)
	}
	if s.Backup != nil && !filepath.IsAbs(*s.Backup) {
		return bad("backup", fmt.Sprintf("backup %s must be an absolute path (a folder on the backup drive, such as /media/backup/Photos)", quote.Path(*s.Backup)))
	}
	if s.TZ != nil && strings.TrimSpace(*s.TZ) == "" {
		return bad("tz", `tz must name the zone the camera's clock was set to ("Europe/Berlin", "UTC", "+02:00"), not be empty; leave it out to assume none`)
	}
	return nil
}

// keyLine finds the line where key is assigned at the top level, 0 if not
// found; go-toml gives positions only for its own errors.
func keyLine(doc []byte, k string) int {
	re := regexp.MustCompile(`^\s*["']?` + regexp.QuoteMeta(k) + `["']?\s*=`)
	for i, line := range strings.Split(string(doc), "\n") {
		if re.MatchString(line) {
			return i + 1
		}
	}
	return 0
}

// keyLineOf is keyLine for a file read again (only for an error message).
func keyLineOf(path, k string) int {
	doc, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	return keyLine(doc, k)
}
