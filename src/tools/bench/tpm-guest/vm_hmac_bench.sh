#!/bin/sh
# The kernel TPM HMAC experiment in a QEMU guest (software emulation, TCG):
# two small guest kernels built from Debian's linux-source-6.12, with and
# without CONFIG_TCG_TPM2_HMAC (tinyconfig + vm_hmac.config), each booted
# RUNS times (20 by default) on swtee's fTPM (`swtee run --tpm=vm:SOCKET`)
# and on swtpm, the boots interleaved. In each boot the guest times
# `tpm2_createprimary -C n` and `-C o -G ecc256` on /dev/tpmrm0 by its own
# clock (printk timestamps of marks written to /dev/kmsg), a TPM2_SelfTest
# between them marking where each starts and ends in the TPM's traffic.
# QEMU's trace of the TIS buffer (tpm_util_show_buffer, host timestamps)
# gives the commands each one sent and the time from each command handed to
# the backend to its response back in the device model: the backend's time
# plus its host-side hops (socket, QEMU's TPM thread, its bottom half).
# Under TCG every guest instruction is emulated: the guest's own times are
# far slower than on hardware; the TPM's time is host time, as on any host.
# The kernels, once built, are kept in BUILD_DIR/vm-hmac (a later run
# reuses them). VM_HMAC_KERNELS="on off" (the default) chooses the kernels;
# VM_HMAC_IMAGE_on=PATH or VM_HMAC_IMAGE_off=PATH boots a given bzImage
# instead of building that one (its HMAC setting is the caller's word).
# Not in `make test`: `make bench-vm-hmac`, or `swtee bench tpm --guest`
# (which sets VM_HMAC_SWTEE and VM_HMAC_WORK, and reads results.tsv).
# Exits 77, the reason in WORK/why, when it cannot run on this machine.
# usage: vm_hmac_bench.sh BUILD_DIR [RUNS]
set -eu
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
here=$(dirname "$self")
. "$here/vm_lib.sh"
# One QEMU run: kernel $2, TPM on control socket $3, console in $4, trace in
# $5, more kernel arguments in $6.
if [ "$1" = --boot ]; then
	exec timeout 300 qemu-system-x86_64 -machine pc -accel tcg -m 256 -nographic \
		-no-reboot -monitor none -kernel "$2" -initrd "$VMH_INITRD" \
		-append "console=ttyS0 panic=-1 quiet rng_core.default_quality=0 ${6:-}" -msg timestamp=on \
		-trace enable=tpm_util_show_buffer -D "$5" \
		-chardev socket,id=chrtpm,path="$3" -tpmdev emulator,id=tpm0,chardev=chrtpm \
		-device tpm-tis,tpmdev=tpm0 </dev/null >"$4" 2>&1
fi
# One record a boot and command: kernel backend run command guest_s tpm_s
# commands, and a "boot" record for what came before the first mark.
parse() { # KERNEL BACKEND RUN CONSOLE TRACE
	python3 - "$@" <<'PY' >>"$VMH_WORK/results.tsv"
import re, sys
kernel, backend, run, console, trace = sys.argv[1:]
text = open(console, errors="replace").read()
if "GUEST: done" not in text or "GUEST: fail" in text:
    sys.exit("FAIL: %s %s run %s: the guest did not finish (%s)" % (kernel, backend, run, console))
marks = dict((m[0], float(m[1])) for m in re.findall(r"GUEST: mark (\S+) ([0-9.]+)", text))
cmds = []  # (code, sent, answered)
lines = open(trace, errors="replace").read().splitlines()
for i, line in enumerate(lines):
    m = re.search(r"@([0-9.]+):tpm_util_show_buffer.*direction: (To|From) TPM", line)
    if not m:
        continue
    if m.group(2) == "To":
        code = "".join(lines[i + 1].split()[6:10])
        cmds.append([code, float(m.group(1)), None])
    elif cmds:
        cmds[-1][2] = float(m.group(1))
selftests = [i for i, c in enumerate(cmds) if c[0] == "00000143"]
if len(selftests) < 3:
    sys.exit("FAIL: %s: %d TPM2_SelfTest marks in the trace" % (trace, len(selftests)))
a, b, c = selftests[-3:]
def tpm(part):
    return sum(x[2] - x[1] for x in part if x[2] is not None)
out = [(kernel, backend, run, "boot", marks["start-n"], tpm(cmds[:a]), a)]
for name, lo, hi in (("createprimary -C n", a + 1, b), ("createprimary -C o -G ecc256", b + 1, c)):
    key = name.split()[2]
    wall = marks["end-" + key] - marks["start-" + key]
    out.append((kernel, backend, run, name, wall, tpm(cmds[lo:hi]), hi - lo))
for row in out:
    print("\t".join(map(str, row)))
PY
}

