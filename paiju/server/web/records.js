// Accounts and records in the web client: log in / register / log out (ACCOUNT, IDENTITY over
// the WebSocket), a player's page (their matches, from GET /api/players/NAME/matches), a stored
// match (GET /api/matches/ID: each hand's scores and deal, each opening in replay.js's viewer) and
// the leaderboards (GET /api/leaderboard/GAME). The session token lives in localStorage, so a
// login survives a browser restart; app.js sends it in HELLO.
//
// Each page has an address that works on reload and with Back (the server answers these paths
// with index.html): /players/NAME (a player's or a guest's matches), /matches/ID (a stored
// match) and /leaderboard/GAME.

import { sorry } from "./sorry.js";
import { C, ERRORS, frames } from "./proto.js";
import { byName } from "./codes.js";
import { cardsText, fromHex } from "./cards.js";
import { h } from "./games.js";
import { tr } from "./i18n.js";
import { GAME_ORDER, gameTitle, rulesetName, statusWord } from "./words.js";

const $ = (sel) => document.querySelector(sel);
const plural = (n, one) => `${n} ${one}${n === 1 ? "" : "s"}`;
const SESSION = "paiju.session";
const ERROR = byName(ERRORS);

let hooks = null; // {send, rename, showScreen, showError, reconnect, myName, lobby, lastGame}
const me = { name: null, registered: false };

/** The session token to send in HELLO (null: play as a guest). */
export function session() {
  return localStorage.getItem(SESSION);
}

/** IDENTITY: who this page plays as now. */
export function onIdentity(f) {
  me.name = f.player;
  me.registered = f.registered;
  if (f.session) localStorage.setItem(SESSION, f.session);
  if (!f.registered) localStorage.removeItem(SESSION);
  hooks.rename(f.player);
  renderAccount();
}

/** ERROR frames about accounts; true when handled here. */
export function onError(f) {
  if (f.ref_type === C.HELLO && f.code === ERROR.BAD_LOGIN) {
    // the session ended (logged out elsewhere, expired): carry on as a guest
    localStorage.removeItem(SESSION);
    hooks.reconnect();
    return true;
  }
  if (f.ref_type === C.HELLO && f.code === ERROR.NAME_TAKEN) {
    // a guest name that belongs to an account: pick another and say so
    hooks.showError(tr("the name is registered: log in to use it (playing as a guest meanwhile)", "这个名字已注册：登录后才能使用（暂以游客身份游戏）"));
    hooks.rename(`guest-${Math.floor(Math.random() * 9000 + 1000)}`);
    hooks.reconnect();
    return true;
  }
  if (f.ref_type === C.ACCOUNT) {
    $("#account-error").textContent = sorry(f.code).text;
    return true;
  }
  return false;
}

/** A new connection (WELCOME): guests show the login form. */
export function onWelcome() {
  if (!session()) {
    me.registered = false;
    renderAccount();
  }
}

function renderAccount() {
  const box = $("#account");
  if (me.registered) {
    box.replaceChildren(
      h("span", { id: "account-name", "data-name": me.name }, tr(`signed in as ${me.name}`, `已登录：${me.name}`)),
      h("button", { id: "logout", onclick: () => hooks.send(frames.account("logout")) }, tr("Log out", "退出")),
      h("button", { id: "sessions", onclick: () => hooks.send(frames.sessions()) }, tr("Sessions", "登录设备")),
      h("span", { id: "sessions-line" }),
    );
  } else {
    const name = h("input", { id: "account-user", placeholder: tr("account name", "账号"), size: "12", autocomplete: "username" });
    const pw = h("input", { id: "account-password", type: "password", placeholder: tr("password", "密码"), size: "12", autocomplete: "current-password" });
    const go = (op) => () => {
      $("#account-error").textContent = "";
      hooks.send(frames.account(op, name.value.trim(), pw.value));
    };
    box.replaceChildren(name, pw, h("button", { id: "login", onclick: go("login") }, tr("Log in", "登录")), h("button", { id: "register", onclick: go("register") }, tr("Register", "注册")));
  }
  box.appendChild(h("span", { id: "account-error", class: "error-text" }));
}

/** SESSION_LIST: one line, each session with its start, the others with a button that ends it. */
export function onSessions(f) {
  const line = $("#sessions-line");
  if (!line) return;
  const items = f.sessions.map((s) =>
    h(
      "span",
      { class: "session", "data-id": s.id, "data-current": s.current ? "1" : "0" },
      s.current ? tr(`this one (since ${when(s.created)})`, `本设备（${when(s.created)} 起）`) : tr(`since ${when(s.created)}`, `${when(s.created)} 起`),
      s.current ? "" : h("button", { class: "end-session", onclick: () => hooks.send(frames.sessions(s.id)) }, tr("end", "结束")),
    ),
  );
  const others = f.sessions.length > 1 ? [h("button", { id: "end-others", onclick: () => hooks.send(frames.sessions("others")) }, tr("end the others", "结束其他"))] : [];
  line.replaceChildren(tr(`${plural(f.sessions.length, "session")}: `, `${f.sessions.length} 个登录：`), ...items, ...others);
}

