"""The compiled build: the modules of paiju/build.py's COMPILED become C extensions (mypyc).

Everything else about the package is in pyproject.toml. ``PAIJU_PURE_BUILD=1 pip install .``
builds pure Python; so does a machine without a C compiler (with a warning). The extensions
sit beside their ``.py`` files, which stay the reference: Python imports an extension before a
source module of the same name, and the ``.py`` where there is none (paiju/build.py).
"""

from __future__ import annotations

import ast
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
BUILD = HERE / "paiju" / "build.py"


def compiled_modules() -> list[str]:
    """COMPILED of paiju/build.py, read without importing the package."""
    for node in ast.parse(BUILD.read_text()).body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets if isinstance(t, ast.Name)] == ["COMPILED"]:
            return list(ast.literal_eval(node.value))
    raise SystemExit("setup.py: no COMPILED in paiju/build.py")


def have_compiler() -> bool:
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(cc.split()[0]) is not None


def remove_built() -> None:
    """Remove the extensions an earlier build left in the source tree (``pip install -e .``):
    a pure build must not run them, nor a compiled one those of modules it no longer compiles."""
    for top in {m.partition(".")[0] for m in compiled_modules()}:
        for so in (HERE / top).rglob("*.so"):
            so.unlink()
    for so in HERE.glob("*__mypyc*.so"):
        so.unlink()
    (HERE / "paiju" / "build.txt").unlink(missing_ok=True)


class BuildExt(build_ext):
    """Runs mypyc when the extensions are built (not when setup.py is only asked for the
    metadata), then writes paiju/build.txt: which compiler made them."""

    def finalize_options(self) -> None:
        if self.distribution.ext_modules == PLACEHOLDER:
            from mypyc.build import mypycify

            paths = [str(Path(*m.split(".")).with_suffix(".py")) for m in compiled_modules()]
            opt = os.environ.get("PAIJU_OPT_LEVEL", "3")
            self.distribution.ext_modules = list(mypycify(paths, opt_level=opt, multi_file=True))
        super().finalize_options()
        if self.parallel is None:  # one C file a module (multi_file): compile them side by side
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        if self.inplace:
            remove_built()
        super().run()
        if self.extensions:
            import mypy.version

            base = HERE if self.inplace else Path(self.build_lib)
            (base / "paiju" / "build.txt").write_text(f"mypyc {mypy.version.__version__}\n")


PLACEHOLDER = [Extension("paiju._compiled", [])]  # what BuildExt turns into mypyc's extensions


def extensions() -> list[Extension]:
    """A placeholder for the extensions (mypyc makes them in BuildExt), or none: pure Python."""
    if os.environ.get("PAIJU_PURE_BUILD", "") not in ("", "0"):
        print("setup.py: PAIJU_PURE_BUILD is set: building pure Python", file=sys.stderr)
        remove_built()
        return []
    if not have_compiler():
        print("setup.py: no C compiler found: building pure Python (the compiled build needs cc)", file=sys.stderr)
        return []
    return PLACEHOLDER


os.chdir(HERE)  # mypycify takes paths relative to the project and reads [tool.mypy] there
setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt})
