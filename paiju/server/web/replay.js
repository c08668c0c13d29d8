// The web client's one replay viewer. A finished hand comes as the frames a spectator received
// (a msgpack array: ROOM_STATE before the hand, each EVENT, the RESULT; paiju/server/replays.py), from
// either source: a hand this server played (/?replay=ROOM/HAND, GET replay/ROOM/HAND.msgpack) or
// a hand of a match in the records (/?match=ID/HAND, GET api/matches/ID/HAND.msgpack). The live
// table's own code draws it: showing the position after k frames is handling those k frames.
//
// Stable hooks for tests: body[data-replay] is "loading", "stepping", "end" or "error";
// #replay-pos reads "event K of N"; the start, back, step and end buttons (and the arrow keys)
// step through the hand; #replay-play[data-playing] plays it on by itself, one event every
// #replay-speed milliseconds (space bar: play/pause).

import { ACTION_CODES, ECHO } from "./codes.js";
import { tr } from "./i18n.js";
import { decodeAll } from "./proto.js";

const $ = (sel) => document.querySelector(sel);

/** The replay a page's query asks for ({url, label}), or null. */
export function replaySource(params) {
  const spec = (name) => {
    const [a, b] = (params.get(name) || "").split("/");
    return /^\d+$/.test(b || "") && a ? [a, Number(b)] : null;
  };
  const room = spec("replay");
  if (room) return { url: `replay/${encodeURIComponent(room[0])}/${room[1]}.msgpack`, label: tr(`room ${room[0]}, hand ${room[1] + 1}`, `房间 ${room[0]} 第 ${room[1] + 1} 局`) };
  const match = spec("match");
  if (match) return { url: `api/matches/${encodeURIComponent(match[0])}/${match[1]}.msgpack`, label: tr(`match ${match[0]}, hand ${match[1] + 1}`, `对局 ${match[0]} 第 ${match[1] + 1} 局`) };
  return null;
}

/**
 * Load and show a replay. ``app``: {state, handle(frame), renderTable(), showScreen(name),
 * setStatus(text), showError(text)} of the page; ``app.state.replay`` is set while replaying.
 */
export async function startReplay(source, app) {
  const replay = { frames: [], at: 0, start: 1 };
  app.state.replay = replay;
  document.body.dataset.replay = "loading";
  app.showScreen("table");
  $("#leave").hidden = true;
  $("#chat").hidden = true; // a replay has no table to talk to
  $("#replay-bar").hidden = false;
  app.setStatus(tr(`replay of ${source.label}`, `${source.label}的回放`));
  try {
    const r = await fetch(source.url, { cache: "no-store" });
    if (!r.ok) throw new Error(r.status === 404 ? tr("this server has no such finished hand (it may have expired)", "服务器上没有这一局（可能已过期）") : tr(`the server answered ${r.status}`, `服务器返回 ${r.status}`));
    replay.frames = decodeAll(new Uint8Array(await r.arrayBuffer()));
    // the replay starts at the deal: every frame before the first seat's first action (the
    // events of a finished hand carry every seat's cards, so each hand shows face up from here)
    const first = replay.frames.findIndex((f) => f.name === "EVENT" && f.code >= ECHO && f.code < ECHO + ACTION_CODES);
    replay.start = first > 0 ? first : 1;
  } catch (e) {
    app.showError(tr(`replay: ${e.message}`, `回放：${e.message}`));
    document.body.dataset.replay = "error";
    return;
  }
  let timer = null;
  const play = $("#replay-play");
  const pause = () => {
    clearTimeout(timer);
    timer = null;
    play.dataset.playing = "0";
    play.title = tr("play the hand", "自动播放");
  };
  const tick = () => {
    seekTo(app, replay.at + 1);
    if (replay.at >= replay.frames.length) pause();
    else timer = setTimeout(tick, Number($("#replay-speed").value) || 800);
  };
  const toggle = () => {
    if (timer !== null) return pause();
    if (replay.at >= replay.frames.length) seekTo(app, replay.start); // at the end: from the deal again
    play.dataset.playing = "1";
    play.title = tr("pause", "暂停");
    timer = setTimeout(tick, Number($("#replay-speed").value) || 800);
  };
  const seek = (k) => {
    pause();
    seekTo(app, k);
  };
  for (const [id, step] of [["#replay-start", () => replay.start], ["#replay-back", (k) => k - 1], ["#replay-step", (k) => k + 1], ["#replay-end", () => Infinity]]) {
    $(id).addEventListener("click", () => seek(step(replay.at)));
  }
  play.addEventListener("click", toggle);
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") seek(replay.at + 1);
    if (e.key === "ArrowLeft") seek(replay.at - 1);
    if (e.key === " " && e.target === document.body) {
      e.preventDefault();
      toggle();
    }
  });
  seek(replay.start); // the table at the deal
}

/** Show the replay after its first ``k`` frames (the table, the log and, at the end, the result). */
function seekTo(app, k) {
  const { state } = app;
  const all = state.replay.frames;
  k = Math.max(state.replay.start, Math.min(all.length, k));
  state.room = null;
  state.lastSeq = null;
  state.quiet = true; // many frames at once: the table is drawn once, below
  try {
    for (let i = 0; i < k; i++) app.handle(all[i]);
  } finally {
    state.quiet = false;
  }
  state.replay.at = k;
  $("#replay-pos").textContent = tr(`event ${k - 1} of ${all.length - 1}`, `第 ${k - 1} 步，共 ${all.length - 1} 步`);
  $("#replay-back").disabled = $("#replay-start").disabled = k <= state.replay.start;
  $("#replay-step").disabled = $("#replay-end").disabled = k >= all.length;
  document.body.dataset.replay = k >= all.length ? "end" : "stepping";
  app.renderTable();
}
