"""deploy/ runs several nodes: the compose file two, the Kubernetes StatefulSet N replicas,
each with its own stable server id, an advertised URL and the secret they all share
(tests/redis/test_deploy.py validates the files and runs their commands)."""

from __future__ import annotations

from pathlib import Path

import yaml  # type: ignore[import-untyped]

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def test_compose_runs_two_nodes() -> None:
    services = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]
    nodes = [s for s in services.values() if s.get("command", [])[:2] == ["paiju", "serve"]]
    assert len(nodes) == 2
    env = [n["environment"] for n in nodes]
    assert len({e["PAIJU_SERVER_ID"] for e in env}) == 2, "each node its own server id"
    assert len({e["PAIJU_ADVERTISE"] for e in env}) == 2
    assert len({e["PAIJU_SECRET"] for e in env}) == 1, "one secret: a token resumes on any node"
    assert all(e["PYTHONMALLOC"] == "malloc" for e in env), "the allocator the memory figures were taken with"
    published = [n["ports"][0].split(":")[0] for n in nodes]
    assert [e["PAIJU_ADVERTISE"] for e in env] == [f"ws://127.0.0.1:{p}/ws" for p in published]
    assert all(n["stop_grace_period"] == "30s" for n in nodes), "time to hand the rooms over"


def test_kubernetes_statefulset_of_nodes() -> None:
    docs = list(yaml.safe_load_all((DEPLOY / "k8s" / "server.yaml").read_text()))
    (sts,) = [d for d in docs if d["kind"] == "StatefulSet"]
    assert sts["spec"]["replicas"] >= 2
    headless = [d for d in docs if d["kind"] == "Service" and d["spec"].get("clusterIP") == "None"]
    assert [h["metadata"]["name"] for h in headless] == [sts["spec"]["serviceName"]]
    env = {e["name"]: e for e in sts["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert env["POD_NAME"]["valueFrom"]["fieldRef"]["fieldPath"] == "metadata.name"
    assert env["PAIJU_SERVER_ID"]["value"] == "$(POD_NAME)", "the pod's stable name is its server id"
    assert env["PYTHONMALLOC"]["value"] == "malloc"
    assert "$(POD_NAME).paiju-server." in env["PAIJU_ADVERTISE"]["value"]
    assert float(env["PAIJU_LEASE"]["value"]) * 1.25 <= 10, "rooms of a dead pod taken over within 10 s"
    assert "secretKeyRef" in env["PAIJU_SECRET"]["valueFrom"]
