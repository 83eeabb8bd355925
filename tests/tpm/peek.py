#!/usr/bin/env python3
"""On its Unix sockets swtee-tpm leaves a client's command queued on the
socket until the reply is out (docs/tpm.md, "Benchmarks"): taking it off
earlier wakes the client, asleep in its read of the reply, for nothing.
A client sees that through SIOCOUTQ, the bytes it sent that the bridge
has not taken yet: never 0 while no reply is readable, and 0 soon after
the reply. Checked on the swtpm data channel (a connection per command,
as the swtpm TCTI does) and on the mssim command channel (one connection
for all). Run under `swtee run --tpm`."""
import fcntl
import select
import socket
import struct
import time

from tpm_peer import MSSIM, SWTPM, fail, recvn

GETRANDOM = bytes.fromhex("80010000000c0000017b0020")  # 32 random bytes
MSSIM_SEND_COMMAND = 8
SIOCOUTQ = 0x5411
ROUNDS = 200


def outq(s):
    return struct.unpack("i", fcntl.ioctl(s.fileno(), SIOCOUTQ, b"\0" * 4))[0]


def readable(s):
    return bool(select.select([s], [], [], 0)[0])


def one(s, frame, what):
    """Sends frame; True when its bytes left the socket before a reply came."""
    s.sendall(frame)
    early = False
    deadline = time.monotonic() + 15
    while True:
        # Sampled first: once the bridge takes the bytes, its reply is already out.
        queued = outq(s)
        if readable(s):
            break
        if queued == 0:
            early = True
        if time.monotonic() > deadline:
            fail(what + ": no reply")
    return early


def taken(s, what):
    """The bridge takes the command's bytes once the reply is out."""
    deadline = time.monotonic() + 5
    while outq(s):
        if time.monotonic() > deadline:
            fail(what + ": the command's bytes stay queued after the reply")
        time.sleep(0.001)


def swtpm_rounds():
    early = 0
    for _ in range(ROUNDS):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(15)
        s.connect(SWTPM)
        early += one(s, GETRANDOM, "swtpm")
        tag, size, rc = struct.unpack(">HII", recvn(s, 10))
        body = recvn(s, size - 10)
        if rc != 0 or len(body) != 2 + 32:
            fail("swtpm: GetRandom rc 0x%x" % rc)
        taken(s, "swtpm")
        s.close()
    return early


def mssim_rounds():
    early = 0
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(15)
    s.connect(MSSIM)
    frame = struct.pack(">IBI", MSSIM_SEND_COMMAND, 0, len(GETRANDOM)) + GETRANDOM
    for _ in range(ROUNDS):
        early += one(s, frame, "mssim")
        (n,) = struct.unpack(">I", recvn(s, 4))
        rsp = recvn(s, n)
        (ack,) = struct.unpack(">I", recvn(s, 4))
        tag, size, rc = struct.unpack(">HII", rsp[:10])
        if rc != 0 or size != n or ack != 0:
            fail("mssim: GetRandom rc 0x%x size %d ack %d" % (rc, size, ack))
        taken(s, "mssim")
    s.close()
    return early


for name, rounds in (("swtpm", swtpm_rounds), ("mssim", mssim_rounds)):
    early = rounds()
    if early:
        fail("%s: %d of %d commands taken off the socket before their reply"
             % (name, early, ROUNDS))
print("ok: %d commands on each channel stayed queued until their reply" % ROUNDS)
