// The paiju web client: one WebSocket to /ws speaking paiju/protocol/SPEC.md, a lobby and a table.
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
import { h, handAct, makeModel, optionFace, picksCards, positions } from "./games.js";
import { nextHint, pickState } from "./picks.js";
import { sorry } from "./sorry.js";
import * as records from "./records.js";
import { replaySource, startReplay } from "./replay.js";
import { bridgeBoard, resultSummary } from "./results.js";
import { BRIDGE_SEATS, GAME_ORDER, SYSTEM_CARD_URL, actName, eventText, gameLine, gameTitle, holderName, robotLabel, robotLine, robotOf, statusWord, rulesUrl, setRobotLabels, rulesetLine, rulesetName, seatBase } from "./words.js";
import { LANG, LANGS, ZH, count, setLang, tr, translatePage } from "./i18n.js";

// codes by name (codes.js and proto.js, checked against paiju/protocol/ by tests/browser/test_web_tables.py)
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
  name: localStorage.getItem("paiju.name") || `${tr("guest", "游客")}-${Math.floor(Math.random() * 9000 + 1000)}`,
  room: null, // {room, game, ruleset, seat, seats, scores, hand}
  model: null,
  prompt: null, // {prompt_id, seat, mask, options, deadline}
  promptState: "none",
  picks: new Set(),
  picking: false, // the open prompt is answered by picking cards in the hand (picks.js)
  sel: [], // the cards picked in the hand (bytes)
  hintAt: -1, // the last legal play the hint showed
  focusCard: null, // the hand's card that has the keyboard's focus (kept across redraws)
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
  chatIds: new Set(), // the chat lines shown (by id)
  muted: new Set(), // names whose chat lines this page hides (the room is told too)
  rematchOpen: false, // a rematch is offered to this page now
  invite: (/^\/r\/([^/]+)$/.exec(location.pathname) || [])[1] || null, // the room of an invite link
  online: null, // connections to this server (its /healthz), for the lobby
};

// ------------------------------------------------------------------ connection
function connect(resume = false) {
  setStatus(tr("connecting", "连接中"));
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
      logLine(`${tr("undecodable frame", "无法解码的消息")}: ${e.message}`, "error");
      return;
    }
    for (const f of fs) handle(f);
  };
  ws.onclose = (e) => {
    state.connected = false;
    setStatus(`${tr("disconnected", "已断开")}${e.reason ? ": " + e.reason : ""}`);
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
  if ((bytes[0] & 0xf0) === 0x90 && bytes[1] === C.CREATE_ROOM) state.creating = true; // the next room is this page's
  // bytes[1] is the frame's type (a fixarray's first element): the lobby's requests are kept
  if ((bytes[0] & 0xf0) === 0x90 && REDIRECTED.has(bytes[1])) state.request = bytes;
  if (state.ws && state.ws.readyState === WebSocket.OPEN) state.ws.send(bytes);
}

// The room is another node's: go there (HELLO with the token, as a resume) and ask again.
function follow(f) {
  logLine(f.room ? tr(`room ${f.room} is on another node: following`, `房间 ${f.room} 在另一台服务器上：正在转接`) : tr("following to another node", "正在转接到另一台服务器"));
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
      if (state.sessions > 1) logLine(state.room ? tr(`reconnected: resuming after event ${state.lastSeq}`, `已重新连接：从第 ${state.lastSeq} 个事件之后继续`) : tr("reconnected", "已重新连接"));
      if (state.sessions > 1 && state.room && state.room.seat !== null) watchResume(state.room.room);
      state.playerId = f.player_id;
      state.token = f.token;
      sessionStorage.setItem("paiju.token", f.token);
      setStatus(tr(`connected as ${state.name}`, `已连接：${state.name}`));
      $("#player-id").textContent = f.player_id;
      document.body.dataset.connected = "1";
      records.onWelcome();
      send(frames.listRooms());
      if (state.resend) send(state.resend);
      state.resend = null;
      if (state.invite && !state.room) {
        // an invite link (/r/ROOM): the first free seat of the room, else a spectator's place
        send(frames.join(state.invite, null, true));
        state.joiningInvite = true;
        state.invite = null;
      }
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
    case "TOKEN":
      // the resume token from WELCOME ended (LEAVE, logout): this one resumes from now on
      state.token = f.token;
      sessionStorage.setItem("paiju.token", f.token);
      break;
    case "SESSION_LIST":
      records.onSessions(f);
      break;
    case "IDENTITY":
      records.onIdentity(f);
      break;
    case "CHAT_LINE":
      onChat(f);
      break;
    case "REMATCH_OFFER":
      onRematch(f);
      break;
    case "PONG":
      $("#rtt").textContent = `${Math.round(performance.now() - state.pingSent)} ${tr("ms", "毫秒")}`;
      break;
  }
}

// A seat that resumes hears from its room at once (at least its own return, a SEAT event).
// Silence means the room is gone: the seat was given up (its grace period ran out) while away.
// A match that ended meanwhile still answers: the missed events, the final RESULT, MATCH_END.
// A page that had the final RESULT before its connection went down has nothing to miss: the
// room has let it go and says nothing, and the result stays on screen.
function watchResume(room) {
  state.heard = false;
  setTimeout(() => {
    if (state.heard || !state.room || state.room.room !== room || state.room.over) return;
    logLine(tr("the room did not answer the resume: it has closed while this page was away", "房间没有回应：断线期间它已关闭"), "error");
    $("#result").replaceChildren(
      h("h3", {}, tr("The room has closed", "房间已关闭")),
      h("p", {}, tr("The match ended or the seat was given up while the connection was down.", "断线期间比赛已结束，或座位已被放弃。")),
      h("button", { id: "back-to-lobby", onclick: leaveRoom }, tr("Back to the lobby", "返回大厅")),
    );
    $("#result").dataset.closed = "1";
    $("#result").hidden = false;
  }, 3000);
}

