"""Fetch the web client's one third-party file: the browser build of @msgpack/msgpack.

The web client (server/web/) speaks the binary protocol through @msgpack/msgpack, the
maintained msgpack library for JavaScript, instead of a hand-written codec. Its pinned
tarball is downloaded from the npm registry, checked against the registry's published
``integrity`` (SRI, sha512) and only the UMD browser build is extracted to
``server/web/vendor/msgpack.min.js`` (plus its licence). Nothing is done when the file is
already there, so the README's run and test commands can call this every time::

    python -m server.webvendor            # fetch if missing
    python -m server.webvendor --force    # fetch again

Standard library only (urllib, tarfile, hashlib): it runs before anything else is set up.

>>> sri(b"abc")[:20]
'sha512-3a81oZNherrMQ'
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


def ensure(force: bool = False, dest: Path = VENDOR) -> bool:
    """Make sure the browser build is in ``dest``; True when it had to be downloaded."""
    stamp = dest / "VERSION"
    present = (dest / TARGET.name).is_file() and stamp.is_file()
    if not force and present and stamp.read_text().split("\n", 1)[0] == f"{PACKAGE} {VERSION}":
        return False
    extract(fetch(), dest)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m server.webvendor", description=__doc__.split("\n")[0])
    parser.add_argument("--force", action="store_true", help="download again even when present")
    parser.add_argument("--dest", type=Path, default=VENDOR, help=f"directory to write (default {VENDOR})")
    args = parser.parse_args(argv)
    try:
        fetched = ensure(args.force, args.dest)
    except (OSError, ValueError) as e:
        print(f"webvendor: {e}", file=sys.stderr)
        return 1
    state = "fetched" if fetched else "already present"
    print(f"webvendor: {PACKAGE} {VERSION} {state} in {args.dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
