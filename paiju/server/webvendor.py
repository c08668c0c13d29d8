"""The web client's one third-party file: the browser build of @msgpack/msgpack.

The web client (paiju/server/web/) speaks the binary protocol through @msgpack/msgpack, the
maintained msgpack library for JavaScript, instead of a hand-written codec. Its UMD
browser build is part of the package (``paiju/server/web/vendor/msgpack.min.js``, committed with
its licence), so ``pip install`` then ``paiju serve`` gives a lobby that connects with no
other step. Its integrity is pinned twice: ``FILE_INTEGRITY`` here (the test suite checks the
committed file against it) and the ``integrity`` attribute of its ``<script>`` tag in
index.html (the browser refuses a file that differs).

This module restores or updates the file from the npm registry's pinned tarball, checked
against the registry's published ``integrity`` (SRI, sha512)::

    python -m paiju.server.webvendor            # check the committed files; download them if they differ
    python -m paiju.server.webvendor --force    # download the pinned tarball and extract it again

Standard library only (urllib, tarfile, hashlib): it runs before anything else is set up.

>>> sri(b"abc")[:20]
'sha512-3a81oZNherrMQ'
>>> check() == []
True
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import sys
import tarfile
import urllib.request
from pathlib import Path

PACKAGE = "@msgpack/msgpack"
VERSION = "3.1.3"
URL = f"https://registry.npmjs.org/{PACKAGE}/-/msgpack-{VERSION}.tgz"
INTEGRITY = "sha512-47XIizs9XZXvuJgoaJUIE2lFoID8ugvc0jzSHP+Ptfk8nTbnR8g788wv48N03Kx0UkAv559HWRQ3yzOgzlRNUA=="
VENDOR = Path(__file__).resolve().parent / "web" / "vendor"
# member of the tarball -> file in VENDOR
FILES = {
    "package/dist.umd/msgpack.min.js": "msgpack.min.js",
    "package/LICENSE": "msgpack.LICENSE",
}
TARGET = VENDOR / "msgpack.min.js"
# the SRI of each extracted file, as committed (and, for the script, in index.html's <script integrity>)
FILE_INTEGRITY = {
    "msgpack.min.js": "sha512-LcgKYCWYlUZIGq3tk2kc3mGyffC9Eo87JCLelAR0bTf2VbiwP1i6weRqjK6fmqKC9RvShy97a91iLa+7y3dvlw==",
    "msgpack.LICENSE": "sha512-NKV4Wwndf9iVW/KZR8ZeW6SEgjzvQL0zcn9tUf7CEJneFcwwf67u9tZglDEIWlN7GtqZFqCI96R7FXMMc47Ksw==",  # noqa: E501
}


def sri(data: bytes) -> str:
    """The Subresource Integrity string (as npm's ``dist.integrity``) of ``data``."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def extract(tarball: bytes, dest: Path = VENDOR) -> list[Path]:
    """Check ``tarball`` against the pinned integrity and write the browser build into ``dest``."""
    got = sri(tarball)
    if got != INTEGRITY:
        raise ValueError(f"{PACKAGE} {VERSION}: integrity mismatch: got {got}, expected {INTEGRITY}")
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as tar:
        for member, name in FILES.items():
            f = tar.extractfile(member)
            if f is None:
                raise ValueError(f"{member} is missing from the {PACKAGE} tarball")
            path = dest / name
            tmp = path.with_suffix(path.suffix + ".part")
            tmp.write_bytes(f.read())
            tmp.replace(path)  # never leave a half-written file that would count as present
            written.append(path)
    (dest / "VERSION").write_text(f"{PACKAGE} {VERSION}\n{URL}\n{INTEGRITY}\n")
    return written


def fetch(url: str = URL, timeout: float = 60.0) -> bytes:
    req = urllib.request.Request(url, headers={"User-Agent": "paiju-webvendor"})
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        data: bytes = resp.read()
    return data


def check(dest: Path = VENDOR) -> list[str]:
    """What is wrong with the vendored files in ``dest``: one line each (empty: all good)."""
    problems = []
    for name, want in FILE_INTEGRITY.items():
        path = dest / name
        if not path.is_file():
            problems.append(f"{path} is missing")
        elif (got := sri(path.read_bytes())) != want:
            problems.append(f"{path}: integrity {got}, expected {want}")
    return problems


def ensure(force: bool = False, dest: Path = VENDOR) -> bool:
    """Make sure the browser build in ``dest`` is the pinned one; True when it had to be downloaded."""
    if not force and not check(dest):
        return False
    extract(fetch(), dest)
    if problems := check(dest):
        raise ValueError(f"{PACKAGE} {VERSION} extracted, but {problems[0]} (update FILE_INTEGRITY)")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m paiju.server.webvendor", description=__doc__.split("\n")[0])
    parser.add_argument("--force", action="store_true", help="download the pinned tarball again even when present")
    parser.add_argument("--dest", type=Path, default=VENDOR, help=f"directory to write (default {VENDOR})")
    args = parser.parse_args(argv)
    try:
        fetched = ensure(args.force, args.dest)
    except (OSError, ValueError) as e:
        print(f"webvendor: {e}", file=sys.stderr)
        return 1
    state = "fetched" if fetched else "present, integrity checked,"
    print(f"webvendor: {PACKAGE} {VERSION} {state} in {args.dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