function onError(f) {
  // leaving a room that has just let this page go (its rematch offer ran out): nothing to say
  if (f.ref_type === C.LEAVE && f.code === ERROR.NOT_IN_ROOM) return;
  const said = sorry(f.code);
  if (f.ref_type === C.JOIN && state.joiningInvite && [ERROR.NO_SUCH_ROOM, ERROR.ROOM_EXPIRED].includes(f.code)) {
    // a dead invite link: said where the table would have been, with the way to the lobby
    state.joiningInvite = false;
    deadInvite();
    return;
  }
  if (f.code === ERROR.BAD_TOKEN) {
    // an expired or foreign resume token: a new session instead, nothing to tell the player
    state.token = null;
    sessionStorage.removeItem("paiju.token");
    send(frames.hello(state.name, null, null, records.session()));
    return;
  }
  if (records.onError(f)) return;
  showError(said.text, { code: f.code, lobby: said.lobby && Boolean(state.room) });
  if (f.ref_type === C.ACTION && state.prompt && f.ref_id === state.prompt.prompt_id) {
    // a prompt that is gone (answered by the clock, closed window) is dropped; otherwise
    // the prompt stays open and the player may choose again
    if ([205, 300, 301, 304].includes(f.code) || (gameInfo(state.room.game).gone || []).includes(f.code)) clearPrompt();
    else setPromptState("open");
  }
}

// A refusal or failure in words (sorry.js), with its way on: the lobby when there is no other.
function showError(text, { code = null, lobby = false } = {}) {
  const box = $("#errors");
  const el = h("div", { class: "error", "data-code": code, role: "alert" }, h("span", {}, text));
  if (lobby) el.appendChild(h("button", { class: "to-lobby", onclick: () => (el.remove(), leaveRoom()) }, tr("Back to the lobby", "返回大厅")));
  el.appendChild(h("button", { class: "dismiss", "aria-label": tr("close", "关闭"), title: tr("close", "关闭"), onclick: () => el.remove() }, "×"));
  box.prepend(el);
  while (box.children.length > 4) box.lastChild.remove();
  setTimeout(() => el.remove(), lobby ? 20000 : 8000);
}

// An invite link whose table is gone: the lobby, with a sentence saying so at its top.
function deadInvite() {
  if (location.pathname !== "/") history.replaceState({}, "", "/");
  showScreen("lobby");
  $("#notice").replaceChildren(
    h("p", {}, h("b", {}, tr("This table has ended.", "这张牌桌已经结束了。")), " ", tr("The link you opened leads to a table that is over or no longer exists. Start a new one below, or join a public table.", "你打开的链接指向一张已结束或不存在的牌桌。可以在下面开一张新牌桌，或加入公开牌桌。")),
    h("button", { id: "notice-close", onclick: () => ($("#notice").hidden = true) }, tr("To the lobby", "去大厅")),
  );
  $("#notice").dataset.kind = "dead-invite";
  $("#notice").hidden = false;
}

