#!/usr/bin/env bash
# Login identities come from the kernel: with two real users (and a third
# outside the TEE's group), each client gets the identity of the user it
# runs as, whatever it claims, and a non-member cannot reach the core at all.
# The core, tee-supplicant and the clients run as users of their own, as the
# shipped units do: the supplicant serves TAs and storage yet cannot read the
# core's secrets, no other user may pose as the supplicant, and no process of
# the core's user can write the memory of the TA zygote or a spare instance.
# Needs root (to make users); prints "N passed, M failed" last.
set -u
BUILD=$1
if [ "$(id -u)" != 0 ]; then
	echo "skipped: needs root to create test users"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
pass=0
fail=0
check() { # name expected got
	if [ "$2" = "$3" ]; then
		pass=$((pass + 1)); echo "ok   $1"
	else
		fail=$((fail + 1)); echo "FAIL $1: expected '$2', got '$3'"
	fi
}

getent group swtee-t-tee >/dev/null || groupadd swtee-t-tee
getent group swtee-t-other >/dev/null || groupadd swtee-t-other
for u in swtee-t-core swtee-t-supp swtee-t-tpmu swtee-t-a swtee-t-b swtee-t-c swtee-t-d; do
	id "$u" >/dev/null 2>&1 || useradd -M -N -g nogroup -s /usr/sbin/nologin "$u"
done
usermod -a -G swtee-t-tee swtee-t-core
usermod -a -G swtee-t-tee swtee-t-a
usermod -a -G swtee-t-tee swtee-t-b
usermod -a -G swtee-t-tee swtee-t-supp
usermod -g swtee-t-tee swtee-t-tpmu
getent group swtee-t-supp >/dev/null || groupadd swtee-t-supp
usermod -g swtee-t-supp swtee-t-supp
usermod -a -G swtee-t-supp swtee-t-core
# d may open the supplicant's socket: only the core's check of its uid stops it.
usermod -a -G swtee-t-tee,swtee-t-supp swtee-t-d

run=$(mktemp -d /tmp/swtee-priv.XXXXXX)
chmod 0755 "$run"
# The test users may not be able to reach the checkout (a private home or
# temporary folder): they run a copy of what they need.
mkdir -p "$run/build/bin"
cp "$BUILD/bin/swteed" "$BUILD/bin/tee-supplicant" "$BUILD/bin/login_identity" \
	"$BUILD/bin/xtest" "$BUILD/bin/swtee-tpm" "$run/build/bin/"
cp -r "$BUILD/lib" "$run/build/"
chmod -R a+rX "$run/build"
BUILD=$run/build
export LD_LIBRARY_PATH=$BUILD/lib
install -d -o swtee-t-core -g swtee-t-tee -m 0750 "$run/sock"
install -d -o swtee-t-core -g "$(id -g swtee-t-core)" -m 0700 "$run/secure"
install -d -o swtee-t-supp -g swtee-t-supp -m 0700 "$run/ree"
sock=$run/sock/tee.sock
supp=$run/sock/supplicant.sock
as_user() { local u=$1; shift; exec setpriv --reuid="$u" --regid="$(id -g "$u")" --init-groups "$@"; }

# The core and the supplicant start as the shipped units start them (dist/),
# with the test's directories and users for the system's.
dist=$(cd "$(dirname "$0")/../../dist" && pwd)
unit_cmd() {
	sed -n 's/^ExecStart=//p' "$dist/$1" | sed -e "s|/usr/local/bin|$BUILD/bin|g" \
		-e "s|/usr/local/lib|$BUILD/lib|g" -e "s|/run/swtee-tpm|$run/tpm|g" \
		-e "s|/run/swtee/|$run/sock/|g" -e "s|/var/lib/swtee|$run|g" -e "s|--supplicant-user swtee-supp|--supplicant-user swtee-t-supp|" \
		-e "s|--socket-group tee|--socket-group swtee-t-tee|"
}
unit_user() { sed -n 's/^User=//p' "$dist/$1"; }
check "the units run the core and the supplicant as two users" "swtee swtee-supp" \
	"$(unit_user swteed.service) $(unit_user tee-supplicant.service)"
