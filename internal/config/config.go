// Package config reads shoebox's settings from TOML files: the user's
// ($XDG_CONFIG_HOME/shoebox/config.toml, by default
// ~/.config/shoebox/config.toml) and the library's
// (DEST/.shoebox/config.toml). The library's file wins over the user's, and
// flags given on the command line win over both; the caller applies flags
// with Merge.
//
// Keys match case-insensitively (go-toml maps "Verify" to verify).
//
// A library records its template on the first sort into it, so later sorts
// from any machine keep its layout.
//
// The TOML reader is github.com/pelletier/go-toml/v2: in strict mode it
// reports every unknown key and every wrongly typed value with its line
// and column, which the error messages need. github.com/BurntSushi/toml
// lists undecoded keys without their position.
package config

import (
	"fmt"
	"github.com/shoebox-photos/shoebox/internal/spell"
	"reflect"
	"strings"
)

// Settings are the values a config file may set. A nil field is not set
// there, so a lower layer (or the built-in default) applies.
type Settings struct {
	Template    *string `toml:"template,omitempty"`
	Mode        *string `toml:"mode,omitempty"`
	Workers     *int    `toml:"workers,omitempty"`
	Dedup       *bool   `toml:"dedup,omitempty"`
	UnknownDir  *string `toml:"unknown_dir,omitempty"`
	VideoTZ     *string `toml:"video_tz,omitempty"`
	TZ          *string `toml:"tz,omitempty"` // the zone photo cameras' clocks were set to (--tz)
	NoMtime     *bool   `toml:"no_mtime,omitempty"`
	Verify      *bool   `toml:"verify,omitempty"`
	FollowLinks *bool   `toml:"follow_links,omitempty"`
	Hidden      *bool   `toml:"hidden,omitempty"`
	// Backup (--backup) is a library's standing second copy: an absolute
	// folder, honoured in the library's file only (a user-wide one would
	// put every library's files at the same paths in one folder). It must
	// exist when a sort starts: a backup drive not connected fails the
	// run instead of being written under its empty mount point or skipped.
	Backup *string `toml:"backup,omitempty"`
}

// Merge returns s with every field that over sets replaced by over's.
func (s Settings) Merge(over Settings) Settings {
	out := s
	dst := reflect.ValueOf(&out).Elem()
	src := reflect.ValueOf(over)
	for i := range src.NumField() {
		if f := src.Field(i); !f.IsNil() {
			dst.Field(i).Set(f)
		}
	}
	return out
}

// IsZero reports whether no field is set.
func (s Settings) IsZero() bool { return s == Settings{} }

// key describes one config key: its name and the TOML type it wants.
type key struct {
	name, want string
}

// keys lists the valid keys in the order of the Settings fields.
var keys = func() []key {
	t := reflect.TypeOf(Settings{})
	out := make([]key, t.NumField())
	for i := range out {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		out[i] = key{name, tomlTypeName(f.Type.Elem().Kind())}
	}
	return out
}()

func tomlTypeName(k reflect.Kind) string {
	switch k {
	case reflect.Int:
		return "an integer"
	case reflect.Bool:
		return "true or false"
	}
	return "a quoted string"
}

func keyNamed(name string) (key, bool) {
	for _, k := range keys {
		if k.name == name {
			return k, true
		}
	}
	return key{}, false
}

// closestKey suggests the valid key nearest to name, or "" when none is
// close enough to be a likely typo.
func closestKey(name string) string {
	norm := strings.ToLower(strings.ReplaceAll(name, "-", "_"))
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.name
	}
	best, d := spell.Closest(norm, names)
	// d >= len(norm): nothing of the name survives (a short key like tz
	// is within 2 edits of any one- or two-letter word).
	if d < 0 || d > max(2, len(norm)/3) || d >= len(norm) {
		return ""
	}
	return best
}

func validKeyList() string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.name
	}
	return strings.Join(names, ", ")
}

// String shows the set fields as "key=value" pairs, for messages.
func (s Settings) String() string {
	var parts []string
	v := reflect.ValueOf(s)
	for i, k := range keys {
		if f := v.Field(i); !f.IsNil() {
			parts = append(parts, fmt.Sprintf("%s=%v", k.name, f.Elem().Interface()))
		}
	}
	return strings.Join(parts, " ")
}
