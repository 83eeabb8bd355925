#!/bin/sh
# tpm2-tools through the swtee TCTI (libtss2-tcti-swtee, no swtee-tpm):
# by name and by path, the TPM running on from one tool to the next, and
# refused while swtee-tpm holds the fTPM's one session. Run under
# swtee run (no --tpm). Arguments: the build dir.
set -u
BUILD=$1
T=$BUILD/lib/libtss2-tcti-swtee.so.0
W=$(mktemp -d)
bridge=
trap '[ -n "$bridge" ] && kill $bridge 2>/dev/null; rm -rf "$W"' EXIT
fails=0

check() { # check WHAT WANT_REGEX GOT
	if printf '%s\n' "$3" | grep -Eq "$2"; then
		echo "ok   $1"
	else
		echo "FAIL $1: expected /$2/, got '$3'"
		fails=$((fails + 1))
	fi
}

hex() { od -An -tx1 -v "$1" | tr -d ' \n'; }

"$BUILD/bin/tcti_sequence" || fails=$((fails + 1))

# A sanitizer build's TCTI needs the ASan runtime first in the process:
# preloaded into tpm2-tools (built without it), they hang at exit in
# p11-kit's destructor. The contract above ran sanitized; the tools run
# against the plain build.
if readelf -d "$T" | grep -q libasan; then
	echo "skip tpm2-tools through a sanitizer build's TCTI"
	echo "$fails failed"
	[ "$fails" = 0 ]
	exit
fi

tpm2_getrandom -T "$T" -o "$W/r" 32
check "getrandom 32 by path" "^32$" "$(stat -c %s "$W/r" 2>/dev/null)"
LD_LIBRARY_PATH=$BUILD/lib tpm2_getrandom -T swtee -o "$W/r2" 16
check "getrandom 16 by name (-T swtee)" "^16$" "$(stat -c %s "$W/r2" 2>/dev/null)"

# PCR 16 (resettable), extended by one process, read by the next.
d=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff
tpm2_pcrreset -T "$T" 16
tpm2_pcrextend -T "$T" "16:sha256=$d"
tpm2_pcrread -T "$T" sha256:16 -o "$W/pcr" >/dev/null
want=$(python3 -c 'import hashlib, sys; print(hashlib.sha256(bytes(32) + bytes.fromhex(sys.argv[1])).hexdigest())' $d)
check "an extend seen by the next tool: the TPM runs on between them" "^$want$" "$(hex "$W/pcr")"

# No resource manager: what a tool loads stays until it is flushed.
tpm2_createprimary -T "$T" -Q -C o -G ecc256 -c "$W/p.ctx"
check "a primary stays loaded after its tool" "^- 0x80" "$(tpm2_getcap -T "$T" handles-transient)"
tpm2_flushcontext -T "$T" -t
# (The tool must succeed: its empty output alone would pass a failing call.)
check "and is gone once flushed" "^none$" \
	"$(tpm2_getcap -T "$T" handles-transient >"$W/h" && [ ! -s "$W/h" ] && echo none)"

check "a configuration string is refused, saying why" "takes no configuration" \
	"$(tpm2_getrandom -T "$T:socket=/x" 8 2>&1 >/dev/null)"

# swtee-tpm holds the fTPM's one session: the TCTI says so and fails.
"$BUILD/bin/swtee-tpm" --swtpm "unix:$W/b" -q &
bridge=$!
for i in $(seq 50); do [ -S "$W/b" ] && break; sleep 0.1; done
out=$(tpm2_getrandom -T "$T" 8 2>&1 >/dev/null)
check "with swtee-tpm running: refused" "in use by another program" "$out"
tpm2_getrandom -T "swtpm:path=$W/b" -o "$W/r3" 8
check "swtee-tpm serves meanwhile" "^8$" "$(stat -c %s "$W/r3" 2>/dev/null)"
kill $bridge
wait $bridge 2>/dev/null
bridge=
ok=
for i in $(seq 40); do
	tpm2_getrandom -T "$T" -o "$W/r4" 8 2>/dev/null && ok=1 && break
	sleep 0.1
done
check "once swtee-tpm is gone, the TCTI reaches the fTPM again" "^8$" "$(stat -c %s "$W/r4" 2>/dev/null)"

echo "$fails failed"
[ "$fails" = 0 ]
