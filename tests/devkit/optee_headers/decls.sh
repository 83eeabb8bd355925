#!/bin/sh
# Every function the kit's headers declare exists: each is exported by the
# TA runtime (the kit's lib/ta_runtime.syms) or by the C library, except
# the entry points a TA defines itself. The compiler lists the declarations
# (gcc -aux-info) of a file that includes every header, in the GP 1.3 and
# the GP 1.1 configuration; static inline functions are definitions, not
# declarations, and need nothing from the runtime.
. "$(dirname "$0")/../common.sh"

inc=$KIT/include
syms=$KIT/lib/ta_runtime.syms
[ -s "$syms" ] || fail "no $syms"
libc=$(cc -print-file-name=libc.so.6)
nm -D --defined-only --format=posix "$libc" | cut -d' ' -f1 | sed 's/@.*//' | sort -u > "$WORK/libc"

(cd "$inc" && find . -name '*.h' | sed 's|^\./||' | sort) > "$WORK/headers"
[ "$(wc -l < "$WORK/headers")" -gt 30 ] || fail "too few headers in $inc"
sed 's/.*/#include <&>/' "$WORK/headers" > "$WORK/all.c"
for compat in 0 1; do
	cc -std=gnu11 -fsyntax-only -D__SWTEE__=1 -D__OPTEE_CORE_API_COMPAT_1_1=$compat -I"$inc" \
		-aux-info "$WORK/aux$compat" "$WORK/all.c" || fail "the kit's headers do not compile together"
done
# Lines like "/* <inc>/x.h:12:NC */ extern int f (int);": C marks a declaration.
cat "$WORK/aux0" "$WORK/aux1" | grep -F "/* $inc/" | grep -E ':[0-9]+:.C \*/' |
	sed -E 's/\(.*//; s/.*[ *]([A-Za-z_][A-Za-z0-9_]*) *$/\1/' | sort -u > "$WORK/declared"
n=$(wc -l < "$WORK/declared")
[ "$n" -gt 150 ] || fail "only $n declarations found: the extraction is broken"
for f in TEE_Malloc tee_map_zi atomic_inc32 strlcpy dhex_dump __GP11_TEE_Malloc; do
	grep -qx "$f" "$WORK/declared" || fail "the extraction missed $f"
done

missing=
for f in $(cat "$WORK/declared"); do
	case $f in
	TA_*EntryPoint | __GP11_TA_*EntryPoint) continue ;;
	esac
	grep -qx "$f" "$syms" || grep -qx "$f" "$WORK/libc" || missing="$missing $f"
done
[ -z "$missing" ] || fail "declared by the kit, defined nowhere:$missing"
echo "PASS: $n declared functions, each in the TA runtime or the C library"
