# Shared by the devkit tests: sourced, with SWTEE_BUILD (the build tree) and
# SWTEE_SOURCE (the source tree) in the environment, as CTest sets them.
# Each test works in a temporary directory of its own, removed at the end
# unless KEEP=1.
set -eu

: "${SWTEE_BUILD:?set SWTEE_BUILD to the build tree}"
: "${SWTEE_SOURCE:?set SWTEE_SOURCE to the source tree}"
KIT=$SWTEE_BUILD/ta_dev_kit
EXPORT=$SWTEE_BUILD/teec_export
SWTEE=$SWTEE_BUILD/bin/swtee
SKIP=77

WORK=$(mktemp -d "${TMPDIR:-/tmp}/swtee-devkit.XXXXXX")
cleanup() {
	if [ "${KEEP:-0}" = 1 ]; then
		echo "kept $WORK"
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit $SKIP
}

# copy DIR NAME: a fresh copy of an example or test project to build in.
copy() {
	rm -rf "${WORK:?}/$2"
	cp -r "$1" "$WORK/$2"
}

# build DIR [VAR=value...]: the OP-TEE command line.
build() {
	d=$1
	shift
	make -C "$d" TA_DEV_KIT_DIR="$KIT" TEEC_EXPORT="$EXPORT" "$@"
}

# run TA_DIR LOG CMD...: CMD on a private TEE, its TA dir searched first;
# the TEE's and CMD's stderr go to LOG (and to ours).
run() {
	ta=$1
	log=$2
	shift 2
	# shellcheck disable=SC2086 # RUN_OPTS is a list of options
	$(asan_preload) "$SWTEE" run ${RUN_OPTS:-} --state "$WORK/state" --ta-path "$ta" -- "$@" 2> "$log" || {
		rc=$?
		cat "$log" >&2
		return $rc
	}
	cat "$log" >&2
}

# The GP functions the TA in ELF calls that the TA runtime does not export.
missing_gp() {
	syms=$KIT/lib/ta_runtime.syms
	for s in $(nm -D --undefined-only --format=posix "$1" | cut -d' ' -f1 | sed 's/@.*//' |
		grep -E '^(TEE_|__GP11_|tee_|trace_)'); do
		grep -qx "$s" "$syms" || printf '%s ' "$s"
	done
}

# Whether swtee was built with AddressSanitizer (make test-asan).
host_has_asan() {
	readelf -d "$SWTEE_BUILD/lib/swtee/swtee-ta-host" | grep -q 'libasan'
}

# In an AddressSanitizer build of swtee, libteec carries the ASan runtime,
# which must come first in a client built without it: prints the env
# prefix that preloads it, or nothing.
asan_preload() {
	if host_has_asan; then
		echo "env LD_PRELOAD=$(cc -print-file-name=libasan.so)"
	fi
}
