package cli

import (
	"unicode/utf8"

	"github.com/shoebox-photos/shoebox/internal/pipeline"
)

// jsonEvent is an event as --json writes it. A JSON string holds Unicode
// text, and encoding/json writes a byte that is not valid UTF-8 as U+FFFD,
// so a path that is not valid UTF-8 (a name from an old camera or another
// system's encoding) could not be found again from src, dst or same_as.
// For such a path only, the exact bytes are added in src_bytes, dst_bytes,
// same_as_bytes or backup_bytes (base64, standard alphabet, padded); the string field
// stays, lossy, for people. A consumer that opens files uses the _bytes
// field when it is there. See docs/json.md.
type jsonEvent struct {
	pipeline.Event
	SrcBytes    []byte `json:"src_bytes,omitempty"`
	DstBytes    []byte `json:"dst_bytes,omitempty"`
	SameAsBytes []byte `json:"same_as_bytes,omitempty"`
	BackupBytes []byte `json:"backup_bytes,omitempty"`
}

func newJSONEvent(ev pipeline.Event) jsonEvent {
	return jsonEvent{Event: ev, SrcBytes: rawBytes(ev.Src), DstBytes: rawBytes(ev.Dst), SameAsBytes: rawBytes(ev.SameAs),
		BackupBytes: rawBytes(ev.Backup)}
}

// rawArgs is a command line's exact bytes, one base64 string per word,
// when some word is not valid UTF-8 (a path in another system's
// encoding), else nil: log --json's args_bytes.
func rawArgs(args []string) [][]byte {
	for _, a := range args {
		if !utf8.ValidString(a) {
			out := make([][]byte, len(args))
			for i, a := range args {
				out[i] = []byte(a)
			}
			return out
		}
	}
	return nil
}

// rawBytes is path's bytes when JSON text cannot carry them, else nil.
func rawBytes(path string) []byte {
	if utf8.ValidString(path) {
		return nil
	}
	return []byte(path)
}

// problemLine is a path a command could not handle, in its --json output.
type problemLine struct {
	Type      string `json:"type"` // "problem"
	Path      string `json:"path"`
	PathBytes []byte `json:"path_bytes,omitempty"`
	Reason    string `json:"reason"`
}