// ------------------------------------------------------------------ chat and rematch
// Chat lines are text, never markup (textContent): "<b>x</b>" reads as typed. A line heard
// twice (the room sends its last lines again on joining or resuming) is shown once.
function onChat(f) {
  if (!state.room || f.room !== state.room.room || state.chatIds.has(f.id)) return;
  state.chatIds.add(f.id);
  if (state.muted.has(f.speaker)) return;
  const mine = f.speaker === state.name;
  const spectators = f.channel === 1;
  const li = h(
    "li",
    { class: `chat-line${spectators ? " gallery" : ""}${mine ? " mine" : ""}`, "data-id": f.id, "data-channel": f.channel, "data-name": f.speaker },
    h("b", { class: "chat-name" }, `${f.speaker}${spectators ? tr(" (watching)", "（观战）") : ""}`),
    tr(": ", "："),
    h("span", { class: "chat-text" }, f.text),
  );
  if (!mine) {
    const mute = h("button", { class: "mute", "data-name": f.speaker, title: tr(`mute ${f.speaker}`, `屏蔽 ${f.speaker}`) }, tr("mute", "屏蔽"));
    mute.addEventListener("click", () => muteName(f.speaker));
    li.appendChild(mute);
  }
  const log = $("#chat-log");
  log.appendChild(li);
  while (log.children.length > 100) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

function muteName(name) {
  if (!state.room) return;
  state.muted.add(name);
  send(frames.mute(state.room.room, name, true));
  for (const li of document.querySelectorAll("#chat-log li")) if (li.dataset.name === name) li.remove();
  logLine(tr(`${name} is muted: their chat lines are hidden.`, `已屏蔽 ${name} 的聊天。`));
}

function sendChat(e) {
  e.preventDefault();
  const input = $("#chat-text");
  const text = input.value.trim();
  if (!text || !state.room) return;
  send(frames.say(state.room.room, text));
  input.value = "";
}

// After a match each human is offered a rematch (the page asks for offers in HELLO).
function onRematch(f) {
  if (!state.room || f.room !== state.room.room) return;
  let box = $("#rematch");
  if (!box) {
    if (f.state !== 0) return;
    box = rematchBox();
    const back = $("#back-to-lobby");
    back.parentNode.insertBefore(box, back);
  }
  box.dataset.state = ["offer", "accepted", "declined", "expired"][f.state] || "";
  if (f.state === 0) {
    const n = f.accepted.length;
    const until = performance.now() + f.ms_left;
    state.rematchUntil = until;
    // a player who left or dropped during the offer is named at once: the others choose a
    // robot in its place (the rematch button) or the lobby
    const gone = (f.left || []).filter((s) => s !== state.room.seat);
    const names = gone.map((s) => holderName(state.room.seats[s], state.room.game) || seatLabel(s, true)).join(tr(", ", "、"));
    if (gone.length) {
      box.dataset.left = gone.join(",");
      $("#rematch-yes").textContent = tr("Play on with a robot", "让机器人代替，继续");
      $("#rematch-no").textContent = tr("Back to the lobby", "返回大厅");
    }
    const accepted = n ? tr(` ${n} accepted so far.`, `已有 ${n} 人同意。`) : "";
    $("#rematch-note").textContent = gone.length
      ? tr(`${names} left: a robot takes the seat if you play on.${accepted}`, `${names} 已离开：继续的话由机器人代替。${accepted}`)
      : accepted.trim();
  } else if (f.state === 1) {
    $("#rematch-note").textContent = tr("Rematch! The new match starts…", "再来一局！新比赛即将开始…");
    for (const b of box.querySelectorAll("button")) b.disabled = true;
    state.room.over = true;
  } else {
    $("#rematch-note").textContent = f.state === 2 ? tr("No rematch: back to the lobby.", "有人不再来：返回大厅。") : tr("The rematch offer ran out: back to the lobby.", "再来一局的邀请已过期：返回大厅。");
    for (const b of box.querySelectorAll("button")) b.disabled = true;
    state.rematchOpen = false;
    setTimeout(() => {
      if (state.room && state.room.room === f.room) leaveRoom();
    }, 1500);
  }
}

function rematchBox() {
  state.rematchOpen = true;
  const answer = (yes) => () => {
    if (!state.room) return;
    send(frames.rematch(state.room.room, yes));
    if (yes) $("#rematch-yes").disabled = true;
  };
  return h(
    "div",
    { id: "rematch", "data-state": "offer" },
    h("button", { id: "rematch-yes", class: "primary", onclick: answer(true) }, tr("Rematch", "再来一局")),
    h("button", { id: "rematch-no", onclick: answer(false) }, tr("No thanks", "不了")),
    h("span", { id: "rematch-note" }),
  );
}

// ------------------------------------------------------------------ the table
function enterRoom(f) {
  if (!state.room || state.room.room !== f.room) {
    // another room: its own chat (a resume of the same room keeps the lines shown)
    state.chatIds = new Set();
    $("#chat-log").replaceChildren();
  }
  state.joiningInvite = false;
  $("#notice").hidden = true;
  const created = state.creating || (state.room && state.room.room === f.room && state.room.created);
  state.creating = false;
  state.room = { room: f.room, game: f.game, ruleset: f.ruleset, seat: f.seat, seats: f.seats, scores: f.scores, hand: f.hand, created };
  state.rematchOpen = false;
  state.lastSeq = f.seq;
  state.model = makeModel(f.game, f.seat, f.seats.length, f.view);
  state.model.hand = f.hand;
  state.seatKinds = {};
  for (const s of f.robots || []) state.seatKinds[s] = "BOT"; // the robots' seats (ROOM_STATE's robots)
  state.boards = [];
  clearPrompt();
  $("#result").hidden = true;
  $("#result").removeAttribute("data-hand");
  $("#log").replaceChildren();
  showScreen("table");
  if (!state.replay && location.pathname !== "/") history.replaceState({}, "", "/"); // a table has no address of its own
  const where = `${gameTitle(f.game)}, ${rulesetName(f.game, f.ruleset)}`;
  if (state.replay) logLine(tr(`Replay of room ${f.room} (${where}), hand ${f.hand + 1}.`, `房间 ${f.room}（${where}）第 ${f.hand + 1} 局的回放。`));
  else if (f.seat === null) logLine(tr(`Watching room ${f.room} (${where}).`, `观看房间 ${f.room}（${where}）。`));
  else logLine(tr(`Seated as ${seatLabel(f.seat, true)} in room ${f.room} (${where}).`, `坐在房间 ${f.room}（${where}）的${seatLabel(f.seat, true)}。`));
  if (f.waiting) logLine(tr("Not started yet: ", "尚未开始：") + f.waiting, "waiting"); // the server's words, as text
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
    // its text names the new holder (a server before it did not: the seat's kind tells then)
    if (f.text || SEAT_KINDS[f.arg] === "EMPTY") state.room.seats[f.seat] = f.text || null;
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
  state.sel = [];
  state.hintAt = -1;
  state.picking = picksCards(state.room.game) && f.seat === state.room.seat;
  setPromptState("open");
  renderPrompt();
  autoPlaySingle(f);
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
          tr("Download the board (PBN)", "下载本副牌（牌例文件）"),
        )
      : null;
  // every finished hand can be replayed, step by step, from the room's log
  const replayLink = state.replay ? null : h("a", { id: "replay-link", href: `./?replay=${encodeURIComponent(f.room)}/${f.hand}`, target: "_blank" }, tr(`Replay hand ${f.hand + 1}`, `回放第 ${f.hand + 1} 局`));
  const box = $("#result");
  const old = box.querySelector("#download-pbn");
  if (old) URL.revokeObjectURL(old.href);
  const summary = h("div", { class: "summary", "data-game": g }, ...resultSummary(g, f, { seatLabel: (s) => seatLabel(s, true), dealer: state.model.dealer, boards: state.boards }));
  // (replaceChildren writes a null as the text "null": the missing link is left out)
  const parts = [
    h("h3", {}, f.final ? tr(`Match over after hand ${f.hand + 1}`, `比赛结束（共 ${f.hand + 1} 局）`) : tr(`Hand ${f.hand + 1} over`, `第 ${f.hand + 1} 局结束`)),
    summary,
    h("table", { class: "scores" }, h("tr", {}, h("th", {}, tr("seat", "座位")), h("th", {}, tr("this hand", "本局")), h("th", {}, tr("match", "总分")), h("th", {}, tr("cards", "牌"))), ...rows),
    download,
    replayLink,
    // the way on (the rematch offer joins it) stays on screen however long the result is
    f.final ? h("div", { class: "result-actions" }, h("button", { id: "back-to-lobby", onclick: leaveRoom }, tr("Back to the lobby", "返回大厅"))) : h("p", {}, tr("The next hand starts in a moment.", "下一局马上开始。")),
  ];
  box.replaceChildren(...parts.filter((x) => x !== null));
  box.dataset.hand = String(f.hand);
  box.dataset.final = f.final ? "1" : "0";
  box.hidden = false;
  const line = f.scores.map((x, s) => `${seatLabel(s, true)} ${signed(x)}`).join(", ");
  logLine(tr(`Hand ${f.hand + 1} is over: ${line}${f.final ? ". The match is over." : "."}`, `第 ${f.hand + 1} 局结束：${line}${f.final ? "。比赛结束。" : "。"}`), "result");
  renderTable();
}

