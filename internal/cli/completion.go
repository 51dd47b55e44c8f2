package cli

import "fmt"

const sortFlagWords = "--template --mode --workers --dry-run --dedup --delete-duplicates --verify --follow-links --hidden --unknown-dir --no-mtime --video-tz --tz --json --quiet --report --include --exclude --kind --ext --max-depth --min-size --max-size --since --until --help"
const commandWords = "sort explain log undo index completion version help"

var completions = map[string]string{
	"bash": `_shoebox() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "` + commandWords + `" -- "$cur")); return
  fi
  case "${COMP_WORDS[COMP_CWORD-1]}" in
    --mode) COMPREPLY=($(compgen -W "copy move hardlink symlink reflink" -- "$cur")); return;;
    --dedup) COMPREPLY=($(compgen -W "on off" -- "$cur")); return;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "` + sortFlagWords + `" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _shoebox shoebox
`,
	"zsh": `#compdef shoebox
_shoebox() {
  if (( CURRENT == 2 )); then
    compadd ` + commandWords + `
  elif [[ $words[CURRENT-1] == --mode ]]; then
    compadd copy move hardlink symlink reflink
  elif [[ $words[CURRENT-1] == --dedup ]]; then
    compadd on off
  elif [[ $words[CURRENT] == -* ]]; then
    compadd -- ` + sortFlagWords + `
  else
    _files
  fi
}
compdef _shoebox shoebox
`,
	"fish": `complete -c shoebox -f -n '__fish_use_subcommand' -a '` + commandWords + `'
complete -c shoebox -n '__fish_seen_subcommand_from sort' -l mode -x -a 'copy move hardlink symlink reflink'
complete -c shoebox -n '__fish_seen_subcommand_from sort' -l dedup -x -a 'on off'
complete -c shoebox -n '__fish_seen_subcommand_from sort' -l template -s t -r
complete -c shoebox -n '__fish_seen_subcommand_from sort' -l workers -x
complete -c shoebox -n '__fish_seen_subcommand_from sort' -l dry-run -s n
complete -c shoebox -n '__fish_seen_subcommand_from sort' -l verify
complete -c shoebox -n '__fish_seen_subcommand_from sort' -l delete-duplicates
complete -c shoebox -n '__fish_seen_subcommand_from sort' -l follow-links
complete -c shoebox -n '__fish_seen_subcommand_from sort' -l hidden
complete -c shoebox -n '__fish_seen_subcommand_from sort' -l unknown-dir -r
complete -c shoebox -n '__fish_seen_subcommand_from sort' -l no-mtime
complete -c shoebox -n '__fish_seen_subcommand_from sort' -l video-tz -x
complete -c shoebox -n '__fish_seen_subcommand_from sort explain' -l tz -x
complete -c shoebox -n '__fish_seen_subcommand_from sort' -l json
complete -c shoebox -n '__fish_seen_subcommand_from sort' -l quiet -s q
complete -c shoebox -n '__fish_seen_subcommand_from sort' -l report -r
`,
}

func cmdCompletion(env Env, args []string) error {
	if len(args) != 1 {
		return usagef("completion needs one shell: bash, zsh or fish")
	}
	script, ok := completions[args[0]]
	if !ok {
		return usagef("no completion for shell %q: bash, zsh or fish", args[0])
	}
	fmt.Fprint(env.Stdout, script)
	return nil
}
