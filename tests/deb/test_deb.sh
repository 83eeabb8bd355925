#!/usr/bin/env bash
# The Debian packages, installed as a user installs them, in a fresh Debian
# root: a minbase bookworm made by debootstrap (cached as a tarball, so only
# the first run downloads it), where `apt install ./*.deb` brings their
# dependencies from Debian (kept in the cache for the next run too). In that root, swteed and tee-supplicant start as
# their systemd units say (ExecStart=, User=, Group=, SupplementaryGroups=,
# UMask=, NoNewPrivileges=), and a user of the group "tee" runs the
# installed xtest against them with the default paths, storage included,
# and tpm2-tools against swtee-tpm as its unit runs it, with no -T option;
# a TA built with the installed developer kit, and a client built with
# pkg-config teec, run too. Everything runs in a private mount and PID
# namespace, so no mount or process outlives the test.
#
#   test_deb.sh DEB_DIR BUILD_DIR [CACHE_DIR]
# DEB_DIR holds the .deb files; BUILD_DIR is the CMake build they came from,
# whose test TAs (component test-tas, in no package) the regression cases
# need: they are copied into the root's TA directory by the test, not by a
# package. $DEB_MIRROR is the Debian mirror (default deb.debian.org).
# Needs root; prints "N passed, M failed" last.
set -u
DEB_DIR=$(realpath "$1")
BUILD_DIR=$(realpath "$2")
CACHE=${3:-$BUILD_DIR/../debootstrap}
MIRROR=${DEB_MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm

skip() {
	echo "skipped: $1"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
}
[ "$(id -u)" = 0 ] || skip "needs root (debootstrap, chroot, users); run: sudo make test-deb"
for tool in debootstrap chroot unshare setpriv cmake; do
	command -v "$tool" >/dev/null ||
		skip "$tool is missing (apt-get install debootstrap util-linux coreutils cmake)"
done
ls "$DEB_DIR"/*.deb >/dev/null 2>&1 || { echo "no .deb in $DEB_DIR: run make deb"; exit 1; }

# Inside a private mount and PID namespace from here on.
if [ -z "${SWTEE_DEB_TEST_NS:-}" ]; then
	export SWTEE_DEB_TEST_NS=1
	exec unshare --mount --propagation private --pid --fork "$0" "$DEB_DIR" "$BUILD_DIR" "$CACHE"
fi

pass=0
fail=0
check() { # name command...
	local name=$1
	shift
	if "$@" >"$work/out" 2>&1; then
		pass=$((pass + 1)); echo "ok   $name"
	else
		fail=$((fail + 1)); echo "FAIL $name"; tail -20 "$work/out" | sed 's/^/     /'
	fi
}
t0=$(date +%s)
stamp() { echo "     [$(($(date +%s) - t0)) s] $1"; }

work=$(mktemp -d /tmp/swtee-deb.XXXXXX)
root=$work/root
# The root's mounts go first, deepest first; and rm stays on the root's own
# file system whatever is still mounted below it.
cleanup() {
	findmnt -rn -o TARGET | grep "^$root/" | sort -r | while read -r m; do umount -l "$m"; done
	rm -rf --one-file-system "$work"
}
trap cleanup EXIT

# The base root: debootstrap once, then a copy of its tarball each run.
base=$CACHE/$SUITE-minbase.tar
if [ ! -s "$base" ]; then
	mkdir -p "$CACHE"
	stamp "debootstrap --variant=minbase $SUITE from $MIRROR (once; cached in $base)"
	if ! debootstrap --variant=minbase "$SUITE" "$work/base" "$MIRROR" >"$work/debootstrap.log" 2>&1; then
		tail -20 "$work/debootstrap.log"
		echo "FAIL debootstrap could not make a $SUITE root from $MIRROR"
		echo "0 passed, 1 failed"
		exit 1
	fi
	tar -C "$work/base" -cf "$base.part" . && mv "$base.part" "$base"
	rm -rf "$work/base"
fi
mkdir "$root"
tar -C "$root" -xf "$base"
stamp "fresh root from $base"
# A /dev of its own with the usual nodes, never the host's.
mount -t tmpfs -o mode=0755 tmpfs "$root/dev"
for n in null zero full random urandom tty; do cp -a "/dev/$n" "$root/dev/$n"; done
ln -s /proc/self/fd "$root/dev/fd"
for i in 0:stdin 1:stdout 2:stderr; do ln -s "/proc/self/fd/${i%%:*}" "$root/dev/${i#*:}"; done
mkdir "$root/dev/shm" "$root/dev/pts"
mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
mount -t proc proc "$root/proc"
mount -t sysfs -o ro sysfs "$root/sys"
mount -t tmpfs tmpfs "$root/run"
# Debian's packages the root downloads are kept for the next run.
mkdir -p "$CACHE/archives/partial"
mount --bind "$CACHE/archives" "$root/var/cache/apt/archives"
mount -t tmpfs tmpfs "$root/tmp"
chmod 1777 "$root/tmp"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
# No service starts at install time: the test starts them itself.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"; }

mkdir "$root/tmp/debs"
cp "$DEB_DIR"/*.deb "$root/tmp/debs/"
check "apt install ./*.deb in a fresh $SUITE root ($(cd "$DEB_DIR" && echo *.deb))" \
	in_root sh -c 'apt-get update -qq && cd /tmp/debs && apt install -y -q -o APT::Keep-Downloaded-Packages=true ./*.deb'
stamp "packages installed"

# What the packages hold: the shipped TAs, none of the test TAs.
mkdir "$work/tas"
cmake --install "$BUILD_DIR" --component test-tas --prefix "$work/tas" >/dev/null
n_test_tas=$(ls "$work/tas/lib/swtee/ta" | wc -l)
for d in "$DEB_DIR"/*.deb; do dpkg-deb -c "$d"; done | awk '{print $NF}' >"$work/contents"
packaged_test_tas() {
	local ta
	for ta in $(ls "$work/tas/lib/swtee/ta"); do
		! grep -q "/$ta\$" "$work/contents" || { echo "packaged: $ta"; return 1; }
	done
}
check "the packages hold none of the $n_test_tas test TAs (the hostile one among them)" \
	packaged_test_tas
check "users swtee, swtee-supp, swtee-tpm (in group tee) and group tee exist (sysusers.d)" \
	in_root sh -c 'id swtee && id swtee-supp && id -nG swtee-tpm | grep -qw tee && getent group tee'
check "state directories with the modes of tmpfiles.d" in_root sh -c \
	'[ "$(stat -c "%a %U" /var/lib/swtee/secure)" = "700 swtee" ] &&
	 [ "$(stat -c "%a %U" /var/lib/swtee/ree)" = "700 swtee-supp" ]'
check "man pages of every command" in_root sh -c 'for p in man8/swteed.8 man8/tee-supplicant.8 \
	man1/swtee.1 man1/swtee-run.1 man1/xtest.1 man1/swtee-tpm.1; do
	[ -s /usr/share/man/$p.gz ] || { echo "missing $p"; exit 1; }; done'
check "the units name installed paths" in_root sh -c \
	'! grep -n /usr/local /lib/systemd/system/swteed.service /lib/systemd/system/tee-supplicant.service \
		/lib/systemd/system/swtee-tpm.service /etc/profile.d/swtee-tpm.sh'
check "every page and file a unit's Documentation= names is installed" in_root sh -c \
	'for ref in $(sed -n "s/^Documentation=//p" /lib/systemd/system/swteed.service \
		/lib/systemd/system/tee-supplicant.service /lib/systemd/system/swtee-tpm.service); do
		case $ref in
		man:*) n=${ref#man:}; s=${n#*\(}; s=${s%\)}; f=/usr/share/man/man$s/${n%%\(*}.$s.gz ;;
		file://*) f=${ref#file://} ;;
		*) echo "unknown $ref"; exit 1 ;;
		esac
		[ -s "$f" ] || { echo "$ref: no $f"; exit 1; }
	done'

# The regression cases need the test TAs: copied in by the test.
cp "$work/tas/lib/swtee/ta/"*.ta "$root/usr/lib/swtee/ta/"

# unit_run UNIT: the unit's ExecStart= as its User=, Group=,
# SupplementaryGroups=, UMask= and NoNewPrivileges= say, in the root.
unit_key() { sed -n "s/^$2=//p" "$root/lib/systemd/system/$1" | tail -1; }
unit_run() {
	local u=$1 groups nnp=
	groups=$(unit_key "$u" SupplementaryGroups | tr ' ' ',')
	groups=${groups:+--groups=$groups}
	[ "$(unit_key "$u" NoNewPrivileges)" = yes ] && nnp=--no-new-privs
	chroot "$root" /usr/bin/env -i PATH=/usr/bin:/bin sh -c \
		"umask $(unit_key "$u" UMask); exec setpriv --reuid=$(unit_key "$u" User) \
		--regid=$(unit_key "$u" Group) ${groups:---clear-groups} $nnp -- $(unit_key "$u" ExecStart)"
}
# What boot does for /run (the package's postinst did it once already).
in_root systemd-tmpfiles --create swtee.conf
unit_run swteed.service >"$work/swteed.log" 2>&1 &
core=$!
for _ in $(seq 100); do [ -S "$root/run/swtee/supplicant.sock" ] && break; sleep 0.05; done
unit_run tee-supplicant.service >"$work/supplicant.log" 2>&1 &
supp=$!
sleep 0.5
check "swteed listens on /run/swtee/tee.sock for group tee" in_root sh -c \
	'[ "$(stat -c "%a %U %G" /run/swtee/tee.sock)" = "660 swtee tee" ]'

in_root useradd -m -G tee alice
as_alice() { chroot "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/home/alice LC_ALL=C.UTF-8 \
	setpriv --reuid=alice --regid=alice --init-groups -- "$@"; }
stamp "services started"
# swtee status, unlike libteec, does not fall back on the system socket.
check "alice (group tee): swtee status against the system TEE" \
	as_alice env SWTEE_SOCKET=/run/swtee/tee.sock swtee status
check "alice: xtest regression 1xxx (TA loading, sessions, memory)" as_alice xtest -t regression _1
check "alice: xtest regression 6xxx (trusted storage under the unit's --secure-dir)" \
	as_alice xtest -t regression _6
check "alice: xtest benchmark 2xxx (the shipped crypto_perf TA)" as_alice xtest -t benchmark _2
stamp "xtest done"

# The developer kit and libteec-dev: examples/hello_world, built as the
# README says, signed with the kit's key (root's alone), run by alice.
mkdir -p "$root/tmp/hello"
cp -r "$(dirname "$0")/../../examples/hello_world/." "$root/tmp/hello/"
check "examples/hello_world builds with the installed kit and TEEC_EXPORT=/usr" in_root sh -c \
	'make -C /tmp/hello TA_DEV_KIT_DIR=/usr/share/swtee/ta_dev_kit TEEC_EXPORT=/usr &&
	 cp /tmp/hello/ta/*.ta /usr/lib/swtee/ta/ && chmod 0644 /usr/lib/swtee/ta/*.ta'
chmod -R a+rX "$root/tmp/hello"
check "alice runs the hello_world client against the system TEE" \
	as_alice /tmp/hello/host/swtee_example_hello_world
check "a client built with pkg-config teec" in_root sh -c \
	'apt-get install -y -q pkgconf >/dev/null && printf "#include <tee_client_api.h>\nint main(void) { TEEC_Context c; return TEEC_InitializeContext(NULL, &c) != TEEC_SUCCESS; }\n" > /tmp/c.c &&
	 cc -o /tmp/c /tmp/c.c $(pkg-config --cflags --libs teec) && chmod 0755 /tmp/c'
check "alice runs it" as_alice /tmp/c

# The fTPM as swtee-tpm.service runs it (its RuntimeDirectory= made by
# hand), and tpm2-tools in alice's login shell with no -T option.
in_root install -d -o swtee-tpm -g tee -m 0750 /run/swtee-tpm
unit_run swtee-tpm.service >"$work/swtee-tpm.log" 2>&1 &
tpm=$!
for _ in $(seq 200); do [ -S "$root/run/swtee-tpm/swtpm" ] && break; sleep 0.05; done
check "tpm2-tools installs in the root" in_root sh -c 'apt-get install -y -q tpm2-tools >/dev/null'
check "alice: tpm2_getrandom and a PCR read with default paths (the login snippet)" \
	as_alice sh -c '. /etc/profile.d/swtee-tpm.sh && tpm2_getrandom --hex 8 && tpm2_pcrread sha256:0'
kill "$tpm" 2>/dev/null

kill "$supp" "$core" 2>/dev/null
wait 2>/dev/null
check "apt purge removes every package" in_root sh -c \
	'apt-get purge -y -q swtee swtee-xtest swtee-ta-dev-kit libteec-swtee-dev libteec2-swtee &&
	 ! dpkg -l | grep -E "^.i +(swtee|libteec)"'
stamp "done"
if [ "$fail" != 0 ]; then
	echo "--- swteed log (tail)"; tail -20 "$work/swteed.log"
	echo "--- tee-supplicant log (tail)"; tail -20 "$work/supplicant.log"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