const signed = (x) => (x > 0 ? `+${x}` : String(x));

function seatLabel(s, short = false) {
  if (s === null || s === undefined) return "—";
  const g = state.room ? state.room.game : "";
  const base = seatBase(g, s, state.model ? state.model.dealer : 0);
  if (short) return s === state.room?.seat ? `${base}${tr(" (you)", "（你）")}` : base;
  return `${base} ${playerName(s)}`;
}

function playerName(s) {
  const name = state.room && state.room.seats[s];
  const you = state.room && s === state.room.seat ? tr(" (you)", "（你）") : "";
  // a seat taken after this page's ROOM_STATE is named by its SEAT event
  const kind = state.seatKinds[s];
  const unnamed = isBot(s) ? tr("robot", "机器人") : kind === "HUMAN" || kind === "AWAY" ? tr("a player", "玩家") : tr("empty", "空位");
  return `${holderName(name, state.room.game) ?? unnamed}${you}`;
}

function isBot(s) {
  return state.seatKinds[s] === "BOT";
}

function renderTable() {
  if (!state.room || !state.model || state.quiet) return;
  const r = state.room;
  renderInvite();
  $("#table-title").textContent = tr(`${gameTitle(r.game)} · room ${r.room} · ${rulesetName(r.game, r.ruleset)} · hand ${r.hand + 1}`, `${gameTitle(r.game)} · 房间 ${r.room} · ${rulesetName(r.game, r.ruleset)} · 第 ${r.hand + 1} 局`);
  $("#table-rules").href = rulesUrl(r.game);
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
    // the one-line description of the robot holding seat s (null: a person)
    robotLine: (s) => {
      const name = robotOf(r.seats[s]);
      if (!name) return null;
      const known = (state.robots[r.game] || []).find(([n]) => n === name);
      return known ? `${robotLabel(r.game, name)}: ${robotLine(name, known[1])}` : null;
    },
    promptSeat: p ? p.seat : null,
    handCard: (seat, b) => handCardOf(p, seat, b),
  };
  $("#board").replaceChildren(state.model.render(ctx));
  if (p) keepHandInView();
  if (state.focusCard !== null) {
    const el = document.querySelector(`.board .seat.me [data-card="${hex([state.focusCard])}"]`);
    if (el) el.focus();
  }
}

// What a card of the hand does for the open prompt ``p``: picked into a play (a game of plays
// of several cards), played at once (an option of pick 1 holding it, even the only legal card),
// or nothing (a bridge bid's byte is a call, never a card: only a hand's act is answered).
function handCardOf(p, seat, b) {
  if (!p || p.seat !== seat) return null;
  if (state.picking) {
    const classes = ["pickable"];
    if (state.sel.includes(b)) classes.push("selected");
    else if (pickNow().lit.has(b)) classes.push("candidate");
    return { classes, click: (keyboard) => toggleCard(b, keyboard) };
  }
  const o = p.options.find((x) => handAct(state.room.game, x.code) && x.pick === 1 && x.cards.includes(b));
  if (!o) return null;
  return { classes: ["playable"], enter: true, click: () => act(o.code, new Uint8Array([b])) };
}

// A room's invite link (/r/ROOM): whoever opens it takes the first free seat, else watches.
// Shown while the room waits for players, or to anyone seated in a private room.
function renderInvite() {
  const box = $("#invite");
  const r = state.room;
  const waiting = r && !state.replay && r.seat !== null && r.seats.some((name, s) => (state.seatKinds[s] ? state.seatKinds[s] === "EMPTY" : name === null));
  if (!waiting) {
    box.hidden = true;
    return;
  }
  const url = `${location.origin}/r/${encodeURIComponent(r.room)}`;
  const key = `${url} ${r.seats.map((_, s) => state.seatKinds[s] || "").join(",")}`;
  if (box.dataset.key === key && !box.hidden) return;
  box.dataset.key = key;
  const input = h("input", { id: "invite-url", readonly: "readonly", value: url, size: String(Math.min(48, url.length)) });
  input.addEventListener("focus", () => input.select());
  const copy = h("button", { id: "invite-copy" }, tr("Copy", "复制"));
  copy.addEventListener("click", async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = tr("Copied", "已复制");
    } catch (e) {
      void e; // no clipboard (an insecure page): the link is selected for the user to copy
    }
  });
  // (replaceChildren writes a null as the text "null": no seat to swap is left out)
  box.replaceChildren(...[h("span", {}, tr("Invite a friend: ", "邀请朋友：")), input, copy, seatSwaps()].filter(Boolean));
  box.hidden = false;
}

