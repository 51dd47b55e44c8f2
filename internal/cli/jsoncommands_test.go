package cli

import (
	"bufio"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// jsonLines decodes every line of out as one JSON object, failing on any
// line that is not one: --json output is for programs.
func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("not a JSON object: %q: %v", sc.Text(), err)
		}
		if _, ok := m["type"].(string); !ok {
			t.Fatalf("line without a type: %q", sc.Text())
		}
		objs = append(objs, m)
	}
	return objs
}

func ofType(objs []map[string]any, typ string) []map[string]any {
	var out []map[string]any
	for _, o := range objs {
		if o["type"] == typ {
			out = append(out, o)
		}
	}
	return out
}

// explain --json: one object per file with every candidate and the
// verdict, and a problem object for a path it cannot read; exit 3 then.
func TestExplainJSON(t *testing.T) {
	dir := t.TempDir()
	card(t, dir, 1, 0)
	photo := filepath.Join(dir, "IMG_0000.JPG")
	r := shoebox("explain", "--json", photo, filepath.Join(dir, "nothere.jpg"))
	if r.code != ExitIncomplete {
		t.Fatalf("want exit 3:\n%s", r)
	}
	objs := jsonLines(t, r.stdout)
	files := ofType(objs, "file")
	if len(files) != 1 || files[0]["path"] != photo || files[0]["kind"] != "photo" {
		t.Fatalf("file objects: %v", files)
	}
	v := files[0]["verdict"].(map[string]any)
	if v["role"] != "leads" || v["date"] != "2019-07-01T12:00:00.000" || v["date_source"] != "exif" ||
		v["folder"] != filepath.FromSlash("2019/2019-07-01") || v["date_tag"] != "ExifIFD:DateTimeOriginal" {
		t.Errorf("verdict: %v", v)
	}
	chosen := 0
	for _, c := range files[0]["candidates"].([]any) {
		if c.(map[string]any)["chosen"] == true {
			chosen++
		}
	}
	if chosen != 1 {
		t.Errorf("%d candidates chosen, want 1: %v", chosen, files[0]["candidates"])
	}
	if p := ofType(objs, "problem"); len(p) != 1 || !strings.Contains(p[0]["reason"].(string), "no such file") {
		t.Errorf("problem objects: %v", p)
	}
}

// log --json and undo --json, and undo RUN-ID through the command line:
// the ids log gives are the ids undo takes.
func TestLogAndUndoJSON(t *testing.T) {
	base := t.TempDir()
	lib := filepath.Join(base, "lib")
	card(t, filepath.Join(base, "card1"), 2, 0)
	if r := shoebox("sort", "-q", filepath.Join(base, "card1"), lib); r.code != ExitOK {
		t.Fatal(r)
	}
	writeFile(t, filepath.Join(base, "card2", "IMG_9.JPG"), []byte("\xff\xd8\xff\xfe\x00\x05new\xff\xd9"), 0o644)
	if r := shoebox("sort", "-q", filepath.Join(base, "card2"), lib); r.code != ExitOK {
		t.Fatal(r)
	}
	r := shoebox("log", "--json", lib)
	if r.code != ExitOK {
		t.Fatal(r)
	}
	runs := ofType(jsonLines(t, r.stdout), "run")
	if len(runs) != 2 {
		t.Fatalf("log --json: %d runs, want 2:\n%s", len(runs), r.stdout)
	}
	var older map[string]any
	for _, run := range runs {
		if run["kind"] != "sort" || run["state"] != "complete" || run["run_id"] == "" || run["started"] == "" {
			t.Errorf("run object: %v", run)
		}
		if strings.Contains(strings.Join(toStrings(run["args"]), " "), "card1") {
			older = run
		}
	}
	if older == nil || older["done"].(float64) < 2 {
		t.Fatalf("no run of card1 with its files: %v", runs)
	}
	id := older["run_id"].(string)

	r = shoebox("undo", "--json", "--dry-run", lib, id)
	if r.code != ExitOK {
		t.Fatal(r)
	}
	objs := jsonLines(t, r.stdout)
	sum := ofType(objs, "summary")
	if len(sum) != 1 || sum[0]["reverted"].(float64) != 2 || sum[0]["dry_run"] != true || toStrings(sum[0]["runs"])[0] != id {
		t.Fatalf("undo --json --dry-run summary: %v", sum)
	}
	if ops := ofType(objs, "op"); len(ops) < 3 { // the run, two files, folders
		t.Errorf("op objects: %v", ops)
	}

	r = shoebox("undo", "--json", id, lib) // either order
	if r.code != ExitOK {
		t.Fatal(r)
	}
	reverted := 0
	for _, op := range ofType(jsonLines(t, r.stdout), "op") {
		if op["outcome"] == "reverted" {
			reverted++
			if op["action"] != "remove" || op["run"] != id || !strings.HasPrefix(op["path"].(string), lib) {
				t.Errorf("op: %v", op)
			}
		}
	}
	if reverted != 2 {
		t.Errorf("%d files reverted, want 2:\n%s", reverted, r.stdout)
	}
	r = shoebox("log", "--json", lib)
	undoneBy := 0
	for _, run := range ofType(jsonLines(t, r.stdout), "run") {
		if run["run_id"] == id && run["undone_by"] != nil {
			undoneBy++
		}
	}
	if undoneBy != 1 {
		t.Errorf("log does not say the run is undone:\n%s", r.stdout)
	}
	r = shoebox("undo", "--json", lib, id)
	if r.code != ExitFatal || !strings.Contains(r.stderr, "undone already") {
		t.Errorf("undo of an undone run: %s", r)
	}
	if s := ofType(jsonLines(t, r.stdout), "summary"); len(s) != 1 || s[0]["error"] == nil {
		t.Errorf("no summary with the error: %s", r.stdout)
	}
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}
