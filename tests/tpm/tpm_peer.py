"""What the Python peers of swtee-tpm's tests share: the bridge's Unix
sockets as `swtee run --tpm` names them, failing a test, and reading
whole replies."""
import os
import sys

MSSIM = os.environ["SWTEE_TPM_MSSIM_TCTI"].split("path=", 1)[1]
SWTPM = os.environ["SWTEE_TPM_SWTPM_TCTI"].split("path=", 1)[1]


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def recvn(s, n):
    out = b""
    while len(out) < n:
        chunk = s.recv(n - len(out))
        if not chunk:
            fail("connection closed after %d of %d bytes" % (len(out), n))
        out += chunk
    return out
