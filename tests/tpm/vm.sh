#!/bin/sh
# swtee-tpm --vm as QEMU's tpm-emulator backend sees it (tpm_fake_qemu),
# started by `swtee run --tpm=vm:SOCKET`, then by hand to read its log:
# refused control commands and refused second peers are logged, and the
# VM socket is the bridge's user's only (0600).
# usage: vm.sh SWTEE FAKE_QEMU STATE_DIR
set -eu
swtee=$1
fake=$2
dir=$3
rm -rf "$dir"
mkdir -p "$dir"

"$swtee" run --state "$dir/run" --tpm=vm:"$dir/vm.sock" -- "$fake" "$dir/vm.sock"
[ ! -e "$dir/vm.sock" ] || { echo "FAIL: the VM socket left behind" >&2; exit 1; }

bridge=$(dirname "$swtee")/swtee-tpm
"$swtee" run --state "$dir/hand" -- sh -c '
	set -eu
	"$1" --vm "$3/vm.sock" -v 2>"$3/bridge.log" &
	pid=$!
	i=0
	while [ ! -S "$3/vm.sock" ]; do
		i=$((i + 1))
		[ $i -lt 200 ] || { echo "FAIL: no VM socket" >&2; kill $pid; exit 1; }
		sleep 0.05
	done
	mode=$(stat -c %a "$3/vm.sock")
	[ "$mode" = 600 ] || { echo "FAIL: VM socket mode $mode" >&2; kill $pid; exit 1; }
	rc=0
	"$2" "$3/vm.sock" || rc=1
	kill -TERM $pid
	wait $pid || rc=1
	exit $rc
' sh "$bridge" "$fake" "$dir"
for line in "command 0x77 refused (TPM_BAD_ORDINAL): unknown command" \
	"command 0x0c refused (TPM_BAD_ORDINAL)" "a second peer on" "VM: data channel set"; do
	grep -q -F "$line" "$dir/bridge.log" || {
		echo "FAIL: the bridge's log lacks \"$line\":" >&2
		cat "$dir/bridge.log" >&2
		exit 1
	}
done
# swtee-tpm --vm serves one VM alone.
if "$bridge" --vm "$dir/x.sock" --swtpm "$dir/y" 2>/dev/null; then
	echo "FAIL: --vm with another endpoint accepted" >&2
	exit 1
fi
echo ok
