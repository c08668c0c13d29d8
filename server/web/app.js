// The paiju web client: one WebSocket to /ws speaking protocol/SPEC.md, a lobby and a table.
//
// Stable hooks for tests and scripts: body[data-screen] is "lobby" or "table";
// #prompt[data-state] is "none", "open" or "sent" with data-prompt-id and data-prompt-n (the
// number of PROMPT frames so far: a prompt sent again after a resume counts anew); each choice is a
// button.choice with data-option-index, data-code and data-cards (hex); an option with
// pick < its number of cards is a .option[data-multi] whose button.pick cards are toggled
// and sent with its button.confirm; #result[data-hand][data-final] appears at a hand's end.

import { C, ERRORS, decodeMessage, frames } from "./proto.js";
import { ACTION_CODES, ECHO, GAMES, ROOM, SEAT_KINDS, byName, gameInfo } from "./codes.js";
import { callEl, cardEl, cardsEl, handOrder, hex } from "./cards.js";
import { h, handAct, makeModel, optionFace, positions } from "./games.js";
import * as records from "./records.js";
import { replaySource, startReplay } from "./replay.js";
import { bridgeBoard, resultSummary } from "./results.js";
import { BRIDGE_SEATS, eventText, seatBase } from "./words.js";

// codes by name (codes.js and proto.js, checked against protocol/ by tests/browser/test_web_tables.py)
const ERROR = byName(ERRORS);
const BRIDGE_BID = byName(GAMES.bridge.act).BID;