// The room's creator, before the start, chooses who fills each seat not yet a player's.
function seatSwaps() {
  const r = state.room;
  if (!r.created) return null;
  const buttons = [];
  r.seats.forEach((name, s) => {
    if (s === r.seat) return;
    const kind = state.seatKinds[s] || (name === null ? "EMPTY" : /\(robot\)$/.test(name) ? "BOT" : "HUMAN");
    if (kind !== "EMPTY" && kind !== "BOT") return;
    const robot = kind === "EMPTY";
    buttons.push(
      h(
        "button",
        { class: "swap-seat", "data-seat": s, "data-to": robot ? "robot" : "player", onclick: () => send(frames.setSeat(r.room, s, robot)) },
        robot ? tr(`${seatBase(r.game, s)}: a robot`, `${seatBase(r.game, s)}：机器人`) : tr(`${seatBase(r.game, s)}: a player`, `${seatBase(r.game, s)}：留给玩家`),
      ),
    );
  });
  return buttons.length ? h("span", { class: "swaps" }, ...buttons) : null;
}

// ------------------------------------------------------------------ prompts and actions
function setPromptState(s) {
  state.promptState = s;
  const box = $("#prompt");
  box.dataset.state = s;
  for (const b of box.querySelectorAll("button")) b.disabled = s !== "open" || b.classList.contains("confirm");
  if (s === "open") updateConfirm();
  updatePickBar();
}

function clearPrompt() {
  state.prompt = null;
  state.picks = new Set();
  state.picking = false;
  state.sel = [];
  state.focusCard = null;
  renderPickBar();
  const box = $("#prompt");
  box.dataset.state = "none";
  box.removeAttribute("data-prompt-id");
  box.removeAttribute("data-seat");
  $("#prompt-options").replaceChildren();
  $("#prompt-who").textContent = state.room && state.room.seat === null ? tr("watching", "观战中") : tr("waiting for the others…", "等待其他玩家…");
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
  const box = $("#prompt");
  box.dataset.promptId = String(p.prompt_id);
  box.dataset.seat = String(p.seat);
  const forDummy = p.seat !== state.room.seat;
  const who = forDummy ? tr(`Your decision for ${seatLabel(p.seat, true)} (dummy)`, `替${seatLabel(p.seat, true)}（明手）出牌`) : tr("Your decision", "轮到你了");
  // after a takeover the robot answers when the move's time runs out: answering first takes the seat back
  $("#prompt-who").textContent = isBot(state.room.seat) ? tr(`${who}: a robot plays your seat now; answer to take it back`, `${who}：机器人正在代打，操作即可收回`) : who;
  const list = [];
  let choiceIndex = 0;
  p.options.forEach((o, i) => {
    const name = actName(g, o.code);
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
      opt.appendChild(h("span", { class: "act-name" }, `${name}${tr(":", "：")}`));
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
      opt.appendChild(h("span", { class: "act-name" }, tr(`${name} ${o.pick} of:`, `${name} ${o.pick} 张：`)));
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
          tr(`${name} ${o.pick}`, `${name} ${o.pick} 张`),
        ),
      );
    }
    list.push(opt);
  });
  $("#prompt-options").replaceChildren(...list);
  $("#prompt").dataset.game = g;
  renderPickBar();
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

// ------------------------------------------------------------------ picking cards in the hand
// (Niujiu): tap cards, then Play (a lead or an eat) or Cover (any k cards face down); Hint shows
// the legal plays in turn. Keys: arrows move along the hand, Space picks, Enter plays, H hints,
// Escape clears. The prompt's list of every play stays under "all plays".
const isPlayCode = (code) => state.room && handAct(state.room.game, code);
const pickNow = () => pickState(state.prompt ? state.prompt.options : [], isPlayCode, state.sel);

function toggleCard(b, keyboard = false) {
  if (state.promptState !== "open") return;
  const i = state.sel.indexOf(b);
  if (i >= 0) state.sel.splice(i, 1);
  else state.sel.push(b);
  state.focusCard = keyboard ? b : null;
  updatePickBar();
  renderTable();
}

function setSelection(cards) {
  state.sel = [...cards];
  updatePickBar();
  renderTable();
}

function renderPickBar() {
  const bar = $("#pick-bar");
  const list = $("#prompt-options");
  if (!state.picking || !state.prompt) {
    bar.hidden = true;
    bar.replaceChildren();
    list.hidden = false;
    return;
  }
  const ps = pickNow();
  const k = ps.covers.length ? ps.covers[0].pick : 0;
  const total = $("#prompt-options").querySelectorAll("button.choice").length;
  const folded = PHONE.matches; // a phone's bottom sheet is for the bar: the list opens on demand
  list.hidden = folded;
  bar.replaceChildren(
    h("div", { id: "pick-note", "aria-live": "polite" }),
    h(
      "div",
      { class: "pick-buttons" },
      h("button", { id: "pick-play", class: "primary", onclick: playSelection, title: tr("Enter", "回车键") }, tr("Play", "出牌")),
      k ? h("button", { id: "pick-cover", onclick: coverSelection }, tr(`Cover ${k}`, `扣 ${k} 张`)) : null,
      h("button", { id: "pick-hint", onclick: hint, title: tr("H", "按 H 键") }, tr("Hint", "提示")),
      h("button", { id: "pick-clear", onclick: () => setSelection([]), title: tr("Escape", "退出键") }, tr("Clear", "重选")),
      h(
        "button",
        { id: "pick-list", "aria-expanded": folded ? "false" : "true", onclick: toggleList },
        tr(`All plays (${total})`, `全部出法（${total}）`),
      ),
    ),
  );
  bar.hidden = false;
  updatePickBar();
}

function toggleList() {
  const list = $("#prompt-options");
  list.hidden = !list.hidden;
  $("#pick-list").setAttribute("aria-expanded", list.hidden ? "false" : "true");
  keepHandInView();
}

