#!/bin/sh
# The parts of `make bench-vm-hmac` that need no kernel build: the config
# fragment (src/tools/bench/tpm-guest/vm_hmac.config) names each option once as NAME=y or
# NAME=n, holds what the guest cannot do without, and leaves
# CONFIG_TCG_TPM2_HMAC to the script; the table (vm_hmac_table.py) computes
# percentiles and ratios from records, and refuses a malformed one; and
# `swtee bench tpm --guest` reports the records of the experiment (written
# here by a stand-in) as cases with swtpm as the baseline, says why when it
# cannot run, and fails on a failed or malformed run.
# usage: vm_hmac_check.sh SCRATCH_DIR [SWTEE]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
guest=$here/../../src/tools/bench/tpm-guest
frag=$guest/vm_hmac.config
tmp=$1
swtee=${2:-}
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
python3 "$guest/vm_hmac_table.py" "$rec" >"$tmp/table.md"
grep -q -F '| HMAC on | swtpm | createprimary -C n | 4 | 5.000 s | 8.000 s | 100.0 ms |' "$tmp/table.md" ||
	fail "p50/p90 of HMAC on, swtpm: $(grep 'HMAC on | swtpm' "$tmp/table.md")"
grep -q -F '| createprimary -C n | 2.00 | 2.00 |' "$tmp/table.md" ||
	fail "the HMAC on/off ratios: $(grep -F '| createprimary' "$tmp/table.md")"
grep -q -F '| createprimary -C n | 1.50 | 1.50 |' "$tmp/table.md" || fail "the fTPM/swtpm ratio"
grep -q -F '| 21 |' "$tmp/table.md" || fail "the command count"
grep -q 'TCG' "$tmp/table.md" || fail "the table does not say it is TCG"
printf 'HMAC on\tftpm\t1\tcreateprimary -C n\n' >"$tmp/short.tsv"
if python3 "$guest/vm_hmac_table.py" "$tmp/short.tsv" >/dev/null 2>&1; then
	fail "a record of 4 fields was taken"
fi
echo "ok: fragment and table"

[ -n "$swtee" ] || exit 0
# The stand-in: the records above (HMAC on and off) into its work dir ($1),
# or what SCRIPT_MODE asks for.
stub=$tmp/stub.sh
cat >"$stub" <<EOF
#!/bin/sh
case "\$SCRIPT_MODE" in
cannot) echo "needs: qemu-system-x86" >"\$1/why"; exit 77 ;;
fail) exit 3 ;;
bad) printf 'HMAC on\tftpm\t1\tboot\tlong\t0\t1\n' >"\$1/results.tsv"; exit 0 ;;
esac
[ "\$2" = 4 ] || { echo "runs: \$2, not 4" >&2; exit 1; }
[ -x "\$VM_HMAC_SWTEE" ] || { echo "VM_HMAC_SWTEE: \$VM_HMAC_SWTEE" >&2; exit 1; }
cp "$rec" "\$1/results.tsv"
EOF
chmod +x "$stub"
guest() { # MODE: swtee bench tpm --guest's JSON in $tmp/guest.json, its status in $st
	st=0
	SCRIPT_MODE=$1 SWTEE_BENCH_GUEST_SCRIPT=$stub SWTEE_BENCH_GUEST_DIR=$tmp/work \
		"$swtee" run --state "$tmp/tee" -- "$swtee" bench tpm --guest --iterations 4 --json \
		>"$tmp/guest.json" 2>"$tmp/guest.err" || st=$?
}
field() { # CASE KEY
	python3 -c 'import json, sys
r = [x for x in json.load(open(sys.argv[1])) if x["name"] == sys.argv[2]]
print(r[0].get(sys.argv[3], "-") if r else "none")' "$tmp/guest.json" "$1" "$2"
}
guest ok
[ $st = 0 ] || fail "swtee bench tpm --guest: exit $st: $(tail -n 5 "$tmp/guest.err")"
c=guest_createprimary_null_hmac_on
got="$(field $c value) $(field $c p90) $(field $c baseline_value) $(field $c unit)"
[ "$got" = "7.5 11.1 5 s" ] || fail "$c: $got (value, p90, swtpm's value, unit)"
[ "$(field ${c}_commands value)" = 22 ] || fail "${c}_commands: $(field ${c}_commands value)"
got=$(field guest_createprimary_null_hmac_off_commands baseline_value)
[ "$got" = 21 ] || fail "HMAC off, swtpm's commands: $got"
[ "$(field ${c}_tpm value)" = 100 ] || fail "${c}_tpm: $(field ${c}_tpm value) ms"
[ "$(field guest_boot_hmac_on value)" = none ] || fail "a boot case without boot records"
guest cannot
[ $st = 0 ] || fail "a guest experiment that cannot run here failed the run: exit $st"
[ "$(field $c skip_reason)" = "needs: qemu-system-x86" ] || fail "the reason: $(field $c skip_reason)"
for mode in fail bad; do
	guest $mode
	[ $st != 0 ] || fail "a $mode guest experiment passed"
done
grep -q 'results.tsv:1: not a record' "$tmp/guest.err" || fail "a malformed record, unnamed"
st=0
"$swtee" bench invoke --guest 2>"$tmp/guest.err" || st=$?
[ $st = 2 ] && grep -q 'belongs to the tpm group' "$tmp/guest.err" ||
	fail "--guest without the tpm group: exit $st, $(cat "$tmp/guest.err")"
echo "ok: swtee bench tpm --guest"
