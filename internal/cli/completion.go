package cli

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/shoebox-photos/shoebox/internal/layout"
	"github.com/shoebox-photos/shoebox/internal/meta"
)

// Completion scripts are generated from the help texts, the one place
// where each command's flags are listed (a test checks that every flag a
// command accepts is there), so a new flag completes without a second list
// to keep in step.

var commandNames = []string{"sort", "explain", "log", "undo", "index", "check", "relayout", "completion", "version", "help"}

var flagPattern = regexp.MustCompile(`(?:^|[\s,\x60\[(])(--?[a-z][a-z-]*)`)

// helpFlags lists the flags a help text names, long forms first, sorted.
func helpFlags(text string) []string {
	seen := map[string]bool{"--help": true}
	flags := []string{"--help"}
	for _, m := range flagPattern.FindAllStringSubmatch(text, -1) {
		if f := m[1]; !seen[f] {
			seen[f] = true
			flags = append(flags, f)
		}
	}
	sort.Strings(flags)
	return flags
}

// flagValues are the words offered after a flag that takes one of a few.
func flagValues() map[string][]string {
	tokens := []string{DefaultTemplate, "{year}/{month}/{name}{ext}", "{year}/{date}/{name}{ext:lower}"}
	for _, t := range layout.TokenNames() {
		tokens = append(tokens, "{"+t+"}")
	}
	return map[string][]string{
		"--mode":      {"copy", "move", "hardlink", "symlink", "reflink"},
		"--dedup":     {"on", "off"},
		"--kind":      {"photo", "video"},
		"--template":  tokens,
		"-t":          tokens,
		"--date-tags": meta.DateTagNames(),
	}
}

var shells = map[string]func() string{"bash": bashCompletion, "zsh": zshCompletion, "fish": fishCompletion, "powershell": powershellCompletion}

func cmdCompletion(env Env, args []string) error {
	args, err := parseFlags(newFlags("completion"), args)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return usagef("completion needs one shell: bash, zsh, fish or powershell")
	}
	gen, ok := shells[strings.ToLower(args[0])]
	if !ok {
		return usagef("no completion for shell %q: bash, zsh, fish or powershell", args[0])
	}
	fmt.Fprint(env.Stdout, gen())
	return nil
}

// perCommand writes one case arm per command with its flags.
func perCommand(arm func(cmd string, flags []string) string) string {
	var b strings.Builder
	for _, c := range commandNames {
		if h, ok := helps[c]; ok {
			b.WriteString(arm(c, helpFlags(h)))
		}
	}
	return b.String()
}

func perValueFlag(arm func(flag string, values []string) string) string {
	vals := flagValues()
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(arm(k, vals[k]))
	}
	return b.String()
}

// quoteWords quotes a word for bash, zsh and fish single quotes.
func quoteWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

func bashCompletion() string {
	return `_shoebox() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} words
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "` + strings.Join(commandNames, " ") + `" -- "$cur")); return
  fi
  case "$prev" in
` + perValueFlag(func(f string, v []string) string {
		return fmt.Sprintf("    %s) local IFS=$'\\n'; COMPREPLY=($(compgen -W \"$(printf '%%s\\n' %s)\" -- \"$cur\")); return;;\n", f, quoteWords(v))
	}) + `  esac
  if [[ "$cur" == -* ]]; then
    case "${COMP_WORDS[1]}" in
` + perCommand(func(c string, flags []string) string {
		return fmt.Sprintf("      %s) words=%q;;\n", c, strings.Join(flags, " "))
	}) + `    esac
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _shoebox shoebox
`
}

func zshCompletion() string {
	return `#compdef shoebox
_shoebox() {
  if (( CURRENT == 2 )); then
    compadd ` + strings.Join(commandNames, " ") + `; return
  fi
  case $words[CURRENT-1] in
` + perValueFlag(func(f string, v []string) string {
		return fmt.Sprintf("    %s) compadd -Q -- %s; return;;\n", f, quoteWords(v))
	}) + `  esac
  if [[ $words[CURRENT] == -* ]]; then
    case $words[2] in
` + perCommand(func(c string, flags []string) string {
		return fmt.Sprintf("      %s) compadd -- %s;;\n", c, strings.Join(flags, " "))
	}) + `    esac
  else
    _files
  fi
}
compdef _shoebox shoebox
`
}