# The boots, in `swtee run` (the fTPM on $VMH_WORK/ftpm.sock, swtpm on
# $VMH_WORK/swtpm.sock): RUNS rounds of each kernel on each backend.
if [ "$1" = --loop ]; then
	r=1
	while [ $r -le "$2" ]; do
		for hmac in $VMH_KERNELS; do
			for backend in ftpm swtpm; do
				log=$VMH_WORK/log/$hmac-$backend-$r
				eval "image=\$VMH_IMAGE_$hmac args=\$VMH_ARGS_$hmac"
				# swtpm ends at QEMU's CMD_SHUTDOWN: one a boot.
				[ $backend = ftpm ] || { rm -f "$VMH_WORK/swtpm.sock"; vm_swtpm_start "$VMH_WORK"; }
				"$self" --boot "$image" "$VMH_WORK/$backend.sock" "$log.console" \
					"$log.trace" "$args" || true
				[ $backend = ftpm ] || { kill $swtpm_pid 2>/dev/null || true; wait $swtpm_pid || true; }
				parse "HMAC $hmac" $backend $r "$log.console" "$log.trace" ||
					echo "HMAC $hmac $backend $r" >>"$VMH_WORK/failed"
			done
		done
		echo "round $r of $2 done ($(($(date +%s) - VMH_START)) s)"
		r=$((r + 1))
	done
	exit 0
fi
build=$(cd "$1" && pwd)
runs=${2:-20}
# swtee bench tpm --guest names its swtee and its work directory.
swtee=${VM_HMAC_SWTEE:-$build/bin/swtee}
work=${VM_HMAC_WORK:-$build/vm-hmac}
mkdir -p "$work"
rm -f "$work/why"
# Cannot run here: why, on stderr and in $work/why, and exit 77.
cannot() {
	echo "$1" >"$work/why"
	echo "$1" >&2
	exit 77
}
tarball=/usr/src/linux-source-6.12.tar.xz
packages="qemu-system-x86 busybox-static cpio linux-source-6.12 bc bison flex libelf-dev xz-utils"
missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' $p 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" = 0 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
	else
		cannot "needs:$missing; install them with: sudo apt-get install -y$missing"
	fi
fi
for need in qemu-system-x86_64 tpm2 swtpm gcc make; do
	command -v $need >/dev/null || cannot "needs $need on the PATH"
done

# The kernels: one source tree, one O= directory each; rebuilt only when the
# fragment or the source changed.
src=$work/linux-source-6.12
if [ ! -f "$src/Makefile" ] || [ "$tarball" -nt "$src/Makefile" ]; then
	rm -rf "$src"
	echo "unpacking $tarball"
	tar -xJf "$tarball" -C "$work"
	touch "$src/Makefile"
