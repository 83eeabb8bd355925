#!/bin/sh
# A QEMU guest with the fTPM as its TPM, under software emulation (TCG):
# Debian's stock kernel (linux-image-amd64) boots through SeaBIOS a small
# initramfs built here from busybox-static and tpm2-tools' binary and
# libraries, with swtee-tpm --vm as QEMU's tpm-emulator backend. Checked in
# the guest: both device nodes; tpm2_createprimary -C o and -C n through the
# kernel's resource manager (/dev/tpmrm0); a persistent key made at the first
# boot; PCRs kept across S3 (TPM2_Shutdown(STATE), QEMU's reset sequence,
# SeaBIOS' TPM2_Startup(STATE)); the key found after a reboot in the same
# QEMU and after the TEE restarts; another process's CMD_INIT never served;
# and PCR 0 (SeaBIOS' measurements) equal to swtpm's for the same boot. Not
# in `make test`: `make test-vm` (qemu-system-x86, busybox-static,
# linux-image-amd64, cpio).
# usage: vm_qemu.sh BUILD_DIR
set -eu
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
. "$(dirname "$self")/../../src/tools/bench/tpm-guest/vm_lib.sh"
# One QEMU run (by the script itself inside `swtee run`): the TPM on control
# socket $2, the console in $3, more kernel arguments in $4. The guest wakes from S3 by QMP's
# system_wakeup, sent here once it says it suspends.
if [ "$1" = --boot ]; then
	qmp=$3.qmp
	timeout 300 qemu-system-x86_64 -machine pc -accel tcg -m 384 -nographic \
		-monitor none -qmp unix:"$qmp",server=on,wait=off -kernel "$VMQ_KERNEL" \
		-initrd "$VMQ_INITRD" -append "console=ttyS0 panic=-1 quiet ${4:-}" \
		-chardev socket,id=chrtpm,path="$2" -tpmdev emulator,id=tpm0,chardev=chrtpm \
		-device tpm-tis,tpmdev=tpm0 </dev/null >"$3" 2>&1 &
	qemu=$!
	python3 -c '
import socket, sys, time
log, qmp = sys.argv[1:]
while b"GUEST: suspending" not in open(log, "rb").read():
    time.sleep(0.2)
time.sleep(2)
s = socket.socket(socket.AF_UNIX)
s.connect(qmp)
s.recv(4096)
s.sendall(b"{\"execute\": \"qmp_capabilities\"}\n")
s.recv(4096)
s.sendall(b"{\"execute\": \"system_wakeup\"}\n")
s.recv(4096)
' "$3" "$qmp" &
	waker=$!
	rc=0
	wait $qemu || rc=$?
	kill $waker 2>/dev/null || true
	exit $rc
fi
build=$(cd "$1" && pwd)
swtee=$build/bin/swtee
work=$build/test-state/tpm/vm-qemu
kernel=$(ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1)
for need in qemu-system-x86_64 tpm2 swtpm; do
	command -v $need >/dev/null || { echo "skipped: no $need" >&2; exit 77; }
