#!/bin/sh
# The client export's teec_trace.h and tee_plugin_method.h, used as
# optee_client's libckteec uses them: a shared library logging through the
# macros and linking _dprintf and dump_buffer from libteec (every symbol
# resolved at link time), built with CMake (find_package, DEBUGLEVEL_3) and
# with make (TEEC_EXPORT, the level from optee_client_config.mk: 1). Checks
# the lines' form, which levels are compiled in, that stdout stays the
# program's, the cut of a long message, and dump_buffer's environment gate.
. "$(dirname "$0")/common.sh"

src=$SWTEE_SOURCE/tests/devkit/host_tracelib
line_re='^ERR \[[0-9]+\] LT:tracelib_log:[0-9]+: an error 7$'

# demo BINARY OUT ERR [ARGS]: runs the demo with the build tree's libteec.
demo() {
	bin=$1
	out=$2
	err=$3
	shift 3
	$(asan_preload) env LD_LIBRARY_PATH="$SWTEE_BUILD/lib" "$bin" "$@" > "$out" 2> "$err" ||
		{ cat "$err"; fail "$bin $* exits with an error"; }
}

# has FILE REGEX MESSAGE, hasnt FILE REGEX MESSAGE
has() { grep -Eq -- "$2" "$1" || { cat "$1"; fail "$3"; }; }
hasnt() { ! grep -Eq -- "$2" "$1" || { cat "$1"; fail "$3"; }; }

# CMake, DEBUGLEVEL_3: errors, info and debug; no flow (INMSG/OUTMSG).
cmake -S "$src" -B "$WORK/cmake" -Dswtee_DIR="$SWTEE_BUILD/lib/cmake/swtee" > "$WORK/cmake.log" 2>&1 &&
	cmake --build "$WORK/cmake" >> "$WORK/cmake.log" 2>&1 ||
	{ cat "$WORK/cmake.log"; fail "the CMake trace library does not build and link"; }
d=$WORK/cmake/trace_demo
demo "$d" "$WORK/out" "$WORK/err"
[ "$(cat "$WORK/out")" = "returned 7, plugin tracelib" ] ||
	{ cat "$WORK/out"; fail "stdout is not the program's alone (or OUTRMSG did not return 7)"; }
has "$WORK/err" "$line_re" "no error line of the form 'ERR [tid] LT:function:line: text'"
has "$WORK/err" '^INF \[[0-9]+\] LT:tracelib_log:[0-9]+: some info 7$' "level 3: no info line"
has "$WORK/err" '^DBG \[[0-9]+\] LT:tracelib_log:[0-9]+: a debug line 7$' "level 3: no debug line"
hasnt "$WORK/err" '^FLW' "level 3: a flow line was compiled in"
has "$WORK/err" '^raw text 7$' "EMSG_RAW did not print the bare text"
has "$WORK/err" 'LT:tracelib_log:[0-9]+: Function returns with \[7\]$' "OUTRMSG did not log the error"
echo "ok: CMake build, DEBUGLEVEL_3"

# A message longer than the trace buffer is cut, and shows it.
demo "$d" "$WORK/out" "$WORK/err" long
has "$WORK/err" '^ERR .*xxxx\.\.\.$' "a long message is not cut with '...'"
[ "$(wc -c < "$WORK/err")" -le 512 ] || fail "a long message was not cut to the buffer"

# dump_buffer: nothing by default (callers dump keys), a dump at level 3.
demo "$d" "$WORK/out" "$WORK/err" dump
[ ! -s "$WORK/err" ] || { cat "$WORK/err"; fail "dump_buffer printed without SWTEE_TEEC_LOG_LEVEL"; }
SWTEE_TEEC_LOG_LEVEL=2 demo "$d" "$WORK/out" "$WORK/err" dump
[ ! -s "$WORK/err" ] || fail "dump_buffer printed at SWTEE_TEEC_LOG_LEVEL=2"
SWTEE_TEEC_LOG_LEVEL=3 demo "$d" "$WORK/out" "$WORK/err" dump
has "$WORK/err" '^#### key$' "no dump header"
has "$WORK/err" '^00 01 02 03 04 05 06 07  08 09 0a 0b 0c 0d 0e 0f  \|\.{16}\|$' "the first row"
has "$WORK/err" '^41 42 43 {42}\|ABC\|$' "the short last row"
echo "ok: long messages, dump_buffer"

# make with TEEC_EXPORT, as optee_client's Makefiles: level 1, errors only.
copy "$src" make-lib
make -C "$WORK/make-lib" OPTEE_CLIENT_EXPORT="$EXPORT" > "$WORK/make.log" 2>&1 ||
	{ cat "$WORK/make.log"; fail "the make trace library does not build and link"; }
has "$WORK/make.log" '-DDEBUGLEVEL_1 ' "optee_client_config.mk did not give level 1"
demo "$WORK/make-lib/trace_demo" "$WORK/out" "$WORK/err"
has "$WORK/err" "$line_re" "make build: no error line"
hasnt "$WORK/err" '^(INF|DBG|FLW)' "make build, level 1: info or debug compiled in"
echo "ok: make build with TEEC_EXPORT, level 1"
echo "PASS: teec_trace.h and tee_plugin_method.h, with CMake and make"