function updatePickBar() {
  const bar = $("#pick-bar");
  if (!state.picking || !state.prompt || bar.hidden) return;
  const open = state.promptState === "open";
  const ps = pickNow();
  // the main button plays the selection: a play (lead, eat), else the cover it makes
  const play = $("#pick-play");
  const does = ps.match || ps.cover;
  play.disabled = !open || !does;
  play.dataset.code = does ? String(does.code) : "";
  play.textContent = !ps.match && ps.cover ? tr(`Cover ${ps.cover.pick}`, `扣 ${ps.cover.pick} 张`) : tr("Play", "出牌");
  // (a cover of its own only when the selection is a play too: else the main button covers)
  const cover = $("#pick-cover");
  if (cover) {
    cover.disabled = !open || !ps.cover;
    cover.hidden = !(ps.match && ps.cover);
  }
  $("#pick-hint").disabled = !open || !(ps.plays.length || ps.covers.length);
  $("#pick-clear").disabled = !open || !state.sel.length;
  $("#pick-list").disabled = false;
  const n = state.sel.length;
  let note;
  if (!n) note = ps.plays.length ? tr("Tap the cards of your play.", "点选要出的牌。") : tr(`No play beats it: cover ${ps.covers[0]?.pick ?? 0} cards.`, `管不上：扣 ${ps.covers[0]?.pick ?? 0} 张牌。`);
  else if (ps.match) note = tr(`${actName(state.room.game, ps.match.code)}: ready to play.`, `${actName(state.room.game, ps.match.code)}：可以出。`);
  else if (ps.cover) note = tr(`Cover these ${n} cards face down.`, `把这 ${n} 张牌扣下。`);
  else if (ps.lit.size) note = tr("Add the highlighted cards to make a play.", "再选亮起的牌，凑成一手。");
  else note = tr("These cards make no legal play.", "这几张牌不能这样出。");
  $("#pick-note").textContent = note;
}

function playSelection() {
  const ps = pickNow();
  const does = ps.match || ps.cover;
  if (does) act(does.code, new Uint8Array(state.sel));
}

function coverSelection() {
  const ps = pickNow();
  if (ps.cover) act(ps.cover.code, new Uint8Array(state.sel));
}

function hint() {
  const next = nextHint(pickNow(), state.hintAt, (a) => handOrder(state.room.game, a));
  if (!next) return;
  state.hintAt = next.at;
  setSelection(next.cards);
}

function onKey(e) {
  if (!state.picking || state.promptState !== "open" || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target instanceof HTMLElement && e.target.closest("input, select, textarea")) return;
  const cards = [...document.querySelectorAll(".board .seat.me .hand [data-card]")];
  const at = cards.indexOf(document.activeElement);
  if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
    const next = cards[at < 0 ? 0 : (at + (e.key === "ArrowLeft" ? cards.length - 1 : 1)) % cards.length];
    if (next) {
      state.focusCard = parseInt(next.dataset.card, 16);
      next.focus();
    }
  } else if (e.key === "Enter" && !(e.target instanceof HTMLButtonElement)) playSelection(); else if (e.key === "h" || e.key === "H") hint();
  else if (e.key === "Escape") setSelection([]);
  else return;
  e.preventDefault();
}

// A prompt whose only answer is one card (bridge's single legal card) is played by itself when
// the player chose so (a box under the prompt, kept in localStorage), after a short look; also
// the prompt open when the box is ticked.
const AUTO_SINGLE = "paiju.autoSingle";
function autoPlaySingle(p) {
  if (localStorage.getItem(AUTO_SINGLE) !== "1" || state.picking || state.replay) return;
  const plays = p.options.filter((o) => handAct(state.room.game, o.code));
  const o = plays[0];
  if (plays.length !== 1 || o.pick !== 1 || new Set(o.cards).size !== 1) return; // (a claim aside)
  setTimeout(() => {
    if (state.prompt && state.prompt.prompt_id === p.prompt_id && state.promptState === "open") act(o.code, o.cards.slice(0, 1));
  }, 400);
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
  const sec = tr(" s", " 秒");
  if (left <= 0) text = tr("time! the default move is played", "超时！自动出牌");
  else if (onBank) text = `${tr("time bank", "备用时间")}: ${(left / 1000).toFixed(1)}${sec}`;
  else text = `${(move / 1000).toFixed(1)}${sec}${p.bank > 0 ? ` + ${tr("bank", "备用")} ${(p.bank / 1000).toFixed(0)}${sec}` : ""}`;
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
  // a finished match has let its players go already (a LEAVE would be refused: not in the room),
  // unless it offers a rematch: leaving then gives this seat to a robot if the others play on
  if (state.room && (!state.room.over || state.rematchOpen)) send(frames.leave(state.room.room));
  state.rematchOpen = false;
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
  $("#create-ruleset").replaceChildren(
    h("option", { value: "" }, tr("default", "默认")),
    ...info.rulesets.map((r) => h("option", { value: r, title: rulesetLine(game, r) }, `${rulesetName(game, r)} — ${rulesetLine(game, r)}`)),
  );
  describeRuleset();
  // who sits where: a player, or a robot from the menu (the strongest first, the room's default)
  const robots = state.robots[game] || [];
  const bots = $("#create-bots");
  bots.replaceChildren();
  for (let s = 0; s < info.seats; s++) {
    const menu = h(
      "select",
      { "data-seat": s, class: "seat-player" },
      h("option", { value: HUMAN }, s === 0 ? tr("you", "你") : tr("a player", "玩家")),
      ...(robots.length
        ? robots.map(([name, text], i) =>
            h("option", { value: name, title: robotLine(name, text), selected: s !== 0 && i === 0 ? "selected" : null }, `${tr("robot", "机器人")} ${name}${i === 0 ? tr(" (strongest)", "（最强）") : ""} — ${robotLine(name, text)}`),
          )
        : [h("option", { value: "", selected: s !== 0 ? "selected" : null }, tr("robot (the server's strongest)", "机器人（服务器最强的）"))]),
    );
    bots.appendChild(h("label", { class: "seat-choice" }, seatBase(game, s), menu));
  }
  describeRobots();
  // a PBN file of deals is for bridge rooms only
  $("#create-pbn-label").hidden = game !== "bridge";
}

