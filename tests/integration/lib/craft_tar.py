#!/usr/bin/env python3
"""Write one crafted tar archive for the untar safety tests.

usage: craft_tar.py KIND OUT.tar [OUTSIDE]

KIND names the attack; OUTSIDE is an absolute path outside the extraction
directory that the archive tries to write (default /tmp/fsprof-evil).
"""
import io
import sys
import tarfile


def member(name, kind=tarfile.REGTYPE, data=b"evil\n", link=""):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.mode = 0o644
    info.mtime = 1700000000
    if kind == tarfile.REGTYPE:
        info.size = len(data)
        return info, io.BytesIO(data)
    info.linkname = link
    return info, None


def dirm(name):
    info = tarfile.TarInfo(name)
    info.type = tarfile.DIRTYPE
    info.mode = 0o755
    return info, None


def archives(outside):
    return {
        "absolute": [member(outside)],
        "dotdot": [dirm("a"), member("a/../../evil")],
        "dotdot_leading": [member("../evil")],
        "symlink_absolute": [member("s", tarfile.SYMTYPE, link="/etc")],
        "symlink_escape": [dirm("a"), member("a/s", tarfile.SYMTYPE, link="../../x")],
        "hardlink_absolute": [member("h", tarfile.LNKTYPE, link="/etc/passwd")],
        "hardlink_escape": [member("h", tarfile.LNKTYPE, link="../x")],
        # a symlink inside the tree, then a member written through it
        "through_symlink": [dirm("sub"), member("d", tarfile.SYMTYPE, link="sub"),
                            member("d/file")],
        # a symlink to the root, then a hard link whose target goes through it
        "hardlink_through_symlink": [member("x"),
                                     member("d", tarfile.SYMTYPE, link="."),
                                     member("h", tarfile.LNKTYPE, link="d/x")],
        # a safe archive with a symlink and a hard link, as a control
        "safe": [dirm("a"), member("a/x"), member("a/s", tarfile.SYMTYPE, link="x"),
                 member("a/h", tarfile.LNKTYPE, link="a/x")],
    }


def main():
    kind, out = sys.argv[1], sys.argv[2]
    outside = sys.argv[3] if len(sys.argv) > 3 else "/tmp/fsprof-evil"
    members = archives(outside)[kind]
    with tarfile.open(out, "w", format=tarfile.GNU_FORMAT) as tar:
        for info, data in members:
            tar.addfile(info, data)


if __name__ == "__main__":
    main()
