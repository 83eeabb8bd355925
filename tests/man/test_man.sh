#!/usr/bin/env bash
# Every command has a man page, made from its own --help (man/): each page
# renders with man -l without a warning, and names every option that its
# program's --help lists. The man pages the systemd units name exist.
# Prints "N passed, M failed" last.
set -u
BUILD=$1
SRC=$2
man_dir=$BUILD/share/man
bin=$BUILD/bin
if ! command -v man >/dev/null; then
	echo "man is missing: apt-get install man-db"; exit 1
fi
if [ ! -d "$man_dir" ]; then
	echo "no man pages in $man_dir: install help2man (apt-get install help2man), then build again"
	exit 1
fi
tmp=$(mktemp -d /tmp/swtee-man.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

# The options a --help text lists: every -x and --word standing alone.
help_options() {
	grep -oE '(^|[][ ,|(])(--[a-z][a-z0-9-]*|-[A-Za-z])([][ ,|=)]|$)' |
		sed -E 's/^[][ ,|(]*//; s/[][ ,|=)]*$//' | sort -u
}

# check_page PAGE SECTION COMMAND...: COMMAND --help is the page's source.
check_page() {
	local page=$1 sec=$2 f text missing="" opt
	shift 2
	f=$man_dir/man$sec/$page.$sec
	if [ ! -s "$f" ]; then
		bad "$page($sec): no page at $f"; return
	fi
	# Wide, plain text, and words broken at a line end joined again.
	if ! MANWIDTH=200 man --warnings -E ascii -l "$f" >"$tmp/page" 2>"$tmp/err" ||
		[ -s "$tmp/err" ] || [ ! -s "$tmp/page" ]; then
		bad "$page($sec): man -l fails or warns: $(head -3 "$tmp/err")"; return
	fi
	text=$(sed -E ':a; /-$/ { N; s/-\n[[:space:]]*/-/; ba }' "$tmp/page" | tr -s '[:space:]' ' ')
	grep -q "^NAME" "$tmp/page" && grep -qi "^$page - " <(sed -n '/^NAME/{n;s/^ *//;p}' "$tmp/page") ||
		{ bad "$page($sec): no NAME line '$page - ...'"; return; }
	"$@" --help >"$tmp/help" 2>&1
	[ -s "$tmp/help" ] || { bad "$page($sec): '$* --help' printed nothing"; return; }
	while read -r opt; do
		[ -n "$opt" ] || continue
		grep -qE -- "(^|[^A-Za-z0-9-])${opt}([^A-Za-z0-9-]|$)" <<<"$text" || missing="$missing $opt"
	done < <(help_options <"$tmp/help")
	if [ -n "$missing" ]; then
		bad "$page($sec): options of '$* --help' missing from the page:$missing"
	else
		ok "$page($sec) renders and names the $(help_options <"$tmp/help" | wc -l) options of '$(basename "$1") ${*:2} --help'"
	fi
}

check_page swteed 8 "$bin/swteed"
check_page tee-supplicant 8 "$bin/tee-supplicant"
check_page swtee 1 "$bin/swtee"
for sub in run sign status bench; do
	check_page "swtee-$sub" 1 "$bin/swtee" "$sub"
done
check_page xtest 1 "$bin/xtest"
check_page swtee-tpm 1 "$bin/swtee-tpm"

# Each swtee command that swtee --help lists has its page.
for sub in $("$bin/swtee" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p'); do
	[ -s "$man_dir/man1/swtee-$sub.1" ] && ok "swtee $sub has swtee-$sub(1)" ||
		bad "swtee $sub, listed by swtee --help, has no page swtee-$sub(1)"
done
# Every man: page a unit's Documentation= names.
for unit in "$SRC"/dist/*.service; do
	for ref in $(sed -n 's/^Documentation=//p' "$unit" | tr ' ' '\n' | sed -n 's/^man://p'); do
		name=${ref%%(*}; sec=${ref#*(}; sec=${sec%)}
		[ -s "$man_dir/man$sec/$name.$sec" ] && ok "$(basename "$unit") names $ref, which exists" ||
			bad "$(basename "$unit") names $ref, which is not built"
	done
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
