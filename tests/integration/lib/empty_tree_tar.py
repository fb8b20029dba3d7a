#!/usr/bin/env python3
"""Write a tar of N empty files, 15 to a directory, 40 directories to a parent.

usage: empty_tree_tar.py OUT.tar N

An untar (and its rm -rf) of it is all namespace work - creates, unlinks,
the log that carries them - with no file data to write back: the tests
that judge rm-sync's log IO (explain.bats, device_model_untar.bats).
"""
import io
import sys
import tarfile


def main():
    out, n = sys.argv[1], int(sys.argv[2])
    with tarfile.open(out, "w", format=tarfile.GNU_FORMAT) as t:
        def add(name, kind, mode):
            ti = tarfile.TarInfo(name)
            ti.type, ti.mode = kind, mode
            t.addfile(ti, io.BytesIO(b""))

        add("tree", tarfile.DIRTYPE, 0o755)
        for i in range(n):
            d, f = divmod(i, 15)
            top, sub = divmod(d, 40)
            if f == 0 and sub == 0:
                add("tree/d%03d" % top, tarfile.DIRTYPE, 0o755)
            if f == 0:
                add("tree/d%03d/s%02d" % (top, sub), tarfile.DIRTYPE, 0o755)
            add("tree/d%03d/s%02d/f%05d.c" % (top, sub, i), tarfile.REGTYPE,
                0o644)


if __name__ == "__main__":
    main()
