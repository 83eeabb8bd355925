#!/usr/bin/env python3
"""The bridge's resource manager never flushes an object its client still
holds: a client holding as many transient objects as the TPM has slots gets
TPM_RC_OBJECT_MEMORY (0x902) for one more, as from a TPM, and keeps all it
holds; objects of a client that has exited make room. The client connects
per command (as the swtpm TCTI does), so it is known by its process, not
its connection. Run under `swtee run --tpm`."""
import socket
import struct
import subprocess
import sys

from tpm_peer import MSSIM, SWTPM, fail, recvn

RC_OBJECT_MEMORY = 0x902
SLOTS = 3  # libtpms' transient object slots
PW = struct.pack(">IIHBH", 9, 0x40000009, 0, 0, 0)  # TPM_RS_PW, empty auth
# The kernel's null-key template: ECC P-256, SHA-256, AES-128-CFB.
PUBLIC = struct.pack(">HHIHHHHHHHHH", 0x23, 0x0B, 0x00030472, 0, 6, 128, 0x43,
                     0x10, 3, 0x10, 0, 0)
CREATE_PRIMARY = (struct.pack(">I", 0x40000007) + PW + struct.pack(">HHH", 4, 0, 0) +
                  struct.pack(">H", len(PUBLIC)) + PUBLIC + struct.pack(">HI", 0, 0))


def command(tag, cc, body):
    return struct.pack(">HII", tag, 10 + len(body), cc) + body


def run_swtpm(cmd):
    """One command on a connection of its own, as the swtpm TCTI sends it."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(30)
    s.connect(SWTPM)
    s.sendall(cmd)
    tag, size, rc = struct.unpack(">HII", recvn(s, 10))
    body = recvn(s, size - 10)
    s.close()
    return rc, body


def run_mssim(s, cmd):
    s.sendall(struct.pack(">IBI", 8, 0, len(cmd)) + cmd)
    size = struct.unpack(">I", recvn(s, 4))[0]
    rsp = recvn(s, size)
    recvn(s, 4)
    return struct.unpack(">I", rsp[6:10])[0], rsp[10:]


def create_primary(run):
    rc, body = run(command(0x8002, 0x131, CREATE_PRIMARY))
    return rc, (struct.unpack(">I", body[:4])[0] if rc == 0 else 0)


def read_public(handle):
    return run_swtpm(command(0x8001, 0x173, struct.pack(">I", handle)))[0]


def flush(handle):
    rc = run_swtpm(command(0x8001, 0x165, struct.pack(">I", handle)))[0]
    if rc:
        fail("FlushContext 0x%08x: 0x%x" % (handle, rc))


if len(sys.argv) > 1 and sys.argv[1] == "fill":
    # Another client, as a tool: fills every slot, then exits holding them.
    for i in range(SLOTS):
        rc, _ = create_primary(run_swtpm)
        if rc:
            fail("the other client's CreatePrimary %d: 0x%x" % (i + 1, rc))
    sys.exit(0)

subprocess.run([sys.executable, __file__, "fill"], check=True)
held = []
for i in range(SLOTS):
    rc, h = create_primary(run_swtpm)
    if rc:
        fail("CreatePrimary %d with an exited client's objects loaded: 0x%x" % (i + 1, rc))
    held.append(h)
rc, _ = create_primary(run_swtpm)
if rc != RC_OBJECT_MEMORY:
    fail("one object more than the slots: 0x%x, not TPM_RC_OBJECT_MEMORY" % rc)
m = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
m.settimeout(30)
m.connect(MSSIM)
rc, _ = create_primary(lambda c: run_mssim(m, c))
if rc != RC_OBJECT_MEMORY:
    fail("the same process over mssim: 0x%x, not TPM_RC_OBJECT_MEMORY" % rc)
for h in held:
    rc = read_public(h)
    if rc:
        fail("object 0x%08x, held by its client, is gone: 0x%x" % (h, rc))
flush(held.pop())
rc, h = create_primary(lambda c: run_mssim(m, c))
if rc:
    fail("CreatePrimary after a flush: 0x%x" % rc)
m.close()
for h in held + [h]:
    flush(h)
print("ok", file=sys.stderr)
