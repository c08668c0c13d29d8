#!/usr/bin/env bash
# paiju's two set-up commands (see README.md):
#   ./dev.sh run [paiju serve options]   install paiju and run the server (embedded default, no Redis)
#   ./dev.sh test [pytest options]       install what the tests need and run the whole suite
# Works on a fresh Debian/Ubuntu machine that has only python3: as root (or with sudo) it installs
# the Debian packages it is missing (python3-venv, redis-server, chromium) with apt-get.
set -euo pipefail
cd "$(dirname "$0")"
VENV="${PAIJU_VENV:-.venv}"
PY="$VENV/bin/python"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'dev.sh: %s\n' "$*" >&2; exit 1; }

apt_install() {  # apt_install PACKAGE... : install Debian packages when we may
    local sudo=""
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null && sudo -n true 2>/dev/null && sudo="sudo -n" ||
            die "need the Debian packages '$*': install them (apt-get install $*) or run as root"
    fi
    command -v apt-get >/dev/null || die "need '$*' and there is no apt-get here: install them by hand"
    say "installing Debian packages: $*"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq >/dev/null || true
    $sudo apt-get install -y -qq -o DPkg::Lock::Timeout=600 --no-install-recommends "$@" >/dev/null
}

ensure_venv() {
    command -v python3 >/dev/null || die "python3 is needed"
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || die "paiju needs Python >= 3.11 ($(python3 -V))"
    if [ ! -x "$PY" ]; then
        if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
            apt_install "python3-venv" || true
            python3 -c 'import ensurepip' 2>/dev/null || apt_install "python3.$(python3 -c 'import sys; print(sys.version_info[1])')-venv"
        fi
        say "creating the virtual environment $VENV"
        python3 -m venv "$VENV"
        "$PY" -m pip install -q --upgrade pip
    fi
}

install_key() {  # install_key EXTRA: what an install of paiju depends on, hashed
    # pip install -e leaves the sources in place: only the packaging (pyproject.toml, setup.py),
    # the compiled modules' sources (COMPILED in paiju/build.py) and their extensions call for
    # a new install; so do another extra, the other build, another Python
    {
        echo "extra=$1 pure=${PAIJU_PURE_BUILD:-} python=$("$PY" -c 'import sys; print(sys.version)')"
        cat pyproject.toml setup.py paiju/build.py
        "$PY" -c 'import ast, sys
tree = ast.parse(open("paiju/build.py").read())
names = next(ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "COMPILED")
for name in names:
    sys.stdout.write(open(name.replace(".", "/") + ".py").read())'
        find paiju -name '*.so' | sort
    } | sha256sum | cut -d' ' -f1
}

extra_deps() {  # extra_deps EXTRA: the requirements of pyproject.toml's extra, its paiju[...] ones expanded
    "$PY" -c 'import sys, tomllib
extras = tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]
def deps(name):
    for d in extras[name]:
        if d.startswith("paiju["):
            for e in d[6:].rstrip("]").split(","):
                yield from deps(e.strip())
        else:
            yield d
print("\n".join(dict.fromkeys(deps(sys.argv[1]))))' "$1"
}

install_paiju() {  # install_paiju [EXTRA]: the compiled build where there is a C compiler
    local spec="." stamp="$VENV/.paiju-install-${1:-base}" base="$VENV/.paiju-install-base"
    [ -n "${1:-}" ] && spec=".[$1]"
    # nothing changed since the last install (the stamp of this extra, or of the test extra,
    # which holds every dependency of a plain install): no pip, no compiler
    for s in "$stamp" "$VENV/.paiju-install-test"; do
        if [ -f "$s" ] && [ -x "$VENV/bin/paiju" ] && [ "$(cat "$s")" = "$(install_key "${s##*-install-}")" ]; then
            say "paiju is installed and up to date (its packaging and compiled sources are unchanged): no pip install"
            return
        fi
    done
    rm -f "$stamp"
    # paiju installed and unchanged (./dev.sh run), only the extra's dependencies missing
    # (./dev.sh test next): those alone, without building paiju again
    if [ -n "${1:-}" ] && [ -f "$base" ] && [ -x "$VENV/bin/paiju" ] && [ "$(cat "$base")" = "$(install_key base)" ]; then
        say "installing the $1 dependencies (paiju is installed and unchanged: not built again)"
        local deps
        mapfile -t deps < <(extra_deps "$1")
        "$PY" -m pip install -q "${deps[@]}"
        install_key "$1" >"$stamp"
        return
    fi
    if [ -n "${PAIJU_PURE_BUILD:-}" ]; then
        say "installing paiju${1:+ with its $1 dependencies} (pure Python: PAIJU_PURE_BUILD is set)"
    else
        say "installing paiju${1:+ with its $1 dependencies} (mypyc compiles the hot path: a few minutes; PAIJU_PURE_BUILD=1 skips it)"
    fi
    "$PY" -m pip install -q -e "$spec"
    local version
    version="$("$VENV/bin/paiju" --version)"
    say "$version"
    if [ -z "${PAIJU_PURE_BUILD:-}" ] && command -v cc >/dev/null && [[ "$version" != *"(compiled: "* ]]; then
        die "the compiled build is missing although there is a C compiler (PAIJU_PURE_BUILD=1 builds pure Python)"
    fi
    install_key "${1:-base}" >"$stamp"
}

ensure_test_tools() {
    command -v redis-server >/dev/null || apt_install redis-server
    # tests/records start a throwaway PostgreSQL cluster (initdb, pg_ctl) of their own
    command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || apt_install postgresql
    command -v docker-compose >/dev/null || apt_install docker-compose  # `docker-compose config` checks deploy/
    command -v redis-server >/dev/null || die "redis-server is needed by the tests"
    if [ ! -x /usr/bin/chromium ] && [ -z "${PAIJU_CHROMIUM:-}" ]; then
        apt_install chromium fonts-wqy-microhei || die "chromium is needed by the browser test (or set PAIJU_CHROMIUM=/path/to/chrome)"
    fi
}

case "${1:-}" in
run)
    shift
    ensure_venv
    install_paiju
    say "paiju serve $* (web client at http://127.0.0.1:8765/ unless --host/--port say otherwise)"
    exec "$VENV/bin/paiju" serve "$@"
    ;;
test)
    shift
    ensure_venv
    install_paiju test
    ensure_test_tools
    say "ruff (lint and format)"
    "$VENV/bin/ruff" check .
    "$VENV/bin/ruff" format --check .
    say "mypy (strict, on the packages [tool.mypy] lists in pyproject.toml)"
    "$VENV/bin/mypy"
    # a worker more than the cores: much of the suite waits on the servers and processes it
    # starts (pytest -n 3 on 2 cores: 388 s at load 7-10 where -n 2 took 619-649 s at load 5)
    workers=$(( $(nproc 2>/dev/null || echo 2) + 1 ))
    say "pytest on $workers workers"
    exec "$VENV/bin/pytest" -n "$workers" "$@"
    ;;
*)
    sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
