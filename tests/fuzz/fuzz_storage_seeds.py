#!/usr/bin/env python3
"""Writes the seed corpora of the storage harnesses (tests/fuzz/corpus/storage_*/).

The harnesses seal what needs sealing with their fixed test keys, so the seeds
are only the harnesses' command lists (see the comment at the top of each
fuzz_storage_*.c). Run from anywhere; it rewrites the seed files it names and
leaves the others (found crashes, kept as regression inputs) alone.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")


def u8(v):
    return struct.pack("<B", v)


def u16(v):
    return struct.pack("<H", v)


def u32(v):
    return struct.pack("<I", v)


def u64(v):
    return struct.pack("<Q", v & 0xFFFFFFFFFFFFFFFF)


def write(name, seeds):
    d = os.path.join(CORPUS, name)
    os.makedirs(d, exist_ok=True)
    for seed, data in seeds.items():
        with open(os.path.join(d, seed), "wb") as f:
            f.write(data)


def fid(c):
    return bytes([c]) * 16


# ---- directory entries and journal operations (journal.c, dir.c) ----


def entry(f, oid=b"x", ns=0, flags=0, size=0, root=bytes(32), attr_len=0, id_len=None):
    return (
        f
        + bytes([ns, flags, len(oid) if id_len is None else id_len])
        + oid.ljust(64, b"\0")
        + bytes(range(32))
        + u64(size)
        + root
        + u32(0xA0000010)  # type
        + u32(256)
        + u32(256)
        + u32(0xFFFFFFFF)
        + u32(attr_len)
        + bytes(12)
        + bytes(16)
    )


def m_put(e):
    return u8(1) + e


def m_del(f):
    return u8(2) + f


def m_copy(off, n, f, kind, to):
    return u8(3) + u64(off) + u32(n) + f + u8(kind) + u64(to)


def m_truncate(f, kind, size):
    return u8(4) + f + u8(kind) + u64(size)


def m_remove(f):
    return u8(5) + f


def m_time(offset, ree):
    return u8(6) + u64(offset) + u64(ree)


def m_direct(f, first, ivtags):
    return u8(7) + f + u64(first) + u32(len(ivtags)) + b"".join(ivtags)


def m_confirm():
    return u8(8)


# ---- storage_journal commands ----

HDR, REC, LOG, SNAP, FILE, FAULTS, ANCHOR, MKDIR = range(8)


def cmd(c, payload=b""):
    return u8(c) + u16(len(payload)) + payload


def hdr(slot=0, seq=1, names_snap=False, mode=0, body=b""):
    if mode == 0:
        return cmd(HDR, u8(slot) + u8(0x10 if names_snap else 0) + u64(seq))
    return cmd(HDR, u8(slot) + u8(mode) + body)


def rec(meta, bulk=b"", log=False, raw=None, patch=False):
    if raw is not None:
        return cmd(LOG if log else REC, u8(1 | (2 if patch else 0)) + raw)
    return cmd(LOG if log else REC, u8(0) + u16(len(bulk)) + bulk + meta)


def snap(entries, seq=1, mode=0, tset=0, toff=0, tree=0):
    if mode == 1:
        return u8(1) + u64(seq) + entries
    return u8(mode) + u64(seq) + u8(tset) + u64(toff) + u64(tree) + b"".join(entries)


def anchor(flags=0, counter=2, log_end=0):
    return cmd(ANCHOR, u8(flags) + u64(counter) + u32(log_end))


def journal_seeds():
    a, b, c = fid(0x11), fid(0x22), fid(0x33)
    basic = (
        cmd(SNAP, snap([entry(a, b"a")]))
        + hdr(names_snap=True)
        + rec(m_put(entry(b, b"b")))
        + rec(m_put(entry(c, b"c")), log=True)
    )
    bulk = bytes(range(256)) * 2
    all_ops = (
        cmd(SNAP, snap([entry(a, b"a", size=5000)]))
        + hdr(names_snap=True)
        + rec(
            m_put(entry(b, b"b", size=300))
            + m_copy(0, 300, b, 0, 0)
            + m_copy(300, 64, b, ord("1"), 0)
            + m_truncate(a, 0, 4096)
            + m_time(1000, 2000),
            bulk=bulk,
        )
        + rec(m_del(a) + m_remove(a), log=True)
        + rec(m_put(entry(c, b"c", size=100)) + m_copy(0, 100, c, 0, 0), bulk=bulk[:100], log=True)
        + rec(m_confirm(), log=True)
    )
    direct = (
        hdr()
        + rec(m_put(entry(b, b"b", size=8192)) + m_direct(b, 0, [bytes(28), bytes(28)]), log=True)
        + cmd(FILE, b + u8(0) + u32(0) + bytes(8192))
    )
    return {
        "basic": basic,
        "new_store": b"",
        "new_store_dir": cmd(MKDIR),
        "header_only": hdr(),
        "two_headers": hdr(0, 1) + hdr(1, 5) + rec(m_put(entry(a))) + rec(m_time(1, 2)),
        "all_ops": all_ops,
        "direct_blocks": direct,
        "direct_blocks_confirmed": direct + rec(m_confirm(), log=True),
        "anchor_lags": hdr() + rec(m_put(entry(a))) + rec(m_put(entry(b, b"b"))) + anchor(1),
        "log_head_short": hdr() + rec(m_time(1, 2), log=True) + rec(m_put(entry(a)), log=True)
        + anchor(4),
        "log_head_long": hdr() + rec(m_time(1, 2), log=True) + anchor(8),
        "log_end_given": hdr() + rec(m_time(1, 2), log=True) + anchor(16, 2, 4096),
        "older_copy": hdr() + rec(m_put(entry(a))) + anchor(2, 3),
        "no_slot": hdr() + anchor(32),
        "raw_record": hdr()
        + rec(None, raw=u32(0x524A5753) + u32(1) + u64(0) + bytes(16) + u64(0) + u32(4)
              + bytes(12) + bytes(20), patch=True),
        "raw_header": hdr(mode=2, body=bytes(108)),
        "sealed_body": hdr(mode=1, body=u32(0x484A5753) + u32(1) + u64(3) + bytes(64)),
        "bad_meta": hdr() + rec(u8(9) + bytes(8)),
        "dup_id": cmd(SNAP, snap([entry(a, b"a"), entry(b, b"b")])) + hdr(names_snap=True)
        + rec(m_put(entry(b, b"a"))),
        "faults": basic + cmd(FAULTS, bytes([0, 0, 0xF8, 0, 0xD0])),
        "rename": cmd(SNAP, snap([entry(a, b"a", size=10)])) + hdr(names_snap=True)
        + rec(m_put(entry(a, b"z", size=20)), log=True),
        # The first READ of "j" cut short before the record past the anchor, the next
        # one empty: that load is not shown the record, a later one is.
        "hidden_record": hdr() + rec(m_put(entry(a))) + anchor(1)
        + cmd(FAULTS, bytes([0xFE, 0xF0])),
    }


def dir_seeds():
    a, b = fid(0x41), fid(0x42)
    return {
        "two": snap([entry(a, b"x"), entry(b, b"y")], seq=7, tset=1, toff=1000, tree=2000),
        "empty": snap([], seq=3),
        "raw": snap(bytes(80), seq=2, mode=1),
        "miscounted": snap([entry(a)], mode=2),
        "bad_ns": snap([entry(a, ns=5)]),
        "same_id": snap([entry(a, b"x"), entry(b, b"x")]),
        "long_id": snap([entry(a, id_len=65)]),
        "seq_zero": snap([entry(a, b"x")], seq=0),
        "sizes": snap([entry(a, b"x", size=0xFFFFFFFF, root=bytes([1]) * 32),
                       entry(b, b"y", size=4096 * 129, attr_len=100)]),
    }


# ---- storage_map commands ----

M_BLOCK, M_RAWBLOCK, M_ENT, M_PAGE, M_ATTR, M_READ, M_CHECK, M_FAULTS = range(8)


def mread(pos, n):
    return cmd(M_READ, u32(pos) + u32(n))


def map_seeds():
    blk = lambda b, data: cmd(M_BLOCK, u32(b) + data)
    return {
        "one_block": u64(10) + blk(0, b"hello") + mread(0, 10),
        "two_blocks": u64(5000) + blk(0, b"a" * 4096) + blk(1, b"b" * 904) + mread(0, 5000)
        + mread(4000, 200),
        "two_levels": u64(129 * 4096 + 100) + blk(0, b"hello") + blk(129, b"world")
        + mread(0, 130 * 4096) + cmd(M_CHECK, u32(129) + u16(1)),
        "three_levels": u64(20000 * 4096) + blk(16500, b"deep") + mread(16500 * 4096, 8192),
        "hole_read": u64(64 * 4096) + blk(3, b"x") + mread(0, 64 * 4096),
        "pinned_page": u64(300 * 4096) + cmd(M_PAGE, u8(0) + u32(1) + u8(1) + bytes([1]) * 64)
        + mread(128 * 4096, 4096),
        "raw_page": u64(300 * 4096) + blk(5, b"z") + cmd(M_PAGE, u8(0) + u32(0) + u8(0) + bytes(32))
        + mread(5 * 4096, 100),
        "raw_entry": u64(8192) + blk(1, b"q") + cmd(M_ENT, u32(1) + bytes(28) + u32(1))
        + mread(4096, 10),
        "raw_block": u64(8192) + blk(1, b"q") + cmd(M_RAWBLOCK, u32(1) + b"tampered")
        + mread(4096, 10),
        "attrs": u64(10) + blk(0, b"hi") + cmd(M_ATTR, u8(0) + b"attributes") + mread(0, 10),
        "attrs_raw": u64(10) + cmd(M_ATTR, u8(1) + b"attributes"),
        "attrs_long": u64(10) + cmd(M_ATTR, u8(2) + b"attributes"),
        "check_direct": u64(40 * 4096) + blk(10, b"a") + blk(11, b"b")
        + cmd(M_CHECK, u32(10) + u16(2)) + cmd(M_CHECK, u32(39) + u16(5)),
        "faults": u64(129 * 4096) + blk(0, b"x") + blk(128, b"y") + mread(0, 129 * 4096)
        + cmd(M_FAULTS, bytes([0, 0xF4, 0xC0])),
    }


def listing(*names):
    blob = b"".join(n + b"\0" for n in names)
    return u16(len(blob)) + blob


def sweep_seeds():
    a, b = fid(0xAB), fid(0xCD)
    ha = a.hex().encode()
    hb = b.hex().encode()
    return {
        "mixed": u64(1) + u8(1) + a
        + listing(b"d0000000000000001", b"d0000000000000002", ha, ha + b".1", hb, hb + b".a",
                  b"j", b"zz"),
        "unsorted": u64(0) + u8(0) + listing(hb, ha),
        "unterminated": u64(0) + u8(1) + a + u16(32) + hb,
        "paged": u64(0) + u8(0) + listing(ha) + listing(hb) + listing(),
        "upper_case": u64(0) + u8(0) + listing(ha.upper(), b"D0000000000000001"),
        "empty_names": u64(0) + u8(0) + u16(3) + b"\0\0\0",
    }


def rpmb_body(counter, seq, log_seq, log_end, binding=bytes(16)):
    return (u32(0x50525753) + u32(2) + u64(counter) + u64(seq) + bytes(16) + u64(log_seq)
            + bytes(16) + u64(log_end) + binding)


def fields(counter, seq, log_seq, log_end, tag=0, log_tag=0):
    return u64(counter) + u64(seq) + u64(log_seq) + u64(log_end) + u8(tag) + u8(log_tag)


def rpmb_seeds():
    return {
        "raw_zeros": u8(0) + bytes(640),
        "first_copy": u8(2 | 8) + fields(2, 1, 1, 0),
        "both_copies": u8(2 | 8 | 16) + fields(4, 3, 5, 64) + fields(3, 3, 3, 0),
        "odd_in_first": u8(2 | 8) + fields(3, 1, 1, 0),
        "log_too_long": u8(2 | 8) + fields(2, 1, 1, 3 << 20),
        "head_before_anchor": u8(2 | 16) + fields(5, 9, 8, 0),
        "log_full": u8(2 | 8) + fields(2, 1, 2, 2 << 20),
        "bodies": u8(1 | 4) + rpmb_body(2, 1, 1, 0) + rpmb_body(1, 1, 1, 0),
        "bodies_unbound": u8(1) + rpmb_body(2, 1, 1, 0),
        "cut": u8(3 | 8 | 16) + fields(2, 1, 1, 0) + fields(1, 1, 1, 0) + u16(600),
    }


def reply(res, ran, counts, typ=0x0681):
    return u32(typ) + u32(res) + u32(ran) + b"".join(u32(c) for c in counts)


def msgs(*replies):
    return b"".join(u16(len(r)) + r for r in replies)


def reply_seeds():
    return {
        "read_ok": u8(1) + u8(0) + u16(100) + u8(0) + msgs(reply(0, 1, [100])),
        "read_too_much": u8(1) + u8(0) + u16(100) + u8(0) + msgs(reply(0, 1, [101])),
        "list_read": u8(2) + u8(1) + u16(0) + u8(0) + u16(10) + u8(0)
        + msgs(reply(0, 2, [30, 10])),
        "noent": u8(2) + u8(0) + u16(8) + u8(2) + u16(8) + u8(0) + msgs(reply(1, 0, [])),
        "failed_second": u8(2) + u8(2) + u16(8) + u8(0) + u16(8) + u8(0) + msgs(reply(3, 1, [0])),
        "invalid": u8(1) + u8(4) + u16(0) + u8(0) + msgs(reply(4, 0, [])),
        "wrong_type": u8(1) + u8(5) + u16(0) + u8(0) + msgs(reply(0, 1, [0], typ=0x0601)),
        "trailing": u8(1) + u8(5) + u16(0) + u8(0) + msgs(reply(0, 1, [0, 0])),
        "short": u8(1) + u8(5) + u16(0) + u8(0) + msgs(b"\x81\x06"),
        "gone": u8(1) + u8(5) + u16(0) + u8(0),
        "sent_ahead": u8(1) + u8(2) + u16(16) + u8(1) + msgs(reply(0, 1, [0])),
        "store_commit": u8(1) + u8(2) + u16(16) + u8(2) + msgs(reply(0, 1, [0]), reply(0, 1, [0])),
        "store_commit_fails": u8(1) + u8(2) + u16(16) + u8(2) + msgs(reply(3, 0, [])),
        "inflight_max": u8(0) + u8(3) + msgs(*[reply(0, 1, [0])] * 10),
        "too_many_ops": u8(70) + (u8(5) + u16(0)) * 70 + u8(0) + msgs(reply(0, 64, [0] * 64)),
    }


# storage_requests: requests of a TA instance on its storage channel (proto.h).
PRIVATE, RPMB = 1, 0x80000100
READ, WRITE, META, SHARE_R, SHARE_W, OVERWRITE = 1, 2, 4, 0x10, 0x20, 0x400
DATA_TYPE = 0xA00000BF
W_MORE, W_HEAP = 1, 2


def req(*parts):
    body = b"".join(parts)
    return u16(len(body)) + body


def sid(name):
    return u32(len(name)) + name


def create(name, flags=READ | WRITE | META | OVERWRITE, data_len=0, storage=PRIVATE):
    info = u32(DATA_TYPE) + u32(0) + u32(0) + u32(0xFFFFFFFF)
    return req(u32(0x0702), u32(storage), u32(flags), sid(name), info, u32(0), u32(data_len))


def sopen(name, flags, storage=PRIVATE):
    return req(u32(0x0701), u32(storage), u32(flags), sid(name))


def swrite(h, pos, n, flags=0, frm=None):
    return req(u32(0x0704), u32(h), u64(pos), u32(n), u32(flags), b"" if frm is None else u64(frm))


def sread(h, pos, n):
    return req(u32(0x0703), u32(h), u64(pos), u32(n))


def handle_op(typ, h):
    return req(u32(typ), u32(h))


IDLE = u16(0)


def requests_seeds():
    return {
        "create_write_read": create(b"a", data_len=8192)
        + swrite(1, 8192, 65536, W_HEAP, 0)
        + swrite(1, 0, 4096)
        + sread(1, 0, 16384)
        + handle_op(0x0709, 1)
        + req(u32(0x0705), u32(1), u64(10000))
        + req(u32(0x0706), u32(1), sid(b"b"))
        + handle_op(0x070B, 1)
        + handle_op(0x0707, 1),
        "write_in_pieces": create(b"big")
        + swrite(1, 0, 1 << 20, W_MORE)
        + swrite(1, 1 << 20, 100, W_HEAP, 4096)
        + IDLE
        + sread(1, (1 << 20) - 50, 150)
        + handle_op(0x0708, 1),
        "heap_out_of_range": create(b"h")
        + swrite(1, 0, 4096, W_HEAP, 256 * 1024)
        + swrite(1, 0, 4096, W_HEAP, 0xFFFFFFFFFFFFF000)
        + swrite(1, 0, 65536, W_HEAP | 8, 0)
        + swrite(1, 0, 65536, W_HEAP, 0)
        + sread(1, 0, 65536),
        "open_share_enum_time": create(b"x", READ | SHARE_R | OVERWRITE, storage=RPMB)
        + sopen(b"x", READ | SHARE_R, RPMB)
        + sopen(b"x", WRITE, RPMB)
        + create(b"y")
        + req(u32(0x070C), u32(PRIVATE), u32(0), bytes(16))
        + req(u32(0x070E), u32(1000), u32(5))
        + req(u32(0x070D))
        + req(u32(0x070A), u32(2), u32(0))
        + handle_op(0x0708, 3),
        "malformed": create(b"m") + req(u32(0x0704), u32(1)),
    }


def main():
    write("storage_requests", requests_seeds())
    write("storage_journal", journal_seeds())
    write("storage_dir", dir_seeds())
    write("storage_map", map_seeds())
    write("storage_sweep", sweep_seeds())
    write("storage_rpmb", rpmb_seeds())
    write("storage_reply", reply_seeds())


if __name__ == "__main__":
    main()
