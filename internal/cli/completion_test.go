package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The bash script is run for real: it must complete commands, the flags
// of the command typed (and only those), and values after a flag.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed: the bash completion script is not run")
	}
	script := filepath.Join(t.TempDir(), "shoebox.bash")
	if err := os.WriteFile(script, []byte(bashCompletion()), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		line            string
		want, notWanted []string
	}{
		{"shoebox so", []string{"sort"}, []string{"undo"}},
		{"shoebox sort --dr", []string{"--dry-run"}, nil},
		{"shoebox sort --mode m", []string{"move"}, []string{"copy"}},
		{"shoebox sort --kind ", []string{"photo", "video"}, nil},
		{"shoebox sort -t {fo", []string{"{folder}"}, nil},
		{"shoebox sort --in", []string{"--include"}, nil},
		{"shoebox explain --", []string{"--tz", "--video-tz", "--help"}, []string{"--mode"}},
		{"shoebox undo --", []string{"--dry-run"}, []string{"--mode"}},
		{"shoebox index --", []string{"--workers"}, nil},
	}
	for _, c := range cases {
		words := strings.Split(c.line, " ")
		prog := "source " + script + "\nCOMP_WORDS=(" + quoteWords(words) + ")\nCOMP_CWORD=" +
			strconv.Itoa(len(words)-1) + "\n_shoebox\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
		out, err := exec.Command(bash, "-c", prog).CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v\n%s", c.line, err, out)
		}
		got := strings.Fields(string(out))
		for _, w := range c.want {
			if !containsWord(got, w) {
				t.Errorf("%q: %q not offered; got %v", c.line, w, got)
			}
		}
		for _, w := range c.notWanted {
			if containsWord(got, w) {
				t.Errorf("%q: %q offered; got %v", c.line, w, got)
			}
		}
	}
}

// Every shell's script names every flag of sort, and the other shells'
// scripts at least parse where the shell is installed.
func TestCompletionScripts(t *testing.T) {
	for shell, gen := range shells {
		script := gen()
		for _, f := range helpFlags(sortHelp) {
			if strings.HasPrefix(f, "--") && !strings.Contains(script, f[2:]) {
				t.Errorf("%s completion lacks %s", shell, f)
			}
		}
		check := map[string][]string{"bash": {"bash", "-n"}, "zsh": {"zsh", "-n"}, "fish": {"fish", "--no-execute"}}[shell]
		if check == nil {
			continue // PowerShell is not installed here: its script is only checked for content
		}
		if _, err := exec.LookPath(check[0]); err != nil {
			continue
		}
		f := filepath.Join(t.TempDir(), shell)
		os.WriteFile(f, []byte(script), 0o644)
		if out, err := exec.Command(check[0], append(check[1:], f)...).CombinedOutput(); err != nil {
			t.Errorf("%s does not parse its completion script: %v\n%s", shell, err, out)
		}
	}
	if r := shoebox("completion", "powershell"); r.code != ExitOK || !strings.Contains(r.stdout, "Register-ArgumentCompleter") {
		t.Errorf("completion powershell:\n%s", r)
	}
	if r := shoebox("completion", "tcsh"); r.code != ExitUsage {
		t.Errorf("completion tcsh: want exit 2:\n%s", r)
	}
}

func containsWord(ws []string, w string) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

// PowerShell reads an argument that starts with { as a script block, so
// a template candidate is inserted quoted ('{year}/{month}'), and a word
// typed with its opening quote still finds it. The script's literal of
// the candidate '{year}' is ”'{year}”' (a quote doubled inside quotes).
func TestPowerShellQuotesTemplateCandidates(t *testing.T) {
	script := powershellCompletion()
	for _, v := range flagValues()["--template"] {
		literal := "'''" + strings.ReplaceAll(v, "'", "''''") + "'''"
		if !strings.Contains(script, literal) {
			t.Errorf("powershell completion offers %s unquoted (want the literal %s)", v, literal)
		}
	}
	for _, v := range flagValues()["--mode"] {
		if !strings.Contains(script, "'"+v+"'") || strings.Contains(script, "'''"+v+"'''") {
			t.Errorf("powershell completion should offer the plain word %s as it is", v)
		}
	}
	for _, want := range []string{`$typed = $wordToComplete.TrimStart("'", '"')`, `[System.Management.Automation.CompletionResult]::new($_, $bare,`} {
		if !strings.Contains(script, want) {
			t.Errorf("powershell completion lacks %s", want)
		}
	}
}
