"""deploy/ checked without a Docker engine: the compose file resolves (docker-compose
config, where installed) and has what the issue asks; yamllint and kubernetes-validate
pass on every manifest (and do catch a broken one); and the image's exact commands (the
Dockerfile's CMD, the compose commands and health checks) run here against a real Redis."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
import yaml

from paiju.testing.launch import ROOT, Child

from .conftest import RedisServer

DEPLOY = ROOT / "deploy"
K8S = sorted(p for p in (DEPLOY / "k8s").glob("*.yaml") if p.name != "kustomization.yaml")
BIN = Path(sys.executable).parent
COMPOSE_ENV = {"PAIJU_SECRET": "compose-test-secret", "PAIJU_DB_PASSWORD": "compose-test-password"}


def compose() -> dict:
    data = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    assert isinstance(data, dict)
    return data


def test_compose_file() -> None:
    docker_compose = shutil.which("docker-compose")
    if docker_compose is not None:  # Debian's docker-compose 1.29 (dev.sh installs it)
        p = subprocess.run(
            [docker_compose, "-f", str(DEPLOY / "docker-compose.yml"), "config"],
            capture_output=True,
            text=True,
            env=dict(os.environ, **COMPOSE_ENV),
            timeout=60,
        )
        assert p.returncode == 0, p.stderr
        resolved = yaml.safe_load(p.stdout)
    else:
        resolved = compose()
    services = resolved["services"]
    assert set(services) == {"redis", "postgres", "server", "server-2", "bots-1", "bots-2"}
    assert all("healthcheck" in s for s in services.values())
    for name in ("server", "server-2", "bots-1", "bots-2"):
        assert services[name]["environment"]["PAIJU_REDIS"] == "redis://redis:6379/0"
        assert services[name]["depends_on"]["redis"]["condition"] == "service_healthy"
    assert services["server"]["environment"]["PAIJU_SERVER_ID"]
    assert services["server"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert services["server"]["environment"]["PAIJU_DATABASE"].startswith("postgresql://paiju:")
    assert "/var/lib/postgresql/data" in str(services["postgres"]["volumes"]), "the database lives on a volume"


def test_yamllint() -> None:
    p = subprocess.run(
        [str(BIN / "yamllint"), "-c", str(DEPLOY / ".yamllint"), "-f", "parsable", str(DEPLOY)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 0, p.stdout + p.stderr


def test_kubernetes_manifests(tmp_path: Path) -> None:
    kinds = set()
    for f in K8S:
        for doc in yaml.safe_load_all(f.read_text()):
            kinds.add(doc["kind"])
    wanted = {"Deployment", "StatefulSet", "Service", "HorizontalPodAutoscaler", "PersistentVolumeClaim", "Secret"}
    assert wanted <= kinds
    kv = str(BIN / "kubernetes-validate")
    p = subprocess.run([kv, "--strict", *map(str, K8S)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    # The validator does catch a mistake (a misspelt field), so the pass above means something.
    broken = tmp_path / "broken.yaml"
    broken.write_text((DEPLOY / "k8s" / "bots.yaml").read_text().replace("minReplicas", "minReplica"))
    p = subprocess.run([kv, "--strict", str(broken)], capture_output=True, text=True, timeout=120)
    assert p.returncode != 0
    listed = yaml.safe_load((DEPLOY / "k8s" / "kustomization.yaml").read_text())["resources"]
    assert sorted(listed) == sorted(f.name for f in K8S if f.name != "secret.example.yaml")


def dockerfile_cmd() -> list[str]:
    m = re.search(r"^CMD (\[.*\])\s*$", (ROOT / "Dockerfile").read_text(), re.M)
    assert m, "the Dockerfile has an exec-form CMD"
    cmd: list[str] = json.loads(m.group(1))
    return cmd


def local(cmd: list[str]) -> list[str]:
    """The image's command with its programs taken from this virtual environment."""
    exe = {"paiju": str(BIN / "paiju"), "python": sys.executable}
    return [exe.get(cmd[0], cmd[0]), *cmd[1:]]


def run_image_command(cmd: list[str], env: dict[str, str]) -> Child:
    return Child(local(cmd), env=env)


@pytest.mark.parametrize("role", ["dockerfile", "server", "bots-1"])
def test_image_commands_run_outside_docker(role: str, redis_server: RedisServer, tmp_path: Path) -> None:
    services = compose()["services"]
    # the compose file's PostgreSQL is not here: a SQLite file stands in for it
    env = {"PAIJU_REDIS": redis_server.url, **COMPOSE_ENV, "PAIJU_DATABASE": f"sqlite:///{tmp_path / 'paiju.sqlite3'}"}
    if role == "dockerfile":
        cmd = dockerfile_cmd()
    else:
        cmd = services[role]["command"]
        env |= {
            k: v
            for k, v in services[role].get("environment", {}).items()
            if k not in ("PAIJU_REDIS", "PAIJU_SECRET", "PAIJU_DATABASE")
        }
    health = services["server" if role != "bots-1" else "bots-1"]["healthcheck"]["test"]
    assert health[0] == "CMD"
    if role == "bots-1":
        Path("/tmp/paiju-bots.alive").unlink(missing_ok=True)
        p = run_image_command(cmd, env)
        try:
            p.wait_for(r"serving tricks mahjong niujiu bridge as ")
            check = subprocess.run(local(health[1:]), timeout=30)
            assert check.returncode == 0, "the compose health check passes on a running worker"
        finally:
            out = p.stop()
        assert p.proc.returncode == 0 and "stopped: answered" in out, out
        return
    env["PAIJU_PORT"] = "0"  # the image listens on 8765; here any free port
    p = run_image_command(cmd, env)
    try:
        m = p.wait_for(r"paiju serving on http://0\.0\.0\.0:(\d+)/ .* with Redis")
        port = m.group(1)
        body = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5).read())
        assert body["ok"] and body["redis"] == "up"
        check = subprocess.run(local([x.replace(":8765/", f":{port}/") for x in health[1:]]), timeout=30)
        assert check.returncode == 0, "the compose health check passes on a running server"
    finally:
        out = p.stop()
    assert p.proc.returncode == 0 and "Traceback" not in out, out