read -r -a core_cmd <<<"$(unit_cmd swteed.service)"
read -r -a supp_cmd <<<"$(unit_cmd tee-supplicant.service)"
(as_user swtee-t-core "${core_cmd[@]}" -q) 2> "$run/core.log" &
core=$!
for _ in $(seq 100); do [ -S "$supp" ] && break; sleep 0.05; done
# pose USER: tee-supplicant's exit status as USER, given 5 s (124: it was
# still running then, as an accepted supplicant would be).
pose() {
	(as_user "$1" timeout 5 "$BUILD/bin/tee-supplicant" -f "$run/ree" -l "$BUILD/lib/swtee/ta" \
		"$supp") >/dev/null 2>&1
	echo $?
}
# Another member of the TEE's group cannot even open the supplicant's socket;
# one that can (d) is refused by the core, which names its uid.
check "user a cannot open the supplicant's socket" "PermissionError" \
	"$( (as_user swtee-t-a /usr/bin/python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
try:
    s.connect(sys.argv[1]); print("connected")
except OSError as e:
    print(type(e).__name__)' "$supp") 2>&1)"
st=$(pose swtee-t-d)
check "user d, of the supplicant's group, cannot be the supplicant" "refused" \
	"$([ "$st" != 0 ] && [ "$st" != 124 ] &&
		grep -q "refusing a supplicant connection from uid $(id -u swtee-t-d)" "$run/core.log" &&
		echo refused || echo "exit $st")"
(as_user swtee-t-supp "${supp_cmd[@]}") &
supp_pid=$!
sleep 0.3

export SWTEE_SOCKET=$sock
ident() { (as_user "$1" "$BUILD/bin/login_identity" "${@:2}"); }
uid_a=$(id -u swtee-t-a); uid_b=$(id -u swtee-t-b)
gid_tee=$(getent group swtee-t-tee | cut -d: -f3)
gid_other=$(getent group swtee-t-other | cut -d: -f3)

check "socket is group-only" "660 swtee-t-tee" "$(stat -c '%a %G' "$sock")"
check "user a: USER login" "1 $(python3 "$(dirname "$0")/uuid_v5.py" "uid=$(printf %x "$uid_a")")" "$(ident swtee-t-a user)"
check "user b: USER login" "1 $(python3 "$(dirname "$0")/uuid_v5.py" "uid=$(printf %x "$uid_b")")" "$(ident swtee-t-b user)"
check "user a: PUBLIC login" "0 00000000-0000-0000-0000-000000000000" "$(ident swtee-t-a public)"
check "user a: GROUP login, a member" "2 $(python3 "$(dirname "$0")/uuid_v5.py" "gid=$(printf %x "$gid_tee")")" "$(ident swtee-t-a group "$gid_tee")"
check "user a: GROUP login, not a member" "error ffff0001" "$(ident swtee-t-a group "$gid_other")"
# The executable of another user's process is not the core's to read
# (/proc/PID/exe): an APPLICATION login across users is refused, never guessed.
check "user a: APPLICATION login, core of another user" "error ffff0001" "$(ident swtee-t-a app)"
check "core user: APPLICATION login" "4 $(python3 "$(dirname "$0")/uuid_v5.py" "app=$(readlink -f "$BUILD/bin/login_identity")")" "$(ident swtee-t-core app)"
check "user c (not in the group) cannot connect" "error ffff0008" "$(ident swtee-t-c user)"
check "state of the core is not readable by others" "750" "$(stat -c %a "$run/sock")"
check "supplicant socket: supplicant's group only" "660 swtee-t-supp" "$(stat -c '%a %G' "$supp")"

# Storage goes through the supplicant under its own user; the key it is
# sealed with stays where that user cannot read it.
check "storage through a supplicant of its own user" "0" \
	"$( (as_user swtee-t-a "$BUILD/bin/xtest" -t regression 6001 >/dev/null 2>&1); echo $?)"
