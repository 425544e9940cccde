#!/usr/bin/env python3
"""forge_checkpoint.py — changes a checkpoint (runtime/checkpoint.c) as a
damaged disk or a hand edit would, for tests/mpi/run.sh: with its checksums
left as they were, or redone, so that what must notice the change is the
resumed run's check of each block's place and of what the index says.

  forge_checkpoint.py CK byte N       one byte of CK.rows changed, at offset N
  forge_checkpoint.py CK first K V    the first system of block K (from 0) set to V;
                                      every block's checksum and the index redone
  forge_checkpoint.py CK done D       the index's `done` set to D, its check line redone

The layout (checkpoint.c): CK.rows is a 24-byte header, then blocks, each a
descriptor (int64 first; int32 nsys, rep0, nrep, unused; uint64 bytes), a
uint64 checksum and the bytes; the checksum goes on from the block before's
(the first from the header's).  CK is text: "key: value" lines, among them
`done`, `rows` (bytes of CK.rows that count) and `rows check` (the last
block's checksum), then `check: ` and the FNV-1a of everything before.
"""
import struct
import sys

MASK = (1 << 64) - 1
HEADER = 24
ENTRY = struct.Struct("<qiiiiQQ")   # the descriptor and the checksum: 40 bytes


def ck_sum(h, data):
    """checkpoint.c's ode_ck_sum."""
    n, i = len(data), 0
    while n - i >= 8:
        h = ((h ^ int.from_bytes(data[i:i + 8], "little")) * 0x9E3779B97F4A7C15) & MASK
        h ^= h >> 32
        i += 8
    if n - i:
        w = int.from_bytes(data[i:], "little") ^ ((n - i) << 56)
        h = ((h ^ w) * 0x9E3779B97F4A7C15) & MASK
        h ^= h >> 32
    return h


def fnv1a(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & MASK
    return h


def read_index(path):
    with open(path) as f:
        return f.read()


def write_index(path, text):
    """The index with its check line redone."""
    body = text[:text.index("\ncheck: ") + 1]
    with open(path, "w") as f:
        f.write(body + "check: %016x\n" % fnv1a(body.encode()))


def set_field(text, key, value):
    lines = text.split("\n")
    for k, line in enumerate(lines):
        if line.startswith(key + ": "):
            lines[k] = key + ": " + value
            return "\n".join(lines)
    raise SystemExit("forge_checkpoint: no '%s' in the index" % key)


def field(text, key):
    for line in text.split("\n"):
        if line.startswith(key + ": "):
            return line[len(key) + 2:]
    raise SystemExit("forge_checkpoint: no '%s' in the index" % key)


def main():
    ck, what = sys.argv[1], sys.argv[2]
    rows_path = ck + ".rows"
    if what == "byte":
        at = int(sys.argv[3])
        with open(rows_path, "r+b") as f:
            f.seek(at)
            b = f.read(1)
            f.seek(at)
            f.write(bytes([b[0] ^ 0x01]))
        return
    text = read_index(ck)
    if what == "done":
        write_index(ck, set_field(text, "done", sys.argv[3]))
        return
    if what != "first":
        raise SystemExit(__doc__)
    block, value = int(sys.argv[3]), int(sys.argv[4])
    with open(rows_path, "rb") as f:
        log = bytearray(f.read())
    end = int(field(text, "rows"))
    check = ck_sum(0xCBF29CE484222325, bytes(log[:HEADER]))
    at, k = HEADER, 0
    while at < end:
        first, nsys, rep0, nrep, unused, nbytes, _ = ENTRY.unpack_from(log, at)
        if k == block:
            first = value
        desc = struct.pack("<qiiiiQ", first, nsys, rep0, nrep, unused, nbytes)
        data = bytes(log[at + ENTRY.size:at + ENTRY.size + nbytes])
        check = ck_sum(ck_sum(check, desc), data)
        ENTRY.pack_into(log, at, first, nsys, rep0, nrep, unused, nbytes, check)
        at += ENTRY.size + nbytes
        k += 1
    if block >= k:
        raise SystemExit("forge_checkpoint: the log has %d blocks" % k)
    with open(rows_path, "wb") as f:
        f.write(log)
    write_index(ck, set_field(text, "rows check", "%016x" % check))


if __name__ == "__main__":
    main()
