#!/usr/bin/env python3
"""The table of vm_hmac_bench.sh from its records (results.tsv:
kernel, backend, run, command, guest seconds, TPM seconds, TPM commands)."""
import statistics
import sys


def pct(values, p):
    """The p-th percentile, nearest rank."""
    v = sorted(values)
    return v[max(0, min(len(v) - 1, round(p / 100 * len(v) + 0.5) - 1))]


def load(path):
    rows = {}
    with open(path) as f:
        for line in f:
            kernel, backend, _, cmd, wall, tpm, n = line.rstrip("\n").split("\t")
            rows.setdefault((kernel, backend, cmd), []).append((float(wall), float(tpm), int(n)))
    return rows


def ratio_table(p50, cmds, title, pairs):
    """Ratios of guest p50 times: for each (label, numerator, denominator)."""
    print("\nGuest p50 ratio %s:\n" % title)
    print("| command | " + " | ".join(p[0] for p in pairs) + " |")
    print("|---|" + "---|" * len(pairs))
    for cmd in cmds:
        cells = []
        for _, num, den in pairs:
            n, d = p50.get(num + (cmd,)), p50.get(den + (cmd,))
            cells.append("%.2f" % (n / d) if n and d else "-")
        print("| %s | %s |" % (cmd, " | ".join(cells)))


def main(path):
    rows = load(path)
    p50 = {}
    print("QEMU TCG guest (every guest instruction emulated: guest times are far slower than")
    print("on hardware). guest = the guest's clock (printk time of marks around the tool);")
    print("TPM = host time from each command handed to the backend to its response in QEMU's")
    print("TIS model (the backend plus its socket and QEMU's TPM thread), summed over the")
    print("commands of the tool; share = TPM / guest. boot = kernel start to the first mark")
    print("(guest), and the commands before it (SeaBIOS and the kernel).\n")
    print("| kernel | backend | command | runs | guest p50 | guest p90 | TPM p50 | TPM share p50 | TPM commands |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (kernel, backend, cmd), v in sorted(rows.items(), key=lambda kv: (kv[0][2] != "boot", kv[0])):
        walls = [x[0] for x in v]
        tpms = [x[1] for x in v]
        counts = sorted({x[2] for x in v})
        p50[kernel, backend, cmd] = statistics.median(walls)
        share = statistics.median(x[1] / x[0] for x in v if x[0] > 0)
        count = str(counts[0]) if len(counts) == 1 else "%d-%d" % (counts[0], counts[-1])
        print("| %s | %s | %s | %d | %.3f s | %.3f s | %.1f ms | %.1f%% | %s |" % (
            kernel, backend, cmd, len(v), statistics.median(walls), pct(walls, 90),
            statistics.median(tpms) * 1e3, share * 100, count))
    cmds = sorted({k[2] for k in p50})
    ratio_table(p50, cmds, "HMAC on / HMAC off", [(b, ("HMAC on", b), ("HMAC off", b)) for b in ("ftpm", "swtpm")])
    ratio_table(p50, cmds, "fTPM / swtpm", [(k, (k, "ftpm"), (k, "swtpm")) for k in ("HMAC on", "HMAC off")])
    print("\nThe seed's figures (real hardware, the kernel's driver): tpm2_createprimary 0.69 s")
    print("on an SPI TPM with HMAC sessions off, minutes with them on; Microchip ATTPM20P")
    print("tpm2_createprimary 0.40-0.69 s (whole tool).")


if __name__ == "__main__":
    main(sys.argv[1])