check "the core keeps a storage key" "yes" "$([ -s "$run/secure/huk" ] && echo yes || echo no)"
check "supplicant cannot read the core's secrets" "denied" \
	"$( (as_user swtee-t-supp cat "$run/secure/huk") >/dev/null 2>&1 && echo read || echo denied)"
check "supplicant's files are its own" "swtee-t-supp" \
	"$(find "$run/ree" -mindepth 1 -printf '%u\n' | sort -u | tr '\n' ' ' | sed 's/ $//')"

# Non-dumpable processes have their /proc files owned by root: the core's
# user cannot open their memory.
zygote=$(pgrep -P "$core" -x swtee-zygote || pgrep -u swtee-t-core -x swtee-zygote)
check "the TA zygote is running" "yes" "$([ -n "$zygote" ] && echo yes || echo no)"
check "the TA zygote is not dumpable" "root" "$(stat -c %U "/proc/$zygote/mem" 2>&1)"
spares=$(pgrep -P "$zygote" | head -1)
check "a spare TA process is not dumpable" "root" "$(stat -c %U "/proc/$spares/mem" 2>&1)"
check "the core's user cannot write the zygote's memory" "denied" \
	"$( (as_user swtee-t-core sh -c "exec 3<>/proc/$zygote/mem") 2>/dev/null && echo opened || echo denied)"

# The firmware TPM as its unit runs it, its directory as systemd's
# RuntimeDirectory= makes it: tpm2-tools of a member of the TEE's group reach
# it with no -T option once the login snippet has run; a user outside the
# group gets no TCTI from the snippet and cannot open the socket.
install -d -o swtee-t-tpmu -g swtee-t-tee -m 0750 "$run/tpm"
check "the TPM unit runs as a user of its own in the TEE's group" "swtee-tpm tee" \
	"$(unit_user swtee-tpm.service) $(sed -n 's/^Group=//p' "$dist/swtee-tpm.service")"
read -r -a tpm_cmd <<<"$(unit_cmd swtee-tpm.service)"
(as_user swtee-t-tpmu env SWTEE_SOCKET="$sock" LD_LIBRARY_PATH="$BUILD/lib" "${tpm_cmd[@]}") \
	2> "$run/tpm.log" &
tpm_pid=$!
for _ in $(seq 200); do [ -S "$run/tpm/swtpm" ] && break; sleep 0.05; done
sed "s|/run/swtee-tpm|$run/tpm|g" "$dist/swtee-tpm.sh" > "$run/profile.sh"
chmod a+r "$run/profile.sh"
# login USER CMD: CMD in USER's login environment (the snippet sourced, no TCTI set).
login() {
	local u=$1; shift
	(as_user "$u" env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="$BUILD/lib" \
		sh -c '. "$0"; "$@"' "$run/profile.sh" "$@")
}
check "TPM sockets: the TEE's group only" "660 swtee-t-tee 750" \
	"$(stat -c '%a %G' "$run/tpm/swtpm") $(stat -c '%a' "$run/tpm")"
check "user a: tpm2_getrandom with default paths" "16" \
	"$(login swtee-t-a tpm2_getrandom --hex 8 2>/dev/null | tr -d '\n' | wc -c)"
check "user a: a PCR extend and read with default paths" "0" \
	"$(login swtee-t-a sh -c 'tpm2_pcrextend 16:sha256=$(printf "%064d" 1) &&
		tpm2_pcrread sha256:16' >/dev/null 2>&1; echo $?)"
check "user c, outside the group: no TCTI from the login snippet" "" \
	"$(login swtee-t-c sh -c 'echo "${TPM2TOOLS_TCTI:-}"')"
check "user c cannot open the TPM socket" "denied" \
	"$(login swtee-t-c tpm2_getrandom -T "swtpm:path=$run/tpm/swtpm" 8 >/dev/null 2>&1 &&
		echo served || echo denied)"

[ "$fail" = 0 ] || cat "$run/core.log" "$run/tpm.log"
kill "$tpm_pid" 2>/dev/null
wait "$tpm_pid" 2>/dev/null
kill "$supp_pid" "$core" 2>/dev/null
wait "$core" "$supp_pid" 2>/dev/null
rm -rf "$run"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
