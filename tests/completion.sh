# Helpers for tests of completion/pmctool (source after tests/lib.sh): pose the command line, call _pmctool, and
# check COMPREPLY.
# shellcheck source=/dev/null
. "$PMC_SOURCE_DIR/completion/pmctool"

# complete_words WORDS...: the last word is the one being completed; COMPREPLY goes to $TMP/reply, one per line.
complete_words() {
	COMP_WORDS=("$PMCTOOL" "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	set +eu
	_pmctool 2>"$TMP/cerr"
	set -eu
	printf '%s\n' "${COMPREPLY[@]}" >"$TMP/reply"
	[ ! -s "$TMP/cerr" ] || { cat "$TMP/cerr" >&2; fail "completion of '$*' wrote to stderr"; }
}

# expect_reply WORD WHAT: COMPREPLY holds WORD.
expect_reply() { grep -qxF -- "$1" "$TMP/reply" || { cat "$TMP/reply" >&2; fail "$2: COMPREPLY lacks '$1'"; }; }