// the chosen ruleset in a line, with the game's rules page
function describeRuleset() {
  const game = $("#create-game").value;
  const r = $("#create-ruleset").value || gameInfo(game).rulesets[0];
  $("#create-ruleset-note").replaceChildren(r ? `${rulesetName(game, r)}: ${rulesetLine(game, r)} ` : "", rulesLink(game));
}

function rulesLink(game) {
  const rules = h("a", { class: "rules-link", href: rulesUrl(game), target: "_blank" }, tr("the rules", "规则"));
  if (game !== "bridge") return rules;
  // bridge: the robots' bidding system too, whose rows explain every call at the table
  return h("span", {}, rules, " · ", h("a", { class: "system-card-link", href: SYSTEM_CARD_URL, target: "_blank" }, tr("the bidding system", "叫牌体系")));
}

// ------------------------------------------------------------------ the lobby's games
// The last choices (game, ruleset, hands, clock) are kept in localStorage for the next visit.
const LAST = "paiju.lobby";
function lastChoices() {
  try {
    return JSON.parse(localStorage.getItem(LAST) || "{}") || {};
  } catch (e) {
    void e;
    return {};
  }
}

function remember(choices) {
  localStorage.setItem(LAST, JSON.stringify({ ...lastChoices(), ...choices }));
}

/** The games first: each with its line, ruleset, rules, and one click to play against robots
 * or to open a table for friends (a private room whose invite link the table shows). */
function renderGames(games) {
  const last = lastChoices();
  const cards = GAME_ORDER.filter((g) => games.includes(g)).concat(games.filter((g) => !GAME_ORDER.includes(g)));
  $("#games").replaceChildren(
    ...cards.map((g) => {
      const info = gameInfo(g);
      const chosen = last.rulesets && last.rulesets[g];
      const menu = h(
        "select",
        { class: "game-ruleset", "data-game": g, "aria-label": tr("ruleset", "规则") },
        ...info.rulesets.map((r) => h("option", { value: r, selected: r === chosen ? "selected" : null }, rulesetName(g, r))),
      );
      const note = h("p", { class: "ruleset-note" });
      const describe = () => note.replaceChildren(`${rulesetLine(g, menu.value)} `, rulesLink(g));
      menu.addEventListener("change", () => {
        describe();
        remember({ rulesets: { ...(lastChoices().rulesets || {}), [g]: menu.value } });
      });
      describe();
      const start = (friends) => {
        remember({ game: g });
        const seats = info.seats;
        send(
          frames.createRoom({
            game: g,
            ruleset: menu.value || null,
            hands: 1,
            bots: friends ? [] : Array.from({ length: seats - 1 }, (_, i) => i + 1),
            priv: friends,
          }),
        );
      };
      return h(
        "div",
        { class: `panel game-card${GAME_ORDER.indexOf(g) === 3 ? " minor" : ""}`, "data-game": g },
        h("h2", {}, gameTitle(g)),
        h("p", { class: "game-line" }, gameLine(g)),
        h("div", { class: "game-rules" }, menu, note),
        h(
          "div",
          { class: "buttons" },
          h("button", { class: "primary play-robots", "data-game": g, onclick: () => start(false) }, tr("Play against robots", "和机器人打")),
          h("button", { class: "play-friends", "data-game": g, onclick: () => start(true) }, tr("Table for friends", "和朋友打")),
        ),
      );
    }),
  );
}

const HUMAN = "@player"; // the seat menu's value for "a player", never a robot's name
const MAX_SEED = 2n ** 63n - 1n; // the largest seed CREATE_ROOM takes

function describeRobots() {
  // the one-line description of each robot chosen, under the menus
  const game = $("#create-game").value;
  const chosen = new Set([...document.querySelectorAll("#create-bots select")].map((e) => e.value).filter((v) => v && v !== HUMAN));
  const lines = (state.robots[game] || []).filter(([name]) => chosen.has(name)).map(([name, text]) => h("li", {}, h("b", {}, name), `${tr(": ", "：")}${robotLine(name, text)}`));
  $("#create-robot-notes").replaceChildren(...lines);
}