func fishCompletion() string {
	var b strings.Builder
	fmt.Fprintf(&b, "complete -c shoebox -f -n '__fish_use_subcommand' -a '%s'\n", strings.Join(commandNames, " "))
	vals := flagValues()
	b.WriteString(perCommand(func(c string, flags []string) string {
		var arm strings.Builder
		for _, f := range flags {
			if !strings.HasPrefix(f, "--") {
				continue
			}
			fmt.Fprintf(&arm, "complete -c shoebox -n '__fish_seen_subcommand_from %s' -l %s", c, f[2:])
			if v, ok := vals[f]; ok {
				fmt.Fprintf(&arm, " -x -a %q", strings.Join(v, " "))
			}
			arm.WriteString("\n")
		}
		return arm.String()
	}))
	return b.String()
}

func powershellCompletion() string {
	psList := func(words []string) string {
		q := make([]string, len(words))
		for i, w := range words {
			q[i] = psLiteral(psArgument(w))
		}
		return "@(" + strings.Join(q, ", ") + ")"
	}
	var flags, values strings.Builder
	perCommand(func(c string, fl []string) string {
		fmt.Fprintf(&flags, "    '%s' = %s\n", c, psList(fl))
		return ""
	})
	perValueFlag(func(f string, v []string) string {
		fmt.Fprintf(&values, "    '%s' = %s\n", f, psList(v))
		return ""
	})
	return `# shoebox completion for PowerShell: shoebox completion powershell | Out-String | Invoke-Expression
Register-ArgumentCompleter -Native -CommandName shoebox, shoebox.exe -ScriptBlock {
  param($wordToComplete, $commandAst, $cursorPosition)
  $words = @($commandAst.CommandElements | ForEach-Object { $_.ToString() })
  $commands = ` + psList(commandNames) + `
  $flags = @{
` + flags.String() + `  }
  $values = @{
` + values.String() + `  }
  if ($words.Count -le 1 -or ($words.Count -eq 2 -and $wordToComplete -ne '')) {
    $candidates = $commands
  } elseif ($values.ContainsKey($words[-1]) -or ($wordToComplete -ne '' -and $words.Count -ge 2 -and $values.ContainsKey($words[-2]))) {
    $prev = if ($wordToComplete -eq '') { $words[-1] } else { $words[-2] }
    $candidates = $values[$prev]
  } elseif ($wordToComplete.StartsWith('-') -and $flags.ContainsKey($words[1])) {
    $candidates = $flags[$words[1]]
  } else {
    return
  }
  # A candidate is held as it is to be inserted, quoted where PowerShell
  # would read it otherwise ('{year}'); it is matched and listed bare.
  $typed = $wordToComplete.TrimStart("'", '"')
  $candidates | ForEach-Object {
    $bare = if ($_.StartsWith("'")) { $_.Substring(1, $_.Length - 2).Replace("''", "'") } else { $_ }
    if ($bare.StartsWith($typed, [System.StringComparison]::OrdinalIgnoreCase)) {
      [System.Management.Automation.CompletionResult]::new($_, $bare, 'ParameterValue', $bare)
    }
  }
}
`
}

// psArgument is word as it must be typed on a PowerShell command line: as
// it is when PowerShell reads it as that word, else in single quotes. A
// leading { would open a script block, @ a splat or array, $ a variable,
// # a comment; a space, ; | & , ( ) or a quote anywhere ends or changes it.
func psArgument(word string) string {
	if word != "" && !strings.ContainsAny(word[:1], "{}@$#<>") && !strings.ContainsAny(word, " \t;|&,(){}'\"`$") {
		return word
	}
	return "'" + strings.ReplaceAll(word, "'", "''") + "'"
}

// psLiteral is s as a single-quoted PowerShell string literal.
func psLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
