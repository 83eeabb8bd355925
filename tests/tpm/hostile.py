#!/usr/bin/env python3
"""Hostile peers on the four sockets of swtee-tpm (mssim command and platform,
swtpm data and control): malformed, oversized, truncated, pipelined and
random requests, more peers than the bridge keeps, a peer that never reads.
Each is answered, refused or dropped as docs/tpm.md says, and the bridge
serves well-behaved peers throughout. Run under `swtee run --tpm`."""
import random
import socket
import struct
import sys
import time

from tpm_peer import MSSIM, SWTPM, fail, recvn

GETRANDOM = bytes.fromhex("80010000000c0000017b0010")  # 16 random bytes
TPM_RC_COMMAND_SIZE = 0x142
PTM_BAD_ORDINAL = 10
PTM_BAD_LOCALITY = 61


def connect(path):
    for attempt in range(100):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(15)
        try:
            s.connect(path)
            return s
        except BlockingIOError:  # the listen backlog is full for now
            s.close()
            time.sleep(0.05)
    fail("cannot connect to " + path)


def dropped(s):
    """The bridge closed the connection without another byte."""
    try:
        return s.recv(64) == b""
    except ConnectionResetError:
        return True


def tpm_response(s):
    tag, size, rc = struct.unpack(">HII", recvn(s, 10))
    if tag not in (0x8001, 0x8002) or not 10 <= size <= 4096:
        fail("bad TPM response header %04x %d" % (tag, size))
    return rc, recvn(s, size - 10)


def alive(what):
    s = connect(SWTPM)
    s.sendall(GETRANDOM)
    rc, body = tpm_response(s)
    s.close()
    if rc != 0 or len(body) != 2 + 16:
        fail("GetRandom after %s: rc 0x%x" % (what, rc))


def expect_dropped(path, data, what):
    s = connect(path)
    s.sendall(data)
    if not dropped(s):
        fail(what + ": not dropped")
    s.close()
    alive(what)


def mssim_send(s, cmd, locality=0):
    s.sendall(struct.pack(">IBI", 8, locality, len(cmd)) + cmd)
    size = struct.unpack(">I", recvn(s, 4))[0]
    rsp = recvn(s, size)
    if recvn(s, 4) != b"\0\0\0\0":
        fail("mssim: no trailing zero")
    return struct.unpack(">I", rsp[6:10])[0], rsp


def ctrl(req, nreply):
    s = connect(SWTPM + ".ctrl")
    s.sendall(req)
    rsp = recvn(s, nreply)
    return s, rsp


# mssim command port
expect_dropped(MSSIM, struct.pack(">I", 0x99), "unknown mssim code")
expect_dropped(MSSIM, struct.pack(">IBI", 8, 0, 0xFFFFFFFF), "oversized command")
expect_dropped(MSSIM, struct.pack(">IBI", 8, 0, 4097), "command of 4097 bytes")
expect_dropped(MSSIM, struct.pack(">IBI", 8, 7, 12) + GETRANDOM, "locality 7")
expect_dropped(MSSIM, struct.pack(">II", 6, 5000), "oversized hash data")
s = connect(MSSIM)
rc, _ = mssim_send(s, GETRANDOM)
if rc:
    fail("mssim GetRandom: 0x%x" % rc)
rc, _ = mssim_send(s, GETRANDOM[:5])
if rc != TPM_RC_COMMAND_SIZE:
    fail("a 5-byte command: 0x%x" % rc)
rc, _ = mssim_send(s, GETRANDOM + b"\0\0")
if rc != TPM_RC_COMMAND_SIZE:
    fail("a command longer than its header says: 0x%x" % rc)
s.sendall(struct.pack(">II", 15, 1))
if struct.unpack(">III", recvn(s, 12))[0] != 1:
    fail("handshake")
s.sendall(struct.pack(">I", 20))  # SESSION_END: closed, no answer
if not dropped(s):
    fail("SESSION_END")
s.close()

# mssim platform port
expect_dropped(MSSIM + ".ctrl", struct.pack(">I", 0x1234), "unknown platform code")
s = connect(MSSIM + ".ctrl")
for code in (1, 11, 3, 4, 9, 10):
    s.sendall(struct.pack(">I", code))
    if recvn(s, 4) != b"\0\0\0\0":
        fail("platform code %d" % code)
s.close()

# swtpm data channel
expect_dropped(SWTPM, bytes.fromhex("12340000000c0000017b0010"), "bad tag")
expect_dropped(SWTPM, bytes.fromhex("800100000009"), "commandSize 9")
expect_dropped(SWTPM, bytes.fromhex("800100001388"), "commandSize 5000")
expect_dropped(SWTPM, struct.pack(">I", 9), "unknown prefix")
s = connect(SWTPM)
s.sendall(GETRANDOM + GETRANDOM)  # pipelined
for i in range(2):
    rc, _ = tpm_response(s)
    if rc:
        fail("pipelined command %d: 0x%x" % (i, rc))
s.sendall(struct.pack(">IBI", 8, 0, 12) + GETRANDOM)  # swtpm takes mssim's prefix
size = struct.unpack(">I", recvn(s, 4))[0]
recvn(s, size + 4)
s.close()

# swtpm control channel
s, rsp = ctrl(struct.pack(">I", 1), 8)
caps = struct.unpack(">Q", rsp)[0]
if not caps & 1 or not caps & 8:
    fail("capabilities %x lack INIT or SET_LOCALITY" % caps)
s.close()
s, rsp = ctrl(struct.pack(">IB", 5, 9), 4)
if struct.unpack(">I", rsp)[0] != PTM_BAD_LOCALITY:
    fail("locality 9 accepted")
s.close()
for code, what in ((0x77, "unknown control code"), (0x0D, "SET_STATEBLOB"),
                   (0x0C, "GET_STATEBLOB")):
    s = connect(SWTPM + ".ctrl")
    s.sendall(struct.pack(">I", code) + bytes(12))
    rsp = recvn(s, 4)
    if struct.unpack(">I", rsp)[0] != PTM_BAD_ORDINAL:
        fail(what + " not refused")
    if code != 0x0C and not dropped(s):
        fail(what + ": not dropped after the refusal")
    s.close()
alive("control requests")

# Truncated requests, then gone.
for path, data in ((MSSIM, struct.pack(">IB", 8, 0)), (SWTPM, GETRANDOM[:7]),
                   (SWTPM + ".ctrl", struct.pack(">H", 0)), (MSSIM + ".ctrl", b"\0")):
    s = connect(path)
    s.sendall(data)
    s.close()
alive("truncated requests")

# More peers than the bridge keeps, each with half a request.
peers = []
for i in range(80):
    s = connect(SWTPM)
    s.sendall(GETRANDOM[:3])
    peers.append(s)
alive("80 half-open peers")
for s in peers:
    s.close()

# A peer that sends commands and never reads the answers.
greedy = connect(SWTPM)
greedy.setblocking(False)
try:
    for i in range(2000):
        greedy.send(GETRANDOM)
except BlockingIOError:
    pass
alive("a peer that never reads")
greedy.close()

# Random bytes on every socket.
rng = random.Random(1)
for i in range(300):
    path = rng.choice((MSSIM, MSSIM + ".ctrl", SWTPM, SWTPM + ".ctrl"))
    data = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 64)))
    s = connect(path)
    try:
        s.sendall(data)
    except OSError:
        pass
    s.close()
alive("random bytes")
print("ok", file=sys.stderr)