function pbnChosen() {
  // by default the room plays each deal of the file once
  const input = $("#create-hands");
  if ($("#create-pbn").files.length) {
    input.value = "";
    input.placeholder = tr("one per deal", "每副一局");
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
      showError(`${tr("the PBN file could not be read", "无法读取牌例文件")}: ${e.message}`);
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
  // the wire's seed is a u64 of 0 .. 2^63 - 1 (SPEC.md, CREATE_ROOM): say so rather than send a refusal
  if (seed && (!/^\d+$/.test(seed) || BigInt(seed) > MAX_SEED)) {
    showError(tr(`A seed is a whole number from 0 to ${MAX_SEED}.`, `种子须为 0 到 ${MAX_SEED} 之间的整数。`));
    return;
  }
  remember({ game, ruleset: $("#create-ruleset").value, hands: $("#create-hands").value, clock: $("#create-clock").value });
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

// who is online: the players seated in the public rooms (robots aside), and the server's count
function renderOnline() {
  const names = new Set();
  for (const r of state.rooms) r.seats.forEach((name, s) => name !== null && !r.bots.includes(s) && !robotOf(name) && names.add(name));
  const total = state.online;
  const head = total === null || total === undefined ? "" : tr(`${total} connected · `, `${total} 人在线 · `);
  $("#online").replaceChildren(head, names.size ? [...names].sort().join(tr(", ", "、")) : tr("nobody at a public table", "公开牌桌上没有人"));
}

// "join by id or link": a room id, or an invite link (…/r/ROOM)
function joinById(e) {
  e.preventDefault();
  const text = $("#join-id").value.trim();
  const m = /\/r\/([^/?#\s]+)/.exec(text) || /^([A-Za-z0-9_-]{1,64})$/.exec(text);
  if (!m) {
    showError(tr("not a room id or invite link", "不是房间号或邀请链接"));
    return;
  }
  send(frames.join(decodeURIComponent(m[1]), null, true));
}

function renderRooms() {
  renderOnline();
  const tbody = $("#rooms tbody");
  const filter = $("#rooms-game").value;
  const rooms = state.rooms.filter((r) => !filter || r.game === filter);
  $("#rooms").dataset.count = String(rooms.length);
  if (!rooms.length) {
    tbody.replaceChildren(h("tr", {}, h("td", { colspan: 6, class: "empty" }, tr("No public rooms yet: create one, or quick play.", "还没有公开房间：创建一个，或快速开始。"))));
    return;
  }
  tbody.replaceChildren(
    ...rooms.map((r) => {
      const seats = r.seats.map((name, s) => {
        const label = r.game === "bridge" ? BRIDGE_SEATS[s][0] : s + 1;
        if (r.bots.includes(s)) return h("span", { class: "seat-chip bot" }, `${label}: ${tr("robot", "机器人")}`);
        if (name !== null) return h("span", { class: "seat-chip taken" }, `${label}: ${holderName(name, r.game)}`);
        return h("button", { class: "seat-chip free", "data-room": r.room, "data-seat": s, onclick: () => send(frames.join(r.room, s)) }, tr(`sit ${label}`, `坐 ${label}`));
      });
      return h(
        "tr",
        { "data-room": r.room },
        h("td", {}, r.room),
        h("td", {}, `${gameTitle(r.game)} (${rulesetName(r.game, r.ruleset)})`),
        h("td", {}, ...seats),
        h("td", {}, statusWord(r.status)),
        h("td", {}, tr(`${r.hand}/${r.hands} played · ${r.spectators} watching`, `已打 ${r.hand}/${r.hands} 局 · ${r.spectators} 人观战`)),
        h("td", {}, h("button", { class: "watch", "data-room": r.room, onclick: () => send(frames.join(r.room)) }, tr("watch", "观战"))),
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
    setRobotLabels(body.robot_labels);
    if (typeof body.connections === "number") state.online = body.connections;
    if (Array.isArray(body.games) && body.games.length) return body.games;
  } catch (e) {
    void e;
  }
  return Object.keys(GAMES);
}

async function init() {
  translatePage();
  $("#lang").replaceChildren(...Object.entries(LANGS).map(([k, name]) => h("option", { value: k, selected: k === LANG ? "selected" : null }, name)));
  $("#lang").addEventListener("change", (e) => setLang(e.target.value));
  const games = await serverGames();
  const ordered = GAME_ORDER.filter((g) => games.includes(g)).concat(games.filter((g) => !GAME_ORDER.includes(g)));
  for (const sel of ["#create-game", "#rooms-game"]) {
    for (const g of ordered) $(sel).appendChild(h("option", { value: g }, gameTitle(g)));
  }
  renderGames(ordered);
  // the form as it was last used (the first game, mahjong, on a first visit)
  const last = lastChoices();
  if (last.game && ordered.includes(last.game)) $("#create-game").value = last.game;
  fillCreateForm();
  if (last.ruleset && gameInfo($("#create-game").value).rulesets.includes(last.ruleset)) $("#create-ruleset").value = last.ruleset;
  if (last.hands) $("#create-hands").value = last.hands;
  if (last.clock) $("#create-clock").value = last.clock;
  describeRuleset();
  $("#create-game").addEventListener("change", fillCreateForm);
  $("#create-ruleset").addEventListener("change", describeRuleset);
  $("#create-bots").addEventListener("change", describeRobots);
  $("#create-pbn").addEventListener("change", pbnChosen);
  $("#create-room").addEventListener("click", createRoom);
  $("#quick-play").addEventListener("click", () => send(frames.quickPlay($("#create-game").value, $("#create-ruleset").value || null)));
  $("#refresh-rooms").addEventListener("click", () => send(frames.listRooms()));
  $("#join-form").addEventListener("submit", joinById);
  $("#chat-form").addEventListener("submit", sendChat);
  $("#rooms-game").addEventListener("change", renderRooms);
  $("#leave").addEventListener("click", leaveRoom);
  document.addEventListener("keydown", onKey);
  $("#auto-single").checked = localStorage.getItem(AUTO_SINGLE) === "1";
  $("#auto-single").addEventListener("change", (e) => {
    localStorage.setItem(AUTO_SINGLE, e.target.checked ? "1" : "0");
    // ticked while a lone card is asked for: that one is played by itself too
    if (state.prompt && state.promptState === "open") autoPlaySingle(state.prompt);
  });
  // a phone's header is one line: the name, account and records' buttons behind a menu button
  $("#menu").addEventListener("click", () => {
    const head = document.querySelector("header");
    head.dataset.open = head.dataset.open === "1" ? "0" : "1";
  });
  $("#player-name").value = state.name;
  $("#player-name").addEventListener("change", (e) => {
    // (no person's name ends as a robot seat's does: the server refuses it)
    state.name = e.target.value.trim().replace(/\s*\(robot\)$/i, "").slice(0, 64) || state.name;
    localStorage.setItem("paiju.name", state.name);
    reconnect(); // a new name takes effect on a new session
  });
  const lobby = () => showScreen(state.room ? "table" : "lobby");
  records.initRecords({ send, rename, showScreen, showError, reconnect, lobby, myName: () => state.name, lastGame: () => lastChoices().game });
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
    if (document.body.dataset.screen === "lobby") {
      send(frames.listRooms());
      serverGames(); // the count of who is online
    }
  }, 5000);
  connect(false);
}

// for scripts and tests: drop the connection as a network failure would (the page resumes)
window.paiju = { drop: () => state.ws && state.ws.close(), state, handle, trace };

init();
