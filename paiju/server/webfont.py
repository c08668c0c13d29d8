"""The web client's CJK font: the glyphs the site's Chinese uses, cut from WenQuanYi Micro Hei
(文泉驿微米黑, Apache-2.0; the licence is ``web/fonts/paiju-cjk.LICENSE``) into
``paiju/server/web/fonts/paiju-cjk.woff``, so that a machine with no CJK font still shows 牌局,
东南西北, 万 on the tiles and 报听 as characters, not boxes. ``web/fonts/paiju-cjk.css`` declares
it (``@font-face`` "paiju-cjk", for the CJK blocks only); the client's style sheets import that
and name the font first in their font lists.

The characters are every CJK character (U+2E80 and up: CJK punctuation, ideographs, full-width
forms) in the client's files: its scripts, pages and style sheets, and the rules pages. A
player's own name in Chinese may hold others: the browser then falls back to the machine's fonts.

    python -m paiju.server.webfont            # rebuild web/fonts/paiju-cjk.woff (needs fontTools:
                                              # pip install "paiju[webfont]")
    python -m paiju.server.webfont --check    # exit 1 if the site uses a character the font lacks

>>> sorted(cjk_characters("牌局 paiju，东南西北 ♠"))
['东', '北', '南', '局', '牌', '西', '，']
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

WEB = Path(__file__).parent / "web"
FONT = WEB / "fonts" / "paiju-cjk.woff"
LICENCE = FONT.with_suffix(".LICENSE")
SOURCE = Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")  # Debian's fonts-wqy-microhei
FAMILY = "paiju-cjk"
FIRST_CJK = 0x2E80  # CJK radicals, punctuation, kana, ideographs, compatibility and full-width forms
TEXTS = (".js", ".html", ".css")


def cjk_characters(text: str) -> set[str]:
    """The CJK characters of ``text`` (code points from U+2E80; no surrogates, no private use)."""
    return {c for c in text if ord(c) >= FIRST_CJK and not 0xD800 <= ord(c) < 0xF900 and ord(c) < 0x20000}


def site_characters(web: Path = WEB) -> set[str]:
    """Every CJK character in the client's files (the vendored library and the fonts aside)
    and in the pages the server makes (bridge's system card in Chinese)."""
    from paiju.server import systemcard

    out = cjk_characters(systemcard.page(lang="zh"))
    for f in sorted(web.rglob("*")):
        if f.suffix in TEXTS and not {"vendor", "fonts"} & set(f.relative_to(web).parts):
            out |= cjk_characters(f.read_text(encoding="utf-8"))
    return out


def font_characters(font: Path = FONT) -> set[str]:
    """The characters ``font`` has glyphs for (needs fontTools)."""
    from fontTools.ttLib import TTFont

    with TTFont(font) as f:
        return {chr(c) for c in f.getBestCmap()}


def build(source: Path = SOURCE, out: Path = FONT, chars: set[str] | None = None) -> tuple[int, int]:
    """Cut the font of ``chars`` (the site's) from ``source`` into ``out`` (WOFF); (characters
    kept, bytes written). A character the source lacks is left out."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    wanted = site_characters() if chars is None else chars
    with TTFont(source, fontNumber=0, lazy=False) as font:
        have = set(font.getBestCmap())
        kept = sorted(ord(c) for c in wanted if ord(c) in have)
        options = subset.Options()
        options.flavor = "woff"
        options.layout_features = []  # shapes only: no OpenType features for a UI font
        options.hinting = False
        options.name_IDs = [0, 1, 2, 3, 4, 5, 6]  # copyright, family, version, and the like
        options.notdef_outline = True
        sub = subset.Subsetter(options)
        sub.populate(unicodes=kept)
        sub.subset(font)
        for rec in font["name"].names:  # renamed: a subset is not the whole font
            if rec.nameID in (1, 4, 6):
                rec.string = FAMILY
        buf = io.BytesIO()
        font.flavor = "woff"
        font.save(buf)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(buf.getvalue())
    return len(kept), len(buf.getvalue())


def licence(source: Path = SOURCE) -> str:
    """The licence file shipped beside the subset: Debian's copyright file of the source font and
    the Apache-2.0 text it is licensed under."""
    copyright_file = Path("/usr/share/doc/fonts-wqy-microhei/copyright")
    apache = Path("/usr/share/common-licenses/Apache-2.0")
    head = (
        f"{FONT.name} is a subset (the characters the paiju web client uses) of {source.name},\n"
        "WenQuanYi Micro Hei, used under the Apache License 2.0 (its upstream licence is\n"
        '"Apache-2.0 or GPL-3+ with Font exception"; this subset takes the Apache-2.0 option).\n'
        "The glyphs are unchanged; the font's names are changed to paiju-cjk.\n\n"
    )
    return head + copyright_file.read_text(encoding="utf-8") + "\n\n" + apache.read_text(encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m paiju.server.webfont", description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="only check that the font has every character the site uses")
    p.add_argument("--source", type=Path, default=SOURCE, help=f"the font to cut from (default {SOURCE})")
    args = p.parse_args(argv)
    wanted = site_characters()
    if args.check:
        missing = sorted(wanted - font_characters())
        if missing:
            print(f"{FONT.name} lacks {''.join(missing)}: run python -m paiju.server.webfont", file=sys.stderr)
        return 1 if missing else 0
    if not args.source.is_file():
        print(f"no font at {args.source}: apt-get install fonts-wqy-microhei, or give --source", file=sys.stderr)
        return 2
    kept, size = build(args.source)
    LICENCE.write_text(licence(args.source), encoding="utf-8")
    lacking = len(wanted) - kept
    print(f"wrote {FONT.relative_to(WEB.parent.parent.parent)}: {kept} characters, {size / 1024:.0f} KB", end="")
    print(f" ({lacking} the source lacks)" if lacking else "")
    return 0


if __name__ == "__main__":
    sys.exit(main())