const $ = (sel) => document.querySelector(sel);
const params = new URLSearchParams(location.search);
const WS_URL = params.get("ws") || `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
const LOG_MAX = 400;

const state = {
  ws: null,
  url: WS_URL, // the node this page talks to (a REDIRECT names another: the one holding the room)
  request: null, // the last JOIN, CREATE_ROOM or QUICK_PLAY sent, to send again after a REDIRECT
  resend: null,
  connected: false,
  playerId: null,
  token: sessionStorage.getItem("paiju.token"),
  lastSeq: null,
  name: localStorage.getItem("paiju.name") || `guest-${Math.floor(Math.random() * 9000 + 1000)}`,
  room: null, // {room, game, ruleset, seat, seats, scores, hand}
  model: null,
  prompt: null, // {prompt_id, seat, mask, options, deadline}
  promptState: "none",
  picks: new Set(),
  rooms: [],
  robots: {}, // game -> [[name, description], ...], the strongest first (from /healthz)
  boards: [], // the bridge match so far: {board, contract, ns, par}
  seatKinds: {},
  retry: 0,
  sessions: 0, // WELCOMEs received on this page (more than one: it reconnected)
  gaps: 0, // events missed (a sequence number skipped), which a correct resume never causes
  dups: 0, // events received twice (dropped), which a correct resume never causes either
  pingNonce: 1,
  pingSent: 0,
  replay: null, // {frames, at} while the page shows a replay (replay.js: ?replay=ROOM/HAND or ?match=ID/HAND)
  quiet: false, // replaying many frames at once: draw the table once, at the end
};

// ------------------------------------------------------------------ connection
function connect(resume = false) {
  setStatus("connecting");
  const ws = new WebSocket(state.url);
  ws.binaryType = "arraybuffer";
  state.ws = ws;
  ws.onopen = () => {
    state.connected = true;
    state.retry = 0;
    // a page that already shows a table resumes from the last event it saw; a fresh page
    // asks for the whole state (last_seq nil) of whatever room the token holds a seat in
    const last = resume && state.room ? state.lastSeq : null;
    send(frames.hello(state.name, state.token, last, records.session()));
  };
  ws.onmessage = (msg) => {
    if (typeof msg.data === "string") return;
    let fs;
    try {
      fs = decodeMessage(msg.data); // one frame, or a batch (HELLO asks for them)
    } catch (e) {
      logLine(`undecodable frame: ${e.message}`, "error");
      return;
    }
    for (const f of fs) handle(f);
  };
  ws.onclose = (e) => {
    state.connected = false;
    setStatus(`disconnected${e.reason ? ": " + e.reason : ""}`);
    if (state.ws !== ws) return;
    // back through the service's address: it sends a resume on to the node holding the room now
    state.url = WS_URL;
    // at once the first time (a seat left away is played by a robot meanwhile), then backing off
    const delay = state.retry === 0 ? 50 : Math.min(10000, 250 * 2 ** state.retry);
    state.retry += 1;
    setTimeout(() => connect(true), delay);
  };
}

const REDIRECTED = new Set([C.CREATE_ROOM, C.JOIN, C.QUICK_PLAY]);

function send(bytes) {
  // bytes[1] is the frame's type (a fixarray's first element): the lobby's requests are kept
  if ((bytes[0] & 0xf0) === 0x90 && REDIRECTED.has(bytes[1])) state.request = bytes;
  if (state.ws && state.ws.readyState === WebSocket.OPEN) state.ws.send(bytes);
}

// The room is another node's: go there (HELLO with the token, as a resume) and ask again.
function follow(f) {
  logLine(f.room ? `room ${f.room} is on another node: following` : "following to another node");
  state.resend = f.ref_type === C.HELLO ? null : state.request;
  const old = state.ws;
  state.url = f.url;
  connect(true);
  if (old) old.close();
}

function setStatus(text) {
  $("#status").textContent = text;
  $("#status").dataset.connected = state.connected ? "1" : "0";
}

// ------------------------------------------------------------------ frames from the server
const trace = []; // the last frames in and out, for debugging (window.paiju.trace)
function traced(dir, f) {
  trace.push([Math.round(performance.now()), dir, f.name, f.seq ?? f.prompt_id ?? f.code ?? "", f.seat ?? ""]);
  if (trace.length > 3000) trace.splice(0, 1000);
}

function handle(f) {
  traced("in", f);
  if (f.room !== undefined) state.heard = true;
  switch (f.name) {
    case "WELCOME":
      state.sessions += 1;
      document.body.dataset.sessions = String(state.sessions);
      if (state.sessions > 1) logLine(state.room ? `reconnected: resuming after event ${state.lastSeq}` : "reconnected");
      if (state.sessions > 1 && state.room && state.room.seat !== null) watchResume(state.room.room);
      state.playerId = f.player_id;
      state.token = f.token;
      sessionStorage.setItem("paiju.token", f.token);
      setStatus(`connected as ${state.name}`);
      $("#player-id").textContent = f.player_id;
      document.body.dataset.connected = "1";
      records.onWelcome();
      send(frames.listRooms());
      if (state.resend) send(state.resend);
      state.resend = null;
      break;
    case "REDIRECT":
      follow(f);
      break;
    case "ROOM_LIST":
      state.rooms = f.rooms;
      renderRooms();
      break;
    case "ROOM_STATE":
      enterRoom(f);
      break;
    case "EVENT":
      onEvent(f);
      break;
    case "PROMPT":
      onPrompt(f);
      break;
    case "RESULT":
      onResult(f);
      break;
    case "ACK":
      if (state.prompt && state.prompt.prompt_id === f.prompt_id) clearPrompt();
      break;
    case "ERROR":
      onError(f);
      break;
    case "IDENTITY":
      records.onIdentity(f);
      break;
    case "PONG":
      $("#rtt").textContent = `${Math.round(performance.now() - state.pingSent)} ms`;
      break;
  }
}

// A seat that resumes hears from its room at once (at least its own return, a SEAT event).
// Silence means the room is gone: the seat was given up (its grace period ran out) while away.
// A match that ended meanwhile still answers: the missed events, the final RESULT, MATCH_END.
function watchResume(room) {
  state.heard = false;
  setTimeout(() => {
    if (state.heard || !state.room || state.room.room !== room) return;
    logLine("the room did not answer the resume: it has closed while this page was away", "error");
    $("#result").replaceChildren(
      h("h3", {}, "The room has closed"),
      h("p", {}, "The match ended or the seat was given up while the connection was down."),
      h("button", { id: "back-to-lobby", onclick: leaveRoom }, "Back to the lobby"),
    );
    $("#result").dataset.closed = "1";
    $("#result").hidden = false;
  }, 3000);
}

function onError(f) {
  const name = ERRORS[f.code] || (state.room && gameInfo(state.room.game).errors[f.code]) || "";
  showError(`${f.code} ${name}: ${f.message}`);
  if (records.onError(f)) return;
  if (f.code === ERROR.BAD_TOKEN) {
    // an expired or foreign resume token: start a new session instead
    state.token = null;
    sessionStorage.removeItem("paiju.token");
    send(frames.hello(state.name, null, null, records.session()));
    return;
  }
  if (f.ref_type === C.ACTION && state.prompt && f.ref_id === state.prompt.prompt_id) {
    // a prompt that is gone (answered by the clock, closed window) is dropped; otherwise
    // the prompt stays open and the player may choose again
    if ([205, 300, 301, 304].includes(f.code) || (gameInfo(state.room.game).gone || []).includes(f.code)) clearPrompt();
    else setPromptState("open");
  }
}

function showError(text) {
  const box = $("#errors");
  const el = h("div", { class: "error" }, text);
  box.prepend(el);
  while (box.children.length > 4) box.lastChild.remove();
  setTimeout(() => el.remove(), 8000);
}

// ------------------------------------------------------------------ the table
function enterRoom(f) {
  state.room = { room: f.room, game: f.game, ruleset: f.ruleset, seat: f.seat, seats: f.seats, scores: f.scores, hand: f.hand };
  state.lastSeq = f.seq;
  state.model = makeModel(f.game, f.seat, f.seats.length, f.view);
  state.model.hand = f.hand;
  state.seatKinds = {};
  state.boards = [];
  clearPrompt();
  $("#result").hidden = true;
  $("#result").removeAttribute("data-hand");
  $("#log").replaceChildren();
  showScreen("table");
  if (!state.replay && location.pathname !== "/") history.replaceState({}, "", "/"); // a table has no address of its own
  if (state.replay) logLine(`Replay of room ${f.room} (${gameInfo(f.game).title}, ${f.ruleset}), hand ${f.hand + 1}.`);
  else logLine(`${f.seat === null ? "Watching" : "Seated as " + seatLabel(f.seat, true)} in room ${f.room} (${gameInfo(f.game).title}, ${f.ruleset}).`);
  renderTable();
}

function onEvent(f) {
  if (!state.room || f.room !== state.room.room) return;
  if (state.lastSeq !== null && f.seq <= state.lastSeq) {
    state.dups += 1; // already seen
    document.body.dataset.dups = String(state.dups);
    return;
  }
  if (state.lastSeq !== null && f.seq !== state.lastSeq + 1) {
    state.gaps += f.seq - state.lastSeq - 1;
    document.body.dataset.gaps = String(state.gaps);
  }
  state.lastSeq = f.seq;
  const m = state.model;
  if (f.code === ROOM.HAND_START) {
    // a new hand: the result of the last one goes away
    $("#result").hidden = true;
    state.room.hand = f.arg;
  } else if (f.code === ROOM.SEAT && f.seat !== null) {
    state.seatKinds[f.seat] = SEAT_KINDS[f.arg];
  } else if (f.code === ROOM.ROBOT && f.seat !== null) {
    state.seatKinds[f.seat] = f.arg ? "BOT" : "HUMAN";
  }
  m.onEvent(f);
  // the prompt's seat has acted (or its clock ran out): that prompt is over
  if (state.prompt && f.seat === state.prompt.seat && (f.code === ROOM.TIMEOUT || (f.code >= ECHO && f.code < ECHO + ACTION_CODES))) clearPrompt();
  if (f.code === ROOM.HAND_END || f.code === ROOM.MATCH_END) clearPrompt();
  if (f.code === ROOM.MATCH_END) state.room.over = true;
  logEvent(f);
  renderTable();
}

function onPrompt(f) {
  if (!state.room || f.room !== state.room.room) return;
  if (!f.mask || !f.options.length) {
    // a withdrawn prompt (SPEC.md: a PROMPT of mask 0 and no options): the seat no longer decides
    if (state.prompt && state.prompt.prompt_id === f.prompt_id) clearPrompt();
    return;
  }
  // ms_left is all the time left; its last bank_ms are the seat's time bank for the hand
  const now = performance.now();
  const bank = Math.min(f.bank_ms || 0, f.ms_left);
  state.prompt = { ...f, deadline: now + f.ms_left, moveEnd: now + f.ms_left - bank, move: f.ms_left - bank, bank };
  // counts PROMPT frames: after a resume the same prompt may come again (its answer was lost)
  state.prompts = (state.prompts || 0) + 1;
  $("#prompt").dataset.promptN = String(state.prompts);
  state.picks = new Set();
  setPromptState("open");
  renderPrompt();
  renderTable();
  tickClock();
}

function onResult(f) {
  if (!state.room || f.room !== state.room.room) return;
  clearPrompt();
  state.room.scores = f.totals;
  if (f.final) state.room.over = true; // the room lets its players go: no LEAVE is owed
  const g = state.room.game;
  const n = f.scores.length;
  if (g === "bridge") state.boards.push(bridgeBoard(f, (s) => seatBase(g, s)));
  const rows = [];
  for (let s = 0; s < n; s++) {
    rows.push(
      h(
        "tr",
        { "data-seat": s },
        h("td", {}, seatLabel(s, true)),
        h("td", { class: "num" }, signed(f.scores[s])),
        h("td", { class: "num" }, signed(f.totals[s])),
        h("td", {}, f.hands[s] && f.hands[s].length ? cardsEl(g, handOrder(g, f.hands[s]), { small: true }) : ""),
      ),
    );
  }
  // a bridge board comes as PBN text too: saved as a file, not shown
  const pbn = (f.detail || {}).pbn;
  const download =
    typeof pbn === "string"
      ? h(
          "a",
          {
            id: "download-pbn",
            href: URL.createObjectURL(new Blob([pbn], { type: "text/plain" })),
            download: `paiju-${f.room}-board-${(f.detail || {}).board ?? f.hand + 1}.pbn`,
          },
          "Download the board (PBN)",
        )
      : null;
  // every finished hand can be replayed, step by step, from the room's log
  const replayLink = state.replay ? null : h("a", { id: "replay-link", href: `./?replay=${encodeURIComponent(f.room)}/${f.hand}`, target: "_blank" }, `Replay hand ${f.hand + 1}`);
  const box = $("#result");
  const old = box.querySelector("#download-pbn");
  if (old) URL.revokeObjectURL(old.href);
  const summary = h("div", { class: "summary", "data-game": g }, ...resultSummary(g, f, { seatLabel: (s) => seatLabel(s, true), dealer: state.model.dealer, boards: state.boards }));
  // (replaceChildren writes a null as the text "null": the missing link is left out)
  const parts = [
    h("h3", {}, f.final ? `Match over after hand ${f.hand + 1}` : `Hand ${f.hand + 1} over`),
    summary,
    h("table", { class: "scores" }, h("tr", {}, h("th", {}, "seat"), h("th", {}, "this hand"), h("th", {}, "match"), h("th", {}, "cards")), ...rows),
    download,
    replayLink,
    f.final ? h("button", { id: "back-to-lobby", onclick: leaveRoom }, "Back to the lobby") : h("p", {}, "The next hand starts in a moment."),
  ];
  box.replaceChildren(...parts.filter((x) => x !== null));
  box.dataset.hand = String(f.hand);
  box.dataset.final = f.final ? "1" : "0";
  box.hidden = false;
  const line = f.scores.map((x, s) => `${seatLabel(s, true)} ${signed(x)}`).join(", ");
  logLine(`Hand ${f.hand + 1} is over: ${line}${f.final ? ". The match is over." : "."}`, "result");
  renderTable();
}

const signed = (x) => (x > 0 ? `+${x}` : String(x));

function seatLabel(s, short = false) {
  if (s === null || s === undefined) return "—";
  const g = state.room ? state.room.game : "";
  const base = seatBase(g, s, state.model ? state.model.dealer : 0);
  if (short) return s === state.room?.seat ? `${base} (you)` : base;
  return `${base} ${playerName(s)}`;
}

function playerName(s) {
  const name = state.room && state.room.seats[s];
  const you = state.room && s === state.room.seat ? " (you)" : "";
  return `${name ?? (isBot(s) ? "robot" : "empty")}${you}`;
}

function isBot(s) {
  return state.seatKinds[s] === "BOT";
}

function renderTable() {
  if (!state.room || !state.model || state.quiet) return;
  const r = state.room;
  const info = gameInfo(r.game);
  $("#table-title").textContent = `${info.title} · room ${r.room} · ${r.ruleset} · hand ${r.hand + 1}`;
  $("#table-scores").replaceChildren(
    ...r.scores.map((x, s) => h("span", { class: "score", "data-seat": s }, `${seatLabel(s, true)}: ${signed(x)}`)),
  );
  const p = state.prompt && state.promptState === "open" ? state.prompt : null;
  const ctx = {
    me: r.seat,
    pos: positions(state.model.n, r.seat, r.game),
    seatLabel,
    playerName,
    isBot,
    isAway: (s) => state.seatKinds[s] === "AWAY",
    promptSeat: p ? p.seat : null,
    // a hand card that answers the open prompt by itself (an option of pick 1 holding it)
    direct: (seat, b) => {
      if (!p || p.seat !== seat) return null;
      const i = p.options.findIndex((o) => handAct(r.game, o.code) && o.pick === 1 && o.cards.length > 1 && o.cards.includes(b));
      if (i < 0) return null;
      const code = p.options[i].code;
      return () => act(code, new Uint8Array([b]));
    },
  };
  $("#board").replaceChildren(state.model.render(ctx));
  if (p) keepHandInView();
}

// ------------------------------------------------------------------ prompts and actions
function setPromptState(s) {
  state.promptState = s;
  const box = $("#prompt");
  box.dataset.state = s;
  for (const b of box.querySelectorAll("button")) b.disabled = s !== "open" || b.classList.contains("confirm");
  if (s === "open") updateConfirm();
}

function clearPrompt() {
  state.prompt = null;
  state.picks = new Set();
  const box = $("#prompt");
  box.dataset.state = "none";
  box.removeAttribute("data-prompt-id");
  box.removeAttribute("data-seat");
  $("#prompt-options").replaceChildren();
  $("#prompt-who").textContent = state.room && state.room.seat === null ? "watching" : "waiting for the others…";
  renderTable();
}

function act(code, bytes) {
  const p = state.prompt;
  if (!p || state.promptState !== "open") return;
  send(frames.action(p.prompt_id, code, bytes));
  traced("out", { name: "ACTION", prompt_id: p.prompt_id, seat: code });
  setPromptState("sent"); // the room's echo of the action tells it in the log
}

function renderPrompt() {
  const p = state.prompt;
  const g = state.room.game;
  const info = gameInfo(g);
  const box = $("#prompt");
  box.dataset.promptId = String(p.prompt_id);
  box.dataset.seat = String(p.seat);
  const forDummy = p.seat !== state.room.seat;
  const who = forDummy ? `Your decision for ${seatLabel(p.seat, true)} (dummy)` : "Your decision";
  // after a takeover the robot answers when the move's time runs out: answering first takes the seat back
  $("#prompt-who").textContent = isBot(state.room.seat) ? `${who}: a robot plays your seat now; answer to take it back` : who;
  const list = [];
  let choiceIndex = 0;
  p.options.forEach((o, i) => {
    const name = info.act[o.code] ?? `action ${o.code}`;
    const opt = h("div", { class: "option", "data-option-index": i, "data-code": o.code, "data-pick": o.pick });
    if (o.pick === o.cards.length) {
      opt.appendChild(
        h(
          "button",
          { class: "choice", "data-option-index": i, "data-choice-index": choiceIndex++, "data-code": o.code, "data-cards": hex(o.cards), onclick: () => act(o.code, o.cards) },
          h("span", { class: "act-name" }, name),
          o.cards.length ? optionFace(g, o.code, o.cards) : null,
        ),
      );
    } else if (o.pick === 1 && g === "bridge" && o.code === BRIDGE_BID) {
      // the bidding box: a row a level, a column a strain (♣ ♦ ♥ ♠ NT); levels with no legal bid left out
      opt.classList.add("bidding-box");
      const legal = new Set(o.cards);
      for (let level = 1; level <= 7; level++) {
        if (![0, 1, 2, 3, 4].some((st) => legal.has((level << 4) | st))) continue;
        for (let st = 0; st < 5; st++) {
          const b = (level << 4) | st;
          if (!legal.has(b)) {
            opt.appendChild(h("span", { class: "bid-off" }, callEl(b)));
            continue;
          }
          const one = new Uint8Array([b]);
          opt.appendChild(
            h(
              "button",
              { class: "choice", "data-option-index": i, "data-choice-index": choiceIndex++, "data-code": o.code, "data-cards": hex(one), onclick: () => act(o.code, one) },
              callEl(b),
            ),
          );
        }
      }
    } else if (o.pick === 1) {
      opt.appendChild(h("span", { class: "act-name" }, `${name}:`));
      for (const b of [...new Set(o.cards)]) {
        const one = new Uint8Array([b]);
        opt.appendChild(
          h(
            "button",
            { class: "choice", "data-option-index": i, "data-choice-index": choiceIndex++, "data-code": o.code, "data-cards": hex(one), onclick: () => act(o.code, one) },
            optionFace(g, o.code, one),
          ),
        );
      }
    } else {
      // any `pick` of these cards (Niujiu's cover): toggle them, then confirm
      opt.dataset.multi = String(o.pick);
      opt.appendChild(h("span", { class: "act-name" }, `${name} ${o.pick} of:`));
      Array.from(o.cards).forEach((b, j) => {
        opt.appendChild(
          h(
            "button",
            { class: "pick", "data-option-index": i, "data-pick-index": j, "data-card": b.toString(16).padStart(2, "0"), onclick: (e) => togglePick(i, j, e.currentTarget) },
            cardEl(g, b, { small: true }),
          ),
        );
      });
      opt.appendChild(
        h(
          "button",
          { class: "confirm", "data-option-index": i, "data-code": o.code, onclick: () => confirmPick(i) },
          `${name} ${o.pick}`,
        ),
      );
    }
    list.push(opt);
  });
  $("#prompt-options").replaceChildren(...list);
  $("#prompt").dataset.game = g;
  setPromptState("open");
  keepHandInView();
}

// On a phone the open prompt is pinned to the bottom of the screen: the page scrolls so that the
// player's own hand sits just above it, never under it.
const PHONE = window.matchMedia("(max-width: 760px)");
function keepHandInView() {
  if (!PHONE.matches) return;
  const box = $("#prompt");
  document.documentElement.style.setProperty("--prompt-h", `${box.offsetHeight}px`);
  const mine = document.querySelector(".board .seat.me");
  if (!mine) return;
  const r = mine.getBoundingClientRect();
  if (r.top < 0 || r.bottom > window.innerHeight - box.offsetHeight) mine.scrollIntoView({ block: "end" });
}

function togglePick(i, j, el) {
  if (state.promptState !== "open") return;
  const key = `${i}:${j}`;
  for (const k of [...state.picks]) if (!k.startsWith(`${i}:`)) state.picks.delete(k); // one option at a time
  if (state.picks.has(key)) state.picks.delete(key);
  else state.picks.add(key);
  for (const b of document.querySelectorAll("#prompt button.pick")) {
    b.classList.toggle("selected", state.picks.has(`${b.dataset.optionIndex}:${b.dataset.pickIndex}`));
  }
  updateConfirm();
  void el;
}

function updateConfirm() {
  if (!state.prompt) return;
  for (const c of document.querySelectorAll("#prompt button.confirm")) {
    const i = Number(c.dataset.optionIndex);
    const n = [...state.picks].filter((k) => k.startsWith(`${i}:`)).length;
    c.disabled = state.promptState !== "open" || n !== state.prompt.options[i].pick;
  }
}

function confirmPick(i) {
  const o = state.prompt.options[i];
  const idx = [...state.picks].filter((k) => k.startsWith(`${i}:`)).map((k) => Number(k.split(":")[1]));
  if (idx.length !== o.pick) return;
  act(o.code, new Uint8Array(idx.map((j) => o.cards[j])));
}

function tickClock() {
  const clock = $("#clock");
  const p = state.prompt;
  if (!p) {
    clock.hidden = true;
    return;
  }
  const now = performance.now();
  const left = Math.max(0, p.deadline - now);
  const move = Math.max(0, p.moveEnd - now);
  clock.hidden = false;
  clock.dataset.msLeft = String(Math.round(left));
  clock.dataset.bankMs = String(Math.round(Math.min(left, p.bank)));
  // the move's own time first, then the time bank (as on Tenhou and Mahjong Soul)
  const onBank = move <= 0 && left > 0;
  clock.classList.toggle("bank", onBank);
  let text;
  if (left <= 0) text = "time! the default move is played";
  else if (onBank) text = `time bank: ${(left / 1000).toFixed(1)} s`;
  else text = `${(move / 1000).toFixed(1)} s${p.bank > 0 ? ` + bank ${(p.bank / 1000).toFixed(0)} s` : ""}`;
  $("#clock-text").textContent = text;
  const frac = onBank ? left / Math.max(1, p.bank) : move / Math.max(1, p.move);
  $("#clock-bar").style.width = `${Math.min(100, 100 * frac)}%`;
  clock.classList.toggle("urgent", left < 1500);
}

// ------------------------------------------------------------------ the event log
function logEvent(f) {
  const text = eventText(state.room.game, f, (s) => seatLabel(s, true), state.room.seat);
  if (text) logLine(text, "event", f.seq);
}

function logLine(text, kind = "info", seq = null) {
  const log = $("#log");
  log.prepend(h("li", { class: kind, "data-seq": seq }, text));
  while (log.children.length > LOG_MAX) log.lastChild.remove();
}

// ------------------------------------------------------------------ the lobby
function showScreen(name) {
  document.body.dataset.screen = name;
  $("#lobby").hidden = name !== "lobby";
  $("#table").hidden = name !== "table";
  $("#records").hidden = name !== "records";
}

// a new session (a new name, or an account's session ended): the old connection goes
function reconnect() {
  state.token = null;
  sessionStorage.removeItem("paiju.token");
  const old = state.ws;
  state.ws = null;
  if (old) old.close();
  connect(false);
}

function rename(name) {
  state.name = name;
  $("#player-name").value = name;
  if (state.connected) setStatus(`connected as ${name}`);
}

function leaveRoom() {
  if (state.replay) {
    location.href = "./";
    return;
  }
  // a finished match has let its players go already (a LEAVE would be refused: not in the room)
  if (state.room && !state.room.over) send(frames.leave(state.room.room));
  state.room = null;
  state.model = null;
  state.lastSeq = null;
  clearPrompt();
  $("#result").hidden = true;
  showScreen("lobby");
  send(frames.listRooms());
}

function fillCreateForm() {
  const game = $("#create-game").value;
  const info = gameInfo(game);
  $("#create-ruleset").replaceChildren(h("option", { value: "" }, "default"), ...info.rulesets.map((r) => h("option", { value: r }, r)));
  // who sits where: a player, or a robot from the menu (the strongest first, the room's default)
  const robots = state.robots[game] || [];
  const bots = $("#create-bots");
  bots.replaceChildren();
  for (let s = 0; s < info.seats; s++) {
    const menu = h(
      "select",
      { "data-seat": s, class: "seat-player" },
      h("option", { value: HUMAN }, s === 0 ? "you" : "a player"),
      ...(robots.length
        ? robots.map(([name, text], i) => h("option", { value: name, title: text, selected: s !== 0 && i === 0 ? "selected" : null }, `robot ${name}${i === 0 ? " (strongest)" : ""} — ${text}`))
        : [h("option", { value: "", selected: s !== 0 ? "selected" : null }, "robot (the server's strongest)")]),
    );
    bots.appendChild(h("label", { class: "seat-choice" }, seatBase(game, s), menu));
  }
  describeRobots();
  // a PBN file of deals is for bridge rooms only
  $("#create-pbn-label").hidden = game !== "bridge";
}

const HUMAN = "@player"; // the seat menu's value for "a player", never a robot's name

function describeRobots() {
  // the one-line description of each robot chosen, under the menus
  const game = $("#create-game").value;
  const chosen = new Set([...document.querySelectorAll("#create-bots select")].map((e) => e.value).filter((v) => v && v !== HUMAN));
  const lines = (state.robots[game] || []).filter(([name]) => chosen.has(name)).map(([name, text]) => h("li", {}, h("b", {}, name), `: ${text}`));
  $("#create-robot-notes").replaceChildren(...lines);
}

function pbnChosen() {
  // by default the room plays each deal of the file once
  const input = $("#create-hands");
  if ($("#create-pbn").files.length) {
    input.value = "";
    input.placeholder = "one per deal";
  } else {
    input.placeholder = "";
    if (!input.value) input.value = "1";
  }
}

async function createRoom() {
  const game = $("#create-game").value;
  const file = game === "bridge" ? $("#create-pbn").files[0] : null;
  let pbn = null;
  if (file) {
    try {
      pbn = await file.text();
    } catch (e) {
      showError(`the PBN file could not be read: ${e.message}`);
      return;
    }
  }
  const menus = [...document.querySelectorAll("#create-bots select")];
  const bots = menus.filter((e) => e.value !== HUMAN).map((e) => Number(e.dataset.seat));
  const names = [...new Set(menus.filter((e) => e.value !== HUMAN).map((e) => e.value))];
  // one robot for every robot seat: CREATE_ROOM's robot; different ones: its robots, per seat
  const robot = names.length === 1 && names[0] ? names[0] : null;
  const robots = names.length > 1 ? menus.map((e) => (e.value === HUMAN ? null : e.value || null)) : null;
  const clock = parseFloat($("#create-clock").value);
  const seed = $("#create-seed").value.trim();
  send(
    frames.createRoom({
      game,
      ruleset: $("#create-ruleset").value || null,
      hands: Number($("#create-hands").value) || null,
      clockMs: Number.isFinite(clock) && clock > 0 ? Math.round(clock * 1000) : null,
      bots,
      robot,
      robots,
      priv: $("#create-private").checked,
      seed: /^\d+$/.test(seed) ? BigInt(seed) : null, // 64 bits: a Number would round it
      pbn,
    }),
  );
}

function renderRooms() {
  const tbody = $("#rooms tbody");
  const filter = $("#rooms-game").value;
  const rooms = state.rooms.filter((r) => !filter || r.game === filter);
  $("#rooms").dataset.count = String(rooms.length);
  if (!rooms.length) {
    tbody.replaceChildren(h("tr", {}, h("td", { colspan: 6, class: "empty" }, "No public rooms yet: create one, or quick play.")));
    return;
  }
  tbody.replaceChildren(
    ...rooms.map((r) => {
      const seats = r.seats.map((name, s) => {
        const label = r.game === "bridge" ? BRIDGE_SEATS[s][0] : s + 1;
        if (r.bots.includes(s)) return h("span", { class: "seat-chip bot" }, `${label}: robot`);
        if (name !== null) return h("span", { class: "seat-chip taken" }, `${label}: ${name}`);
        return h("button", { class: "seat-chip free", "data-room": r.room, "data-seat": s, onclick: () => send(frames.join(r.room, s)) }, `sit ${label}`);
      });
      return h(
        "tr",
        { "data-room": r.room },
        h("td", {}, r.room),
        h("td", {}, `${gameInfo(r.game).title} (${r.ruleset})`),
        h("td", {}, ...seats),
        h("td", {}, r.status),
        h("td", {}, `${r.hand}/${r.hands} played · ${r.spectators} watching`),
        h("td", {}, h("button", { class: "watch", "data-room": r.room, onclick: () => send(frames.join(r.room)) }, "watch")),
      );
    }),
  );
}

// ------------------------------------------------------------------ start
async function serverGames() {
  // the games this server runs and their robots (its /healthz lists them); every game this
  // page knows otherwise
  try {
    const r = await fetch("healthz", { cache: "no-store" });
    const body = await r.json();
    if (body.robots && typeof body.robots === "object") state.robots = body.robots;
    if (Array.isArray(body.games) && body.games.length) return body.games;
  } catch (e) {
    void e;
  }
  return Object.keys(GAMES);
}

async function init() {
  const games = await serverGames();
  for (const sel of ["#create-game", "#rooms-game"]) {
    for (const g of games) $(sel).appendChild(h("option", { value: g }, gameInfo(g).title));
  }
  fillCreateForm();
  $("#create-game").addEventListener("change", fillCreateForm);
  $("#create-bots").addEventListener("change", describeRobots);
  $("#create-pbn").addEventListener("change", pbnChosen);
  $("#create-room").addEventListener("click", createRoom);
  $("#quick-play").addEventListener("click", () => send(frames.quickPlay($("#create-game").value, $("#create-ruleset").value || null)));
  $("#refresh-rooms").addEventListener("click", () => send(frames.listRooms()));
  $("#rooms-game").addEventListener("change", renderRooms);
  $("#leave").addEventListener("click", leaveRoom);
  // a phone's header is one line: the name, account and records' buttons behind a menu button
  $("#menu").addEventListener("click", () => {
    const head = document.querySelector("header");
    head.dataset.open = head.dataset.open === "1" ? "0" : "1";
  });
  $("#player-name").value = state.name;
  $("#player-name").addEventListener("change", (e) => {
    state.name = e.target.value.trim().slice(0, 64) || state.name;
    localStorage.setItem("paiju.name", state.name);
    reconnect(); // a new name takes effect on a new session
  });
  const lobby = () => showScreen(state.room ? "table" : "lobby");
  records.initRecords({ send, rename, showScreen, showError, reconnect, lobby, myName: () => state.name });
  const replay = replaySource(params);
  if (replay) {
    startReplay(replay, { state, handle, renderTable, showScreen, setStatus, showError });
    return;
  }
  showScreen("lobby");
  clearPrompt();
  records.route(); // an address of the records' pages: /players/NAME, /matches/ID, /leaderboard/GAME
  setInterval(tickClock, 100);
  setInterval(() => {
    if (!state.connected) return;
    state.pingSent = performance.now();
    send(frames.ping(state.pingNonce++ & 0xffffffff));
    if (document.body.dataset.screen === "lobby") send(frames.listRooms());
  }, 5000);
  connect(false);
}

// for scripts and tests: drop the connection as a network failure would (the page resumes)
window.paiju = { drop: () => state.ws && state.ws.close(), state, handle, trace };

init();