async function api(path) {
  const r = await fetch(path);
  const body = await r.json();
  if (!r.ok) throw new Error(body.error ? `${body.error.code}: ${body.error.message}` : `HTTP ${r.status}`);
  return body;
}

/** A records page that cannot be shown, in words, with the way back to the lobby: ``what``
 * names the thing asked for ([English, 中文]) when the records have none such. */
function cannotShow(e, what) {
  const code = e.message.split(":")[0];
  let text;
  if (["not_found", "no_such_game", "bad_name"].includes(code)) text = tr(`There is no ${what[0]}.`, `没有${what[1]}。`);
  else if (code === "no_records") text = tr("This server keeps no records.", "这台服务器不保存对局记录。");
  else text = tr("The records could not be read just now. Try again in a moment.", "暂时读不到记录，请稍后再试。");
  return h("div", { class: "not-found", "data-code": code }, h("p", { class: "error-text" }, text), h("a", { class: "to-lobby", href: "/" }, tr("Back to the lobby", "返回大厅")));
}

/** The page for an address that names nothing. */
export function showNotFound() {
  hooks.showScreen("records");
  const box = $("#records-body");
  box.dataset.view = "not-found";
  box.replaceChildren(cannotShow(new Error("not_found"), [`page at ${location.pathname}`, `地址为 ${location.pathname} 的页面`]));
}

// a seat holder's kind in the records (paiju.records.models: user, guest, robot), in words
const KINDS = { user: ["player", "玩家"], guest: ["guest", "游客"], robot: ["robot", "机器人"] };
const holderKind = (kind) => (KINDS[kind] ? tr(...KINDS[kind]) : kind);

const when = (t) => (t ? new Date(t * 1000).toLocaleString() : "");
// A rating as shown: the openskill ordinal (mu - 3 sigma, what the leaderboard sorts by) on an
// Elo-like scale, 1500 + 60 x ordinal, floored at 0: a newcomer shows 1500, not 0.00, and one
// loss does not make it negative (docs/architecture.md, Ratings).
export const shownRating = (ordinal) => Math.max(0, Math.round(1500 + 60 * ordinal));
const rating = (x) => (x === null || x === undefined ? "" : String(shownRating(x)));

/** Go to one of the records' pages (``path``: /players/NAME, /matches/ID, /leaderboard/GAME, or /
 * for the lobby), as a new entry of the browser's history. */
export function navigate(path) {
  if (location.pathname + location.search !== path) history.pushState({}, "", path);
  if (!route()) hooks.lobby();
}

/** Show the page the address names; false if it names none of the records' pages. */
export function route() {
  const parts = location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts.length === 2 && parts[0] === "players") showPlayer(parts[1]);
  else if (parts.length === 2 && parts[0] === "matches" && /^\d+$/.test(parts[1])) showMatch(parts[1]);
  else if (parts.length === 2 && parts[0] === "leaderboard") showLeaderboard(parts[1]);
  else if (parts.length && !(parts.length === 2 && parts[0] === "r")) showNotFound(); // (an invite link: the table's)
  else return false;
  return true;
}

