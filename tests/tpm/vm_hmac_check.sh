#!/bin/sh
# The parts of `make bench-vm-hmac` that need no kernel build: the config
# fragment (tests/tpm/vm_hmac.config) names each option once as NAME=y or
# NAME=n, holds what the guest cannot do without, and leaves
# CONFIG_TCG_TPM2_HMAC to the script; the table (vm_hmac_table.py) computes
# percentiles and ratios from records, and refuses a malformed one.
# usage: vm_hmac_check.sh SCRATCH_DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
frag=$here/vm_hmac.config
tmp=$1
rm -rf "$tmp"
mkdir -p "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }

bad=$(grep -v -E '^(#.*|[A-Z0-9_]+=[yn])$' "$frag" || true)
[ -z "$bad" ] || fail "lines of $frag that are not NAME=y or NAME=n: $bad"
dup=$(sed -n 's/=.*//p' "$frag" | grep -v '^#' | sort | uniq -d)
[ -z "$dup" ] || fail "options named twice in $frag: $dup"
! grep -q '^TCG_TPM2_HMAC=' "$frag" || fail "$frag sets TCG_TPM2_HMAC, which is the script's"
for opt in 64BIT SERIAL_8250_CONSOLE BLK_DEV_INITRD RD_GZIP BINFMT_ELF BINFMT_SCRIPT \
	DEVTMPFS PROC_FS SYSFS FUTEX PRINTK_TIME TCG_TPM TCG_TIS; do
	grep -q "^$opt=y$" "$frag" || fail "$frag lacks $opt=y"
done
grep -q '^HW_RANDOM_TPM=n$' "$frag" || fail "$frag lets the kernel read the TPM as an entropy source"

# Records: HMAC on takes twice the guest time of off, the fTPM 1.5 times swtpm.
rec=$tmp/results.tsv
for r in 1 2 3 4; do
	printf 'HMAC on\tftpm\t%s\tcreateprimary -C n\t%s\t0.1\t22\n' $r "$((r * 3))"
	printf 'HMAC on\tswtpm\t%s\tcreateprimary -C n\t%s\t0.1\t22\n' $r "$((r * 2))"
	printf 'HMAC off\tftpm\t%s\tcreateprimary -C n\t%s.%s\t0.1\t20\n' $r "$((r * 3 / 2))" "$((r * 3 % 2 * 5))"
	printf 'HMAC off\tswtpm\t%s\tcreateprimary -C n\t%s\t0.1\t21\n' $r "$r"
done >"$rec"
python3 "$here/vm_hmac_table.py" "$rec" >"$tmp/table.md"
grep -q -F '| HMAC on | swtpm | createprimary -C n | 4 | 5.000 s | 8.000 s | 100.0 ms |' "$tmp/table.md" ||
	fail "p50/p90 of HMAC on, swtpm: $(grep 'HMAC on | swtpm' "$tmp/table.md")"
grep -q -F '| createprimary -C n | 2.00 | 2.00 |' "$tmp/table.md" ||
	fail "the HMAC on/off ratios: $(grep -F '| createprimary' "$tmp/table.md")"
grep -q -F '| createprimary -C n | 1.50 | 1.50 |' "$tmp/table.md" || fail "the fTPM/swtpm ratio"
grep -q -F '| 21 |' "$tmp/table.md" || fail "the command count"
grep -q 'TCG' "$tmp/table.md" || fail "the table does not say it is TCG"
printf 'HMAC on\tftpm\t1\tcreateprimary -C n\n' >"$tmp/short.tsv"
if python3 "$here/vm_hmac_table.py" "$tmp/short.tsv" >/dev/null 2>&1; then
	fail "a record of 4 fields was taken"
fi
echo "ok: fragment and table"
