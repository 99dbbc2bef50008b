#!/bin/bash
# The layer check of doc/architecture.md: every #include "..." under src/ must point to the including file's own
# layer or one below it, in the order the doc's machine-readable lines give:
#   layers: util include sys arch ...      bottom to top; a folder of src/ (or main, for src/main.c) per word
#   place: LAYER GLOB...                   files (paths under src/, shell globs) that belong to LAYER, not their folder
#   private: DIR                           headers in DIR/<sub>/ are included only from DIR/<sub>/ and DIR/*.h
#   openers: PATH...                       the only files (or folders, ending in /) that may call the perf_event_open
#                                          syscall or pmc_perf_open* directly
# Prints each violation as FILE:LINE: what is wrong, then one count per check; exit 0 when there are none, 1 when
# there are, 2 on a usage error. --graph prints the measured folder-to-folder include graph instead (edge and count).
# Cheap: one grep over src/, no build. Usage: tests/layers.sh [--graph] [REPO_ROOT] (default: this script's repo).
set -euo pipefail

graph=0
if [ "${1:-}" = "--graph" ]; then
	graph=1
	shift
fi
root=${1:-${PMC_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}}
doc=$root/doc/architecture.md
[ -d "$root/src" ] || { echo "layers.sh: no src/ under '$root': give the repository root" >&2; exit 2; }
[ -f "$doc" ] || { echo "layers.sh: '$doc' is missing: it holds the layer order (a 'layers:' line)" >&2; exit 2; }

layers=$(sed -n 's/^layers: *//p' "$doc" | head -n 1)
[ -n "$layers" ] || { echo "layers.sh: $doc has no 'layers: ...' line" >&2; exit 2; }
places=$(sed -n 's/^place: *//p' "$doc")
privates=$(sed -n 's/^private: *//p' "$doc")
openers=$(sed -n 's/^openers: *//p' "$doc" | tr '\n' ' ')

cd "$root/src"
# FILE<TAB>LINE<TAB>HEADER for every quoted include; config.h (generated) and same-folder names without a slash are
# not edges between layers.
includes=$(grep -rnE --include='*.c' --include='*.h' --include='*.S' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/[^"]*"' . |
	sed -E 's|^\./||; s|^([^:]*):([0-9]+):[^"]*"([^"]*)".*|\1\t\2\t\3|')

# The layer of a path under src/ (a file or a header as included): a place: glob, else its first folder, else main.
layer_of() {
	local p=$1 line lay g
	if [ -n "$places" ]; then
		while read -r line; do
			lay=${line%% *}
			for g in ${line#* }; do
				# shellcheck disable=SC2053 # the glob is meant to match
				[[ $p == $g ]] && { echo "$lay"; return; }
			done
		done <<<"$places"
	fi
	case $p in
	*/*) echo "${p%%/*}" ;;
	*) echo main ;;
	esac
}

rank_of() {
	local i=0 w
	for w in $layers; do
		[ "$w" = "$1" ] && { echo "$i"; return; }
		i=$((i + 1))
	done
	echo -1
}

declare -A rank cache
for w in $layers; do rank[$w]=$(rank_of "$w"); done
lay() { [ -n "${cache[$1]:-}" ] || cache[$1]=$(layer_of "$1"); echo "${cache[$1]}"; }

if [ "$graph" = 1 ]; then
	while IFS=$'\t' read -r f _ h; do
		a=$(lay "$f")
		b=$(lay "$h")
		[ "$a" = "$b" ] || echo "$a -> $b"
	done <<<"$includes" | sort | uniq -c | awk '{ printf "%-24s %3d\n", $2 " " $3 " " $4, $1 }'
	exit 0
fi

nlayer=0 nprivate=0 nopen=0
while IFS=$'\t' read -r f n h; do
	[ -n "$f" ] || continue
	a=$(lay "$f")
	b=$(lay "$h")
	ra=${rank[$a]:--1}
	rb=${rank[$b]:--1}
	if [ "$ra" -lt 0 ]; then
		echo "src/$f:$n: layer '$a' is not in the layer order of doc/architecture.md"
		nlayer=$((nlayer + 1))
	elif [ "$rb" -lt 0 ]; then
		echo "src/$f:$n: includes $h, of layer '$b', which is not in the layer order of doc/architecture.md"
		nlayer=$((nlayer + 1))
	elif [ "$rb" -gt "$ra" ]; then
		echo "src/$f:$n: $a includes $h of $b, a layer above it"
		nlayer=$((nlayer + 1))
	fi
	for d in $privates; do
		case $h in
		"$d"/*/*)
			sub=${h#"$d"/}
			sub=$d/${sub%%/*}
			case $f in
			"$sub"/* | "$d"/*.h) ;;
			*)
				echo "src/$f:$n: includes $h, private to src/$sub/"
				nprivate=$((nprivate + 1))
				;;
			esac
			;;
		esac
	done
done <<<"$includes"

# Direct openers: the syscall itself, or pmc_perf_open / _noted / _counting called (not declared) outside the allowed.
while IFS=: read -r f n _; do
	allowed=0
	for o in $openers; do
		case $o in
		*/) [[ $f == "$o"* ]] && allowed=1 ;;
		*) [ "$f" = "$o" ] && allowed=1 ;;
		esac
	done
	[ "$allowed" = 1 ] && continue
	echo "src/$f:$n: opens a counter itself (the counter set of src/perf/ is the one opening path)"
	nopen=$((nopen + 1))
done < <(grep -rnE --include='*.c' 'SYS_perf_event_open|__NR_perf_event_open|[^_[:alnum:]]pmc_perf_open(_noted|_counting)?\(' . |
	grep -vE '^[^:]*:[0-9]+:(int|static int) pmc_perf_open' | sed 's|^\./||')

echo "layers: $nlayer upward or unplaced include(s); private: $nprivate; openers: $nopen"
[ $((nlayer + nprivate + nopen)) -eq 0 ]
