#!/bin/sh
# The kit's host_include/ and the client export used the way optee_test
# builds xtest, in the build tree and once installed: every kit header is
# there, the headers xtest takes from it compile alone with xtest's flags,
# conf.h and conf.cmake say what conf.mk says, a bad conf.mk line stops the
# configuration, and the xtest-shaped program (tests/devkit/host_xtest)
# builds with -include conf.h and -Werror, reads swtee's signed images
# through signed_hdr.h (and refuses a wrong UUID or a corrupt magic), and
# opens the pseudo TAs of pta_*.h swtee has and finds none of the others.
. "$(dirname "$0")/common.sh"

# What xtest's host sources include from host_include.
xtest_headers="tee_api_types.h tee_api_defines.h tee_api_defines_extensions.h tee_api_compat.h
utee_defines.h util.h compiler.h types_ext.h signed_hdr.h pta_invoke_tests.h
pta_secstor_ta_mgmt.h pta_stats.h pta_attestation.h pta_system.h tee_isocket.h tee_tcpsocket.h
tee_udpsocket.h __tee_isocket_defines.h __tee_tcpsocket_defines.h
__tee_tcpsocket_defines_extensions.h __tee_udpsocket_defines.h"
xtest_flags="-Wall -Wextra -Wcast-align -Werror-implicit-function-declaration -Wfloat-equal
-Wformat=2 -Winit-self -Wmissing-declarations -Wmissing-include-dirs -Wmissing-prototypes
-Wnested-externs -Wpointer-arith -Wshadow -Wstrict-prototypes -Wswitch-default -Wwrite-strings
-Wno-unused-parameter -Werror"
images=$SWTEE_BUILD/lib/swtee/ta

# layout KIT EXPORT: the files OP-TEE's users expect.
layout() {
	for f in conf.mk conf.h conf.cmake signed_hdr.h pta_invoke_tests.h pta_secstor_ta_mgmt.h \
		pta_stats.h pta_attestation.h pta_system.h; do
		[ -e "$1/host_include/$f" ] || fail "$1/host_include has no $f"
	done
	for h in "$1"/include/*.h; do
		[ -e "$1/host_include/${h##*/}" ] || fail "$1/host_include lacks the kit's ${h##*/}"
	done
	for f in teec_trace.h tee_plugin_method.h optee_client_config.mk; do
		[ -e "$2/include/$f" ] || fail "the client export $2 has no include/$f"
	done
}

# alone KIT: each header xtest uses compiles by itself on the host.
alone() {
	for h in $xtest_headers; do
		printf '#include <%s>\n' "$h" > "$WORK/one.c"
		# shellcheck disable=SC2086 # a list of flags
		cc $xtest_flags -I"$1/host_include" -include conf.h -c "$WORK/one.c" -o "$WORK/one.o" \
			2> "$WORK/one.log" || { cat "$WORK/one.log"; fail "$h does not compile alone on the host"; }
	done
}

# agree KIT OUT: the host_xtest check output and conf.cmake agree with conf.mk.
agree() {
	grep '^CFG_' "$2" > "$WORK/printed"
	[ -s "$WORK/printed" ] || fail "host_xtest check printed no settings"
	while read -r l; do
		grep -qx "$l" "$1/host_include/conf.mk" || fail "conf.h gives $l, conf.mk does not"
	done < "$WORK/printed"
	cat > "$WORK/agree.cmake" <<-'E'
		include(${KIT}/host_include/conf.cmake)
		file(STRINGS ${KIT}/host_include/conf.mk lines REGEX "^CFG_")
		foreach(l IN LISTS lines)
			string(REGEX MATCH "^([A-Z0-9_]+)=(.*)$" m "${l}")
			if(CMAKE_MATCH_2 STREQUAL "n")
				if(DEFINED ${CMAKE_MATCH_1})
					message(FATAL_ERROR "conf.cmake sets ${CMAKE_MATCH_1}; conf.mk: n")
				endif()
			elseif(NOT "${${CMAKE_MATCH_1}}" STREQUAL "${CMAKE_MATCH_2}")
				message(FATAL_ERROR "conf.cmake: ${CMAKE_MATCH_1} is not ${CMAKE_MATCH_2}")
			endif()
		endforeach()
	E
	cmake -DKIT="$1" -P "$WORK/agree.cmake" || fail "conf.cmake and conf.mk disagree ($1)"
}

