#!/bin/sh
# Checks a linked TA before it is signed; part of the TA developer kit.
#   ta_check.sh NM OBJCOPY BINARY ELF RUNTIME_SYMS [MBEDTLS_CONFIG]
# Fails when an entry point is missing or when the UUID in the TA's header
# (TA_UUID of user_ta_header_defines.h) is not BINARY, or, for a TA linked
# with the kit's mbedTLS (MBEDTLS_CONFIG given), when it calls mbedTLS
# functions that configuration leaves out; warns about GP functions the TA
# calls that this swtee's TA runtime does not provide.
set -u

nm=$1
objcopy=$2
binary=$3
elf=$4
syms=$5
mbedtls_config=${6:-}
name=$(basename "$elf")

fail() {
	echo "ta_dev_kit: $name: $*" >&2
	exit 1
}

defined=$("$nm" -D --defined-only --format=posix "$elf" 2>/dev/null | cut -d' ' -f1) ||
	fail "cannot read its symbols with $nm"
undefined=$("$nm" -D --undefined-only --format=posix "$elf" 2>/dev/null | cut -d' ' -f1 |
	sed 's/@.*//')

missing=""
for ep in TA_CreateEntryPoint TA_DestroyEntryPoint TA_OpenSessionEntryPoint \
	TA_CloseSessionEntryPoint TA_InvokeCommandEntryPoint; do
	# In a GP 1.1 TA, the kit's header defines the 1.3 names around the
	# TA's __GP11_ ones: a missing one is left undefined.
	if ! printf '%s\n' "$defined" | grep -qx "$ep" ||
		printf '%s\n' "$undefined" | grep -qx "__GP11_$ep"; then
		missing="$missing $ep"
	fi
done
if [ -n "$missing" ]; then
	fail "the TA does not define$missing (every TA implements TA_CreateEntryPoint," \
		"TA_DestroyEntryPoint, TA_OpenSessionEntryPoint, TA_CloseSessionEntryPoint and" \
		"TA_InvokeCommandEntryPoint, as non-static functions)"
fi

tmp=$(mktemp) || fail "cannot make a temporary file"
trap 'rm -f "$tmp"' EXIT
"$objcopy" -O binary --only-section=.ta_head "$elf" "$tmp" 2>/dev/null ||
	fail "cannot read its .ta_head section with $objcopy"
# struct ta_head starts with the TEE_UUID: three little-endian fields, then 8 bytes.
# shellcheck disable=SC2046
set -- $(od -An -v -tx1 -N16 "$tmp")
[ $# -eq 16 ] || fail "it has no .ta_head section: was the kit's user_ta_header.c linked in?"
uuid="$4$3$2$1-$6$5-$8$7-$9${10}-${11}${12}${13}${14}${15}${16}"
want=$(printf '%s' "$binary" | tr 'A-F' 'a-f')
if [ "$uuid" != "$want" ]; then
	fail "BINARY is $binary but TA_UUID in user_ta_header_defines.h is $uuid;" \
		"they must name the same TA (the image is named and signed by BINARY," \
		"and swtee refuses a TA whose header says otherwise)"
fi

if [ -n "$mbedtls_config" ]; then
	# Weak references (the kit's own to optee_os's mbedtls_mpi_mempool) may stay unresolved.
	left=$("$nm" -D --undefined-only --format=posix "$elf" 2>/dev/null |
		awk '$2 == "U" { print $1 }' | sed 's/@.*//' | grep -E '^(mbedtls_|psa_)' |
		tr '\n' ' ' | sed 's/ $//')
	if [ -n "$left" ]; then
		fail "it calls mbedTLS functions that are not in the library the kit built:" \
			"$left; the modules that define them are not enabled in $mbedtls_config" \
			"(name a configuration that has them with MBEDTLS_CONFIG=<header>)"
	fi
fi

if [ -r "$syms" ]; then
	absent=""
	for s in $(printf '%s\n' "$undefined" | grep -E '^(TEE_|__GP11_|tee_|trace_|_utee_)'); do
		grep -qx "$s" "$syms" || absent="$absent $s"
	done
	if [ -n "$absent" ]; then
		echo "ta_dev_kit: warning: $name calls functions this swtee's TA runtime does not" \
			"provide yet:$absent; it will not load until the runtime has them" >&2
	fi
fi
exit 0