/** The player's page: their matches, newest first, each opening its replay. */
async function showPlayer(name, before = null) {
  hooks.showScreen("records");
  const box = $("#records-body");
  box.dataset.view = "player";
  if (!name) {
    box.replaceChildren(h("p", {}, tr("Log in (or register) to keep your matches and a rating.", "登录（或注册）以保存对局和等级分。")));
    return;
  }
  let page;
  try {
    page = await api(`/api/players/${encodeURIComponent(name)}/matches?limit=20${before ? `&before=${before}` : ""}`);
  } catch (e) {
    // a name with no match stored yet (a guest before the end of its first match)
    if (e.message.startsWith("not_found")) {
      const none = h("div", { class: "not-found", "data-code": "not_found" }, h("p", {}, tr(`${name} has no match here yet.`, `${name} 在这里还没有对局。`)), h("a", { class: "to-lobby", href: "/" }, tr("Back to the lobby", "返回大厅")));
      box.replaceChildren(h("h2", {}, tr(`${name}: matches`, `${name} 的对局`)), none);
    }
    else box.replaceChildren(cannotShow(e, [`player ${name}`, `玩家 ${name}`]));
    return;
  }
  const rows = page.matches.map((m) => {
    const mine = m.seats.filter((s) => m.seats_held.includes(s.seat));
    const change = mine.length && mine[0].rating_after !== null ? `${rating(mine[0].rating_before)} → ${rating(mine[0].rating_after)}` : "";
    return h(
      "tr",
      { "data-match": String(m.id) },
      h("td", {}, String(m.id)),
      h("td", {}, when(m.ended || m.started)),
      h("td", {}, gameTitle(m.game)),
      h("td", {}, m.seats.map((s) => `${s.name}${s.total !== null ? ` (${s.total})` : ""}`).join(", ")),
      h("td", {}, statusWord(m.status)),
      h("td", { class: "rating-change" }, change),
      h("td", {}, h("a", { class: "open-replay", href: `/matches/${m.id}`, onclick: follow }, tr("replay", "回放"))),
    );
  });
  box.replaceChildren(
    h("h2", {}, tr(`${page.player.name}${page.player.kind === "robot" ? " (robot)" : ""}: matches`, `${page.player.name}${page.player.kind === "robot" ? "（机器人）" : ""} 的对局`)),
    rows.length
      ? h("table", { id: "matches" }, h("thead", {}, h("tr", {}, ...["#", tr("when", "时间"), tr("game", "游戏"), tr("seats", "座位"), tr("status", "状态"), tr("rating", "等级分"), ""].map((t) => h("th", {}, t)))), h("tbody", {}, ...rows))
      : h("p", {}, tr("No match yet.", "还没有对局。")),
    page.next ? h("button", { id: "older", onclick: () => showPlayer(name, page.next) }, tr("older", "更早")) : "",
  );
}

// a link inside the page: a new history entry, no reload
function follow(e) {
  if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return; // a new tab: the browser's
  e.preventDefault();
  navigate(e.currentTarget.getAttribute("href"));
}

/** A stored match, hand by hand: the scores and the hands as dealt; each hand opens in the
 * replay viewer (replay.js: the table, step by step, as for a hand just played). */
async function showMatch(id) {
  hooks.showScreen("records");
  const box = $("#records-body");
  box.dataset.view = "replay";
  let m;
  try {
    m = await api(`/api/matches/${id}`);
  } catch (e) {
    box.replaceChildren(cannotShow(e, [`match ${id}`, `第 ${id} 号对局`]));
    return;
  }
  const seatName = (i) => (m.seats[i] ? m.seats[i].name : tr(`seat ${i}`, `${i} 号位`));
  const hands = m.hands.map((hd) =>
    h(
      "section",
      { class: "replay-hand", "data-hand": String(hd.hand) },
      h("h3", {}, `${tr(`hand ${hd.hand + 1}`, `第 ${hd.hand + 1} 局`)}: ${hd.scores.map((s, i) => `${seatName(i)} ${s > 0 ? "+" : ""}${s}`).join(", ")}`),
      h("ul", { class: "replay-deal" }, ...hd.revealed.map((c, i) => h("li", {}, `${seatName(i)}: ${cardsText(m.game, fromHex(c))}`))),
      h("a", { class: "open-hand-replay", href: `./?match=${encodeURIComponent(m.id)}/${hd.hand}`, target: "_blank" }, tr(`replay hand ${hd.hand + 1} on the table (${plural(hd.actions.length, "move")})`, `在牌桌上回放第 ${hd.hand + 1} 局（${hd.actions.length} 步）`)),
    ),
  );
  box.replaceChildren(
    h("h2", {}, tr(`match ${m.id}: ${gameTitle(m.game)} (${rulesetName(m.game, m.ruleset)}), ${statusWord(m.status)}`, `对局 ${m.id}：${gameTitle(m.game)}（${rulesetName(m.game, m.ruleset)}），${statusWord(m.status)}`)),
    h("p", {}, m.seats.map((s) => `${s.name}${s.total !== null ? ` ${s.total}` : ""}`).join(" · ")),
    fairness(m),
    m.game === "bridge" ? h("a", { href: `/api/matches/${m.id}.pbn`, download: `paiju-${m.id}.pbn` }, tr("PBN", "牌例文件")) : "",
    ...hands,
  );
  if (m.seed !== null) checkDeals(m);
}

/** The match's commitment to its seed (SHA-256 of salt and seed, shown at the table before the
 * first deal), and once the match is over its seed and salt, with the checks (SPEC.md §8). */
