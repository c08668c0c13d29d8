"""How a run is shown: the text report, the thresholds that fail it, and the plot over time."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any


def _ms(d: dict[str, Any]) -> str:
    if not d.get("n"):
        return "no samples"
    return "  ".join(f"{k} {d[k]:8.2f}" for k in ("p50", "p90", "p99", "max")) + f"  ({d['n']:,} samples)"


def jsonable(x: Any) -> Any:
    """``x`` with every NaN (a percentile of no samples) as None, so that the JSON is strict.

    >>> jsonable({"p99": float("nan"), "n": [1, 2.5]})
    {'p99': None, 'n': [1, 2.5]}
    """
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, dict):
        return {k: jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    return x


def text(r: dict[str, Any]) -> str:
    """The human report of a run (``r``: the JSON object)."""
    lines = []
    if r["mode"] == "echo":
        lines.append(f"echo load on {r['url']}: {r['connections_peak']} connections, {r['duration_s']:.1f} s")
        lines.append(f"  round trips/s     {r['round_trips_per_s']:12,.1f}")
        lines.append(f"  round trip ms     {_ms(r['latency_ms']['ack'])}")
    else:
        lines.append(
            f"{r['game']} load on {r['url']}: {r['rooms']} rooms x {r['players_per_room']} players "
            f"+ {r['robots_per_room']} robots, {r['idle']} idle connections, {r['duration_s']:.1f} s measured"
        )
        lines.append(f"  actions/s         {r['actions_per_s']:12,.1f}   ({r['actions']:,} acknowledged)")
        lines.append(f"  hands/s           {r['hands_per_s']:12,.2f}   ({r['matches']:,} matches)")
        io = f"in {r['frames_in_per_s']:,.1f}, out {r['frames_out_per_s']:,.1f}"
        lines.append(f"  frames/s          {r['frames_per_s']:12,.1f}   ({io})")
        cpu = f"{r['generator_cpu_percent']:12,.1f} %   ({r['generator_cpu_us_per_frame']:,.1f} us a frame)"
        lines.append(f"  generator CPU     {cpu}")
        per = r["messages_in_per_s"] / r["actions_per_s"] if r["actions_per_s"] else 0.0
        how = "batches asked for" if r["batch"] else "one frame a message"
        lines.append(f"  messages in/s     {r['messages_in_per_s']:12,.1f}   ({per:.2f} an action; {how})")
        lines.append("  latency ms:")
        lines.append(f"    action -> ACK          {_ms(r['latency_ms']['ack'])}")
        lines.append(f"    action -> next prompt  {_ms(r['latency_ms']['next_prompt'])}")
        lines.append(f"    ping RTT               {_ms(r['latency_ms']['ping'])}")
    errs = ", ".join(f"{k} {v}" for k, v in r["errors"].items()) or "none"
    lines.append(f"  errors            {r['error_count']:12,}   ({errs})")
    if r["mode"] != "echo":
        lines.append(f"  stale actions     {r['stale_actions']:12,}   (answers that crossed a withdrawal or the clock)")
        lines.append(f"  clock timeouts    {r['timeouts']:12,}")
    lines.append(
        f"  connections       {r['connections_peak']:12,} peak; {r['disconnects']} disconnects, "
        f"{r['drops']} drops made, {r['resumes']} resumes, {r['connect_failures']} failed connects"
    )
    s = r.get("server")
    if s is None:
        lines.append("  server metrics    unavailable (no /metrics at the server's address)")
    else:
        lines.append("  server (/metrics):")
        lines.append(
            f"    actions applied/s  {s['actions_per_s']:10,.1f}   frames in/s {s['frames_in_per_s']:,.1f}, "
            f"out/s {s['frames_out_per_s']:,.1f}, {s['bytes_out_per_s'] / 1024:,.1f} KiB/s out"
            f" in {s.get('socket_writes_per_s', 0.0):,.1f} socket writes/s"
        )
        b, rb = s["action_broadcast_ms"], s["robot_decision_ms"]
        lines.append(f"    action -> broadcast ms  p50 {b['p50']:.3f}  p99 {b['p99']:.3f}")
        lines.append(
            f"    robot decisions     {s['bus_requests_per_s']:,.1f}/s, ms p50 {rb['p50']:.3f}  p99 {rb['p99']:.3f}; "
            f"clock defaults {s['clock_defaults'] or 'none'}"
        )
        lines.append(
            f"    errors {s['errors'] or 'none'}; resumes {s['resumes']:.0f}; connections {s['connections']:.0f}; "
            f"rooms {s['rooms'] or 'none'}"
        )
        lines.append(f"    process: RSS {s['rss_mib']:,.1f} MiB, CPU {s['cpu_percent']:.1f} %")
    return "\n".join(lines)


def failures(
    r: dict[str, Any], max_errors: int | None, max_p99_ms: float | None, max_disconnects: int | None
) -> list[str]:
    """The thresholds the run passed (empty: it is within them)."""
    out = []
    if max_errors is not None and r["error_count"] > max_errors:
        out.append(f"errors {r['error_count']} > --max-errors {max_errors}")
    if max_disconnects is not None and r["disconnects"] > max_disconnects:
        out.append(f"disconnects {r['disconnects']} > --max-disconnects {max_disconnects}")
    if max_p99_ms is not None:
        key = "ack" if r["mode"] == "echo" else "next_prompt"
        p99 = r["latency_ms"][key]["p99"]
        if not math.isnan(p99) and p99 > max_p99_ms:
            out.append(f"p99 {key.replace('_', ' ')} {p99:.2f} ms > --max-p99-ms {max_p99_ms:g}")
    return out


def plot(r: dict[str, Any], path: Path) -> None:
    """A PNG of the run over time: actions/s, next-prompt latency, connections and errors."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = r["series"]
    t = [x["t"] for x in series]
    fig, (ax1, ax2, ax3) = plt.subplots(3, 1, figsize=(9, 8), sharex=True)
    what = "round trips/s" if r["mode"] == "echo" else "actions/s"
    ax1.plot(t, [x["actions"] for x in series], label=what)
    ax1.plot(t, [x["frames"] for x in series], label="frames/s", alpha=0.6)
    ax1.set_ylabel("per second")
    ax1.legend(loc="upper left")
    ax2.plot(t, [x["next_p50"] for x in series], label="next prompt p50")
    ax2.plot(t, [x["next_p99"] for x in series], label="next prompt p99")
    ax2.plot(t, [x["ack_p99"] for x in series], label="ACK p99" if r["mode"] != "echo" else "round trip p99")
    ax2.set_ylabel("ms")
    ax2.legend(loc="upper left")
    ax3.plot(t, [x["connections"] for x in series], label="connections")
    ax3.set_ylabel("connections")
    ax3b = ax3.twinx()
    ax3b.bar(t, [x["errors"] for x in series], color="tab:red", alpha=0.5, label="errors/s")
    ax3b.set_ylabel("errors/s")
    ax3.set_xlabel("seconds (0 = end of the ramp)")
    title = r["game"] or "echo"
    fig.suptitle(f"paiju loadtest: {title}, {r['rooms']} rooms, {r['url']}")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