# host_xtest KIT EXPORT NAME: built as optee_test builds xtest, then run.
host_xtest() {
	copy "$SWTEE_SOURCE/tests/devkit/host_xtest" "$3"
	make -C "$WORK/$3" TA_DEV_KIT_DIR="$1" OPTEE_CLIENT_EXPORT="$2" > "$WORK/$3.log" 2>&1 ||
		{ cat "$WORK/$3.log"; fail "the xtest-shaped program does not build ($3)"; }
	grep -q -- '-include conf.h' "$WORK/$3.log" || fail "not built with -include conf.h"
	grep -q 'sockets\.c' "$WORK/$3.log" || fail "conf.mk's CFG_GP_SOCKETS=y did not reach make"
	bin=$WORK/$3/host_xtest
	tee_env="$(asan_preload) env LD_LIBRARY_PATH=$2/lib"
	$tee_env "$bin" check > "$WORK/check.out" || { cat "$WORK/check.out"; fail "host_xtest check ($3)"; }
	grep -qx 'plugin path: /usr/lib/tee-supplicant/plugins/' "$WORK/check.out" ||
		fail "optee_client_config.mk did not reach make"
	agree "$1" "$WORK/check.out"
	n=0
	for ta in "$images"/*.ta; do
		uuid=${ta##*/}
		uuid=${uuid%.ta}
		$tee_env "$bin" shdr "$ta" "$uuid" || fail "signed_hdr.h does not describe $ta"
		n=$((n + 1))
		[ $n -lt 3 ] || break
	done
	[ $n -gt 0 ] || fail "no signed image in $images to read"
	if $tee_env "$bin" shdr "$ta" 00000000-0000-0000-0000-000000000000 > "$WORK/neg"; then
		fail "host_xtest shdr accepted an image under another UUID"
	fi
	cp "$ta" "$WORK/bad.ta"
	printf 'X' | dd of="$WORK/bad.ta" bs=1 seek=0 conv=notrunc 2> /dev/null
	if $tee_env "$bin" shdr "$WORK/bad.ta" "$uuid" > "$WORK/neg"; then
		fail "host_xtest shdr accepted a corrupt magic"
	fi
}

# A conf.mk line that is not CFG_<NAME>=y|n|<number> stops the configuration.
conf_lines() {
	printf '%s\n' "include($SWTEE_SOURCE/ta_dev_kit/host_include.cmake)" \
		'swtee_conf_lines(${IN} h c)' 'file(WRITE ${OUT} "${h}")' > "$WORK/gen.cmake"
	cmake -DIN="$1" -DOUT="$WORK/gen.h" -P "$WORK/gen.cmake" > "$WORK/gen.log" 2>&1
}
printf '# a comment\n\nCFG_A=y\nCFG_B=n\nCFG_C=42\n' > "$WORK/good.mk"
conf_lines "$WORK/good.mk" || { cat "$WORK/gen.log"; fail "a good conf.mk is refused"; }
grep -qx '#define CFG_A 1' "$WORK/gen.h" && grep -qx '/\* CFG_B is not set \*/' "$WORK/gen.h" &&
	grep -qx '#define CFG_C 42' "$WORK/gen.h" || { cat "$WORK/gen.h"; fail "conf.h is not in OP-TEE's form"; }
for bad in 'CFG_A=maybe' 'CFG_A = y' 'cfg_a=y' 'CFG_A=y # trailing'; do
	printf '%s\n' "$bad" > "$WORK/bad.mk"
	if conf_lines "$WORK/bad.mk"; then
		fail "conf.mk line '$bad' was taken"
	fi
done
echo "ok: conf.h and conf.cmake from conf.mk, bad lines refused"

layout "$KIT" "$EXPORT"
alone "$KIT"
host_xtest "$KIT" "$EXPORT" hx-build
run "$WORK" "$WORK/pta.log" "$WORK/hx-build/host_xtest" pta || fail "a pseudo TA answered, or the TEE did not run"
echo "ok: build tree"

prefix=$WORK/prefix
cmake --install "$SWTEE_BUILD" --prefix "$prefix" > "$WORK/install.log" 2>&1 ||
	{ cat "$WORK/install.log"; fail "cmake --install"; }
ikit=$prefix/share/swtee/ta_dev_kit
[ ! -L "$ikit/host_include/conf.h" ] || fail "the installed host_include holds links, not copies"
layout "$ikit" "$prefix"
alone "$ikit"
host_xtest "$ikit" "$prefix" hx-installed
echo "ok: installed"
echo "PASS: host_include and the client export, built as optee_test builds xtest"