function fairness(m) {
  const lines = [h("li", {}, tr("commitment ", "承诺 "), h("code", { id: "match-commitment" }, m.commitment || tr("none (recorded before commitments)", "无（早于承诺机制的记录）")))];
  if (m.seed === null) {
    lines.push(h("li", { id: "match-seed-hidden" }, tr("seed: revealed when the match ends", "种子：对局结束后公布")));
  } else {
    lines.push(h("li", {}, tr("seed ", "种子 "), h("code", { id: "match-seed" }, m.seed), tr(" · salt ", " · 盐 "), h("code", { id: "match-salt" }, m.salt || "-")));
    lines.push(h("li", { id: "match-commitment-check" }, tr("checking the commitment…", "正在核对承诺…")));
    lines.push(h("li", { id: "match-deals-check" }, tr("dealing every hand again from the seed…", "正在用种子重新发每一局…")));
  }
  return h("ul", { id: "match-fairness" }, ...lines);
}

/** SHA-256(salt || seed as 8 bytes big-endian), in hex: the commitment this seed and salt make. */
async function commitmentOf(seed, salt) {
  const bytes = new Uint8Array(salt.length / 2 + 8);
  for (let i = 0; i < salt.length / 2; i++) bytes[i] = parseInt(salt.slice(2 * i, 2 * i + 2), 16);
  new DataView(bytes.buffer).setBigUint64(salt.length / 2, BigInt(seed));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The checks of a finished match: the commitment here, in the browser; every deal dealt again
 * from the seed, its actions replayed (the server's GET /api/matches/ID/verify, `paiju verify`). */
async function checkDeals(m) {
  const mark = (sel, ok, text) => {
    const el = $(sel);
    if (!el) return;
    el.dataset.ok = String(ok);
    el.textContent = `${ok ? "✓" : "✗"} ${text}`;
  };
  if (m.commitment && m.salt && crypto.subtle) {
    const ok = (await commitmentOf(m.seed, m.salt)) === m.commitment;
    mark("#match-commitment-check", ok, ok ? tr("SHA-256(salt ‖ seed) is the commitment", "SHA-256(盐 ‖ 种子) 与承诺一致") : tr("SHA-256(salt ‖ seed) is NOT the commitment", "SHA-256(盐 ‖ 种子) 与承诺不符"));
  } else {
    mark("#match-commitment-check", false, tr("no commitment to check", "无可核对的承诺"));
  }
  try {
    const r = await api(`/api/matches/${m.id}/verify`);
    mark("#match-deals-check", r.ok, r.ok ? tr(`every deal (${r.deals} hands) comes from the seed`, `每一局（${r.deals} 局）都由该种子发出`) : r.problems.join("; "));
  } catch (e) {
    mark("#match-deals-check", false, e.message);
  }
}

/** The leaderboard of a game (robots included). */
async function showLeaderboard(game) {
  hooks.showScreen("records");
  const box = $("#records-body");
  box.dataset.view = "leaderboard";
  const pick = h("select", { id: "leaderboard-game", onchange: (e) => navigate(`/leaderboard/${e.target.value}`) }, ...GAME_ORDER.map((g) => h("option", { value: g, selected: g === game }, gameTitle(g))));
  let board;
  try {
    board = await api(`/api/leaderboard/${encodeURIComponent(game)}?limit=100`);
  } catch (e) {
    box.replaceChildren(pick, cannotShow(e, [`game ${game}`, `游戏 ${game}`]));
    return;
  }
  const rows = board.players.map((p) =>
    h(
      "tr",
      { "data-player": p.name },
      h("td", {}, String(p.rank)),
      h("td", {}, h("a", { href: `/players/${encodeURIComponent(p.name)}`, onclick: follow }, p.name)),
      h("td", {}, holderKind(p.kind)),
      h("td", { class: "rating" }, rating(p.rating)),
      h("td", {}, `${p.mu.toFixed(1)} ± ${(3 * p.sigma).toFixed(1)}`),
      h("td", {}, String(p.matches)),
    ),
  );
  box.replaceChildren(
    h("h2", {}, tr("Leaderboard ", "排行榜 "), pick),
    h("table", { id: "leaderboard" }, h("thead", {}, h("tr", {}, ...["#", tr("player", "玩家"), tr("kind", "类型"), tr("rating", "等级分"), tr("skill", "实力"), tr("matches", "对局数")].map((t) => h("th", {}, t)))), h("tbody", {}, ...rows)),
  );
}

/** Wire the header's account box and the records links; ``hooks`` come from app.js. */
export function initRecords(h0) {
  hooks = h0;
  renderAccount();
  // a guest's matches are kept under its name too
  $("#show-mine").addEventListener("click", () => navigate(`/players/${encodeURIComponent(me.name || hooks.myName())}`));
  // the leaderboard of the game last played here (mahjong at first)
  $("#show-leaderboard").addEventListener("click", () => navigate(`/leaderboard/${hooks.lastGame() || GAME_ORDER[0]}`));
  $("#records-back").addEventListener("click", () => navigate("/"));
  window.addEventListener("popstate", () => route() || hooks.lobby());
}

export { me as identity };