done
[ -r "$kernel" ] || { echo "skipped: no readable /boot/vmlinuz-*" >&2; exit 77; }
[ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1 ||
	{ echo "skipped: no static /bin/busybox (busybox-static)" >&2; exit 77; }
rm -rf "$work"
mkdir -p "$work"

# The initramfs: busybox, tpm2-tools and their libraries (vm_lib.sh).
root=$work/root
vm_initramfs_root "$root" createprimary evictcontrol pcrread pcrextend readpublic getcap
cat >>"$root/init" <<'EOF'
for d in tpm0 tpmrm0; do [ -c /dev/$d ] && echo "GUEST: /dev/$d"; done
tpm2_pcrread sha256:0 | sed -n 's/^ *0 *: */GUEST: pcr0 /p'
grep -q pcr0only /proc/cmdline && poweroff -f
tpm2_createprimary -C o -G ecc256 -c /tmp/o.ctx >/dev/null && echo "GUEST: owner primary"
tpm2_createprimary -C n -G ecc256 -c /tmp/n.ctx >/dev/null && echo "GUEST: null primary"
# The first boot of a TPM makes the key, suspends (S3) and reboots; a later
# one finds the key and powers off.
if tpm2_readpublic -c 0x81000005 >/dev/null 2>&1; then
	echo "GUEST: persistent key"
	echo "GUEST: done"
	poweroff -f
fi
tpm2_evictcontrol -C o -c /tmp/o.ctx 0x81000005 >/dev/null && echo "GUEST: persisted"
tpm2_pcrextend 12:sha256=0000000000000000000000000000000000000000000000000000000000000001
before=$(tpm2_pcrread sha256:0,12 | tr -d ' \n')
n=$(cat /sys/power/suspend_stats/success)
echo "GUEST: suspending"
echo mem >/sys/power/state || echo "GUEST: no S3"
[ "$(cat /sys/power/suspend_stats/success)" -gt "$n" ] && echo "GUEST: resumed from S3"
after=$(tpm2_pcrread sha256:0,12 | tr -d ' \n')
[ "$before" = "$after" ] && echo "GUEST: PCRs kept across S3"
echo "GUEST: rebooting"
reboot -f
EOF
vm_initramfs "$root" "$work/initrd.gz"

expect() { # LOG LINE...
	log=$1
	shift
	for line in "$@"; do
		grep -q -F "GUEST: $line" "$log" || {
			echo "FAIL: the guest did not say \"$line\" ($log):" >&2
			tail -n 30 "$log" >&2
			exit 1
		}
	done
}
export VMQ_KERNEL="$kernel" VMQ_INITRD="$work/initrd.gz"
sock=$work/vm.sock
start=$(date +%s)
# One VM in one TEE: a first boot, S3 and its resume, a reboot in the same
# QEMU (its reset sequence on the live connection) and a second boot; then a
# third boot after the TEE restarts. All the while another process sends
# CMD_INIT on the VM socket again and again: were it served, the guest's TPM
# would be reset under it (once QEMU has gone, the next peer gets the TPM).
"$swtee" run --state "$work/tee" --tpm=vm:"$sock" -- sh -c '
	python3 -c "$3" "$1" "$2/run1.log" &
	intruder=$!
	rc=0
	"$0" --boot "$1" "$2/run1.log" || rc=1
	kill $intruder
	exit $rc
' "$self" "$sock" "$work" '
import socket, struct, sys, time
time.sleep(3)  # QEMU connects first, at its start
while True:
    try:
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(2)
        s.connect(sys.argv[1])
        s.sendall(struct.pack(">II", 2, 0))
        # Answered once QEMU has gone (after the guest said done) is right.
        if s.recv(4) and b"GUEST: done" not in open(sys.argv[2], "rb").read():
            print("GUEST: an intruder was answered", flush=True)
        s.close()
    except OSError:
        pass
    time.sleep(0.2)
' >"$work/intruder.log"
"$swtee" run --state "$work/tee" --tpm=vm:"$sock" -- "$self" --boot "$sock" "$work/run2.log"
expect "$work/run1.log" /dev/tpm0 /dev/tpmrm0 "owner primary" "null primary" persisted \
	"resumed from S3" "PCRs kept across S3" rebooting "persistent key" done
expect "$work/run2.log" /dev/tpm0 "owner primary" "null primary" "persistent key" done
if grep -q GUEST "$work/intruder.log"; then
	echo "FAIL: another process's CMD_INIT on the VM socket was answered" >&2
	exit 1
fi

# The same boot on swtpm: PCR 0 holds the same measurements.
vm_swtpm_start "$work"
spid=$swtpm_pid
"$self" --boot "$work/swtpm.sock" "$work/swtpm.log" pcr0only || true
kill $spid 2>/dev/null || true
wait $spid 2>/dev/null || true
expect "$work/swtpm.log" "pcr0"
ours=$(sed -n 's/.*GUEST: pcr0 //p' "$work/run1.log" | head -n 1 | tr -d '\r')
theirs=$(sed -n 's/.*GUEST: pcr0 //p' "$work/swtpm.log" | head -n 1 | tr -d '\r')
if [ -z "$ours" ] || [ "$ours" != "$theirs" ]; then
	echo "FAIL: PCR 0 is '$ours' on the fTPM, '$theirs' on swtpm" >&2
	exit 1
fi
echo "ok: 4 boots (3 QEMU runs) in $(($(date +%s) - start)) s; PCR 0 $ours on both"
