"""`./dev.sh run --port 0` on an installed checkout: the time to /healthz (at most 10 s), and
no `pip install` on the way (tests/test_package.py checks the skip on a machine that may be busy)."""

import sys
import time
import urllib.request

from paiju.testing.launch import SERVING, Child

start = time.monotonic()
serve = Child(["./dev.sh", "run", "--port", "0"], SERVING, timeout=60)
try:
    with urllib.request.urlopen(serve.http + "/healthz", timeout=10) as r:
        assert r.status == 200
    took = time.monotonic() - start
finally:
    out = serve.stop(timeout=10)
print(f"./dev.sh run a second time: /healthz in {took:.1f} s")
if "installing paiju" in out or took > 10:
    sys.exit(f".ci/second_run.py: the second ./dev.sh run must skip the install and serve within 10 s:\n{out}")
