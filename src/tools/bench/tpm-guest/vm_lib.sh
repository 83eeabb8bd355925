# Sourced by vm_hmac_bench.sh and by tests/tpm/vm_qemu.sh.
# vm_initramfs_root ROOT TOOL...: a guest's root in ROOT: a static busybox,
# tpm2 (tpm2-tools' one binary) as tpm2_TOOL for each TOOL, every library it
# and the device TCTI load, and the start of ROOT/init (busybox' applets,
# /proc, /sys, /dev, tpm2-tools on /dev/tpmrm0); the caller appends the rest.
vm_initramfs_root() {
	root=$1
	shift
	mkdir -p "$root/bin" "$root/dev" "$root/proc" "$root/sys" "$root/tmp"
	cp /bin/busybox "$root/bin/busybox"
	cp "$(command -v tpm2)" "$root/bin/tpm2"
	for t in "$@"; do
		ln -s tpm2 "$root/bin/tpm2_$t"
	done
	tcti=$(ldconfig -p | awk '/libtss2-tcti-device.so.0 / { print $NF; exit }')
	[ -n "$tcti" ] || { echo "FAIL: no libtss2-tcti-device.so.0" >&2; exit 1; }
	for f in "$root/bin/tpm2" "$tcti"; do
		echo "$f"
		ldd "$f" | awk '/=> \// { print $3 } /^\t\// { print $1 }'
	done | sort -u | while read -r lib; do
		[ "$lib" = "$root/bin/tpm2" ] && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
	cat >"$root/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
export PATH=/bin TPM2TOOLS_TCTI=device:/dev/tpmrm0
EOF
}

# vm_initramfs ROOT OUT: ROOT (with its init made executable) as a gzipped
# newc cpio archive in OUT.
vm_initramfs() {
	chmod +x "$1/init"
	(cd "$1" && find . | cpio -o -H newc --quiet | gzip -1) >"$2"
}

# vm_swtpm_start DIR: swtpm for QEMU on DIR/swtpm.sock, its state in DIR/swtpm
# and its pid in $swtpm_pid, once its socket is there.
vm_swtpm_start() {
	mkdir -p "$1/swtpm"
	swtpm socket --tpm2 --tpmstate dir="$1/swtpm" --ctrl type=unixio,path="$1/swtpm.sock" \
		2>"$1/swtpm.err" &
	swtpm_pid=$!
	i=0
	while [ ! -S "$1/swtpm.sock" ]; do
		i=$((i + 1))
		[ $i -lt 200 ] || { echo "FAIL: swtpm did not start" >&2; kill $swtpm_pid; exit 1; }
		sleep 0.05
	done
}