fi
options=$(sed -n 's/^\([A-Z0-9_]*\)=y$/-e \1/p; s/^\([A-Z0-9_]*\)=n$/-d \1/p' "$here/vm_hmac.config")
kernels=${VM_HMAC_KERNELS:-on off}
for hmac in $kernels; do
	o=$work/hmac-$hmac
	image=$o/arch/x86/boot/bzImage
	eval "given=\${VM_HMAC_IMAGE_$hmac:-}"
	if [ -n "$given" ]; then
		echo "kernel HMAC $hmac: $given (given, not built here)"
		eval "export VMH_IMAGE_$hmac=\$given VMH_ARGS_$hmac="
		continue
	fi
	# No ACPI in this kernel: the TIS at its fixed address, polled.
	eval "export VMH_IMAGE_$hmac=\$image VMH_ARGS_$hmac='tpm_tis.force=1 tpm_tis.interrupts=0'"
	want=$(cat "$here/vm_hmac.config"; echo "TCG_TPM2_HMAC=$hmac")
	if [ -f "$image" ] && [ "$(cat "$o/fragment" 2>/dev/null)" = "$want" ] &&
		[ "$image" -nt "$src/Makefile" ]; then
		echo "kernel HMAC $hmac: $image (built before)"
		continue
	fi
	# The second kernel starts from the first one's objects: make rebuilds
	# only what the option touches.
	[ -e "$o" ] || [ ! -d "$work/hmac-on" ] || cp -a "$work/hmac-on" "$o"
	rm -f "$o/fragment"
	mkdir -p "$o"
	nice -n 10 make -s -C "$src" O="$o" tinyconfig >/dev/null
	[ $hmac = on ] && flag=-e || flag=-d
	# shellcheck disable=SC2086 # one word an option
	"$src/scripts/config" --file "$o/.config" $options $flag TCG_TPM2_HMAC
	nice -n 10 make -s -C "$src" O="$o" olddefconfig >/dev/null
	for opt in $(sed -n 's/^\([A-Z0-9_]*\)=y$/\1/p' "$here/vm_hmac.config"); do
		grep -q "^CONFIG_$opt=y$" "$o/.config" ||
			{ echo "FAIL: CONFIG_$opt is not set in $o/.config" >&2; exit 1; }
	done
	if [ $hmac = on ]; then
		grep -q '^CONFIG_TCG_TPM2_HMAC=y$' "$o/.config"
	else
		grep -q '^# CONFIG_TCG_TPM2_HMAC is not set$' "$o/.config"
	fi || { echo "FAIL: CONFIG_TCG_TPM2_HMAC is not $hmac in $o/.config" >&2; exit 1; }
	echo "building the guest kernel, HMAC $hmac ($o/build.log)"
	t0=$(date +%s)
	nice -n 10 make -C "$src" O="$o" -j2 bzImage >"$o/build.log" 2>&1 ||
		{ tail -n 20 "$o/build.log" >&2; exit 1; }
	echo "$want" >"$o/fragment"
	echo "built in $(($(date +%s) - t0)) s"
done

# The guest: TPM2_SelfTest, one timed createprimary, TPM2_SelfTest, the
# other, TPM2_SelfTest; then its marks and a reboot (QEMU exits: -no-reboot).
root=$work/root
rm -rf "$root"
vm_initramfs_root "$root" createprimary selftest
cat >>"$root/init" <<'GUEST'
mark() { echo "vmh $1" >/dev/kmsg; }
tpm2_selftest || echo "GUEST: fail selftest"
mark start-n
tpm2_createprimary -C n -c /tmp/n.ctx >/dev/null || echo "GUEST: fail createprimary -C n"
mark end-n
tpm2_selftest || echo "GUEST: fail selftest"
mark start-o
tpm2_createprimary -C o -G ecc256 -c /tmp/o.ctx >/dev/null ||
	echo "GUEST: fail createprimary -C o"
mark end-o
tpm2_selftest || echo "GUEST: fail selftest"
dmesg | sed -n 's/^\[ *\([0-9.]*\)\] vmh \(.*\)$/GUEST: mark \2 \1/p'
dmesg | grep -i tpm | sed 's/^/GUEST: kernel: /'
echo "GUEST: done"
reboot -f
GUEST
vm_initramfs "$root" "$work/initrd.gz"
export VMH_INITRD="$work/initrd.gz"

rm -rf "$work/log" "$work/results.tsv" "$work/failed"
mkdir -p "$work/log"
echo "$runs rounds of kernels HMAC $kernels, each on the fTPM and on swtpm, interleaved"
export VMH_WORK="$work" VMH_START="$(date +%s)" VMH_KERNELS="$kernels"
"$swtee" run --state "$work/tee" --tpm=vm:"$work/ftpm.sock" -- "$self" --loop "$runs"
python3 "$here/vm_hmac_table.py" "$work/results.tsv" | tee "$work/table.md"
if [ -s "$work/failed" ]; then
	echo "FAIL: boots that did not finish (left out of the table):" >&2
	cat "$work/failed" >&2
	exit 1
fi
