# bash completion for assay — installed by `meson install` as
# share/bash-completion/completions/assay; or, from a checkout: source examples/assay/completion.bash
#
# The subcommands and options are read from the command's own --help at the point where TAB is
# pressed (`assay evidence lint --help`), so they are never out of step with the binary. After an
# option that takes a value (its help shows a TEXT, UINT… placeholder), its listed values
# (`TEXT:{table,json}`) are completed, else file names.

_assay() {
  local cur prev cmd
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD - 1]}
  cmd=("${COMP_WORDS[0]}")
  # The subcommand path typed so far: the words before the cursor that are not options.
  local i w
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    [[ $w == -* ]] && break
    cmd+=("$w")
  done
  local help
  help=$("${cmd[@]}" --help 2>/dev/null) || return 0

  # The previous word is an option that takes a value: its listed values (TEXT:{table,json}),
  # else a file name.
  if [[ $prev == --* ]]; then
    local spec
    spec=$(grep -Eo -- "^ +(-[a-z],)?${prev} [A-Z][^ ]*" <<<"$help" | head -n 1)
    if [[ -n $spec ]]; then
      if [[ $spec == *:\{*\} ]]; then
        spec=${spec##*:\{}
        spec=${spec%\}}
        mapfile -t COMPREPLY < <(compgen -W "${spec//,/ }" -- "$cur")
      else
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      fi
      return 0
    fi
  fi

  local words section line
  words=()
  section=
  while IFS= read -r line; do
    case $line in
      Options:*) section=options ;;
      Subcommands:*) section=subcommands ;;
      Positionals:*) section= ;;
      "  "[!\ ]*)
        line=${line#  }
        line=${line%%  *}
        line=${line%% *}
        if [[ $section == subcommands ]]; then
          words+=("$line")
        elif [[ $section == options ]]; then
          words+=("${line##*,}")  # -h,--help: the long form
        fi
        ;;
    esac
  done <<<"$help"

  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "${words[*]}" -- "$cur")
  else
    local subs=()
    for w in "${words[@]}"; do
      [[ $w != -* ]] && subs+=("$w")
    done
    if ((${#subs[@]})); then
      mapfile -t COMPREPLY < <(compgen -W "${subs[*]}" -- "$cur")
    else
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")  # a verb's positionals: bundles, packs, files
    fi
  fi
}
complete -o filenames -F _assay assay
