// One model per game: built from a ROOM_STATE view (the game's view() in paiju/games/<game>/),
// kept current by the EVENTs that follow (SPEC.md §5), and drawn as a table. A game this
// page does not know gets the generic model: its hand, the last thing each seat did, and
// the raw view with cards in notation. Models only ever show what the frames carried: a
// card the server sent as 0x00 stays face down.

import { ACTION_CODES, ECHO, ROOM, ROOM_EVENTS, codesOf, gameInfo } from "./codes.js";
import { meaningText } from "./meanings.js";
import { HIDDEN, callEl, cardEl, cardsEl, cardText, cardsText, formatCall, handOrder, hex } from "./cards.js";
import { BRIDGE_SEATS, SYSTEM_CARD_URL, VULNERABILITY, actName, niujiuKind, seatBase, vulnerabilityWords } from "./words.js";
import { tr } from "./i18n.js";

const { HAND_START, DEAL, HAND_END } = ROOM;
// each game's codes by name (codes.js, checked against paiju/protocol/<game>.py)
const TRICKS = codesOf("tricks");
const BRIDGE = codesOf("bridge");
const NIUJIU = codesOf("niujiu");
const MAHJONG = codesOf("mahjong");

// ------------------------------------------------------------------ small DOM helpers
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("data-")) e.setAttribute(k, v);
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return e;
}

const arr = (b) => Array.from(b || []);
const faceUp = (b) => b.length > 0 && !Array.from(b).includes(HIDDEN);
function removeCards(list, cards) {
  for (const c of cards) {
    const i = list.indexOf(c);
    if (i >= 0) list.splice(i, 1);
    else if (list.indexOf(HIDDEN) >= 0) list.splice(list.indexOf(HIDDEN), 1);
  }
}
const backs = (n) => new Uint8Array(Math.max(0, n));

/**
 * Where each seat sits on screen, the receiver at the bottom (spectators: seat 0 there).
 * Bridge turns clockwise (the next seat on the left); the Chinese games turn
 * counterclockwise (the next seat on the right, the one a mahjong chow takes from on the left).
 */
export function positions(n, me, game = "") {
  const base = me ?? 0;
  const four = game === "bridge" ? ["bottom", "left", "top", "right"] : ["bottom", "right", "top", "left"];
  const places = { 2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: four }[n] || [];
  const out = {};
  for (let i = 0; i < n; i++) out[(base + i) % n] = places[i] || `extra${i}`;
  return out;
}

/** A card of seat ``seat``'s hand as the open prompt makes it (ctx.handCard: played by a click,
 * picked into a play, or neither): it answers a click, and Space (or Enter) once focused. */
function handCard(el, ctx, seat, b) {
  const how = ctx.handCard ? ctx.handCard(seat, b) : null;
  if (!how) return el;
  el.classList.add(...how.classes);
  el.tabIndex = 0;
  el.setAttribute("role", "button");
  el.addEventListener("click", () => how.click(false));
  el.addEventListener("keydown", (e) => {
    if (e.key !== " " && !(e.key === "Enter" && how.enter)) return;
    e.preventDefault();
    e.stopPropagation();
    how.click(true);
  });
  return el;
}

// ------------------------------------------------------------------ the shared part
class Model {
  constructor(game, me, nseats) {
    this.game = game;
    this.me = me;
    this.n = nseats;
    this.info = gameInfo(game);
    this.reset(0, 0);
  }

  reset(hand, dealer) {
    this.hand = hand;
    this.dealer = dealer;
    // each seat's cards while this page knows them: its own, and every seat's in the replay of
    // a finished hand (whose events carry every card face up); null: not known
    this.held = Array.from({ length: this.n }, () => null);
    this.mine = [];
    this.counts = Array(this.n).fill(0);
    this.last = Array(this.n).fill(null); // the last thing each seat did, as text
    this.turn = null;
  }

  /** The receiver's own cards (a spectator has none). */
  get mine() {
    if (this.me === null || this.me === undefined) return [];
    return (this.held[this.me] ??= []);
  }

  set mine(cards) {
    if (this.me !== null && this.me !== undefined) this.held[this.me] = cards;
  }

  /** Seat ``s`` gave up ``cards`` (played, discarded, melded): gone from its known hand. */
  take(s, cards) {
    if (s !== null && s !== undefined && this.held[s]) removeCards(this.held[s], cards);
  }

  /** Seat ``s`` drew ``cards``. */
  give(s, cards) {
    if (s !== null && s !== undefined && this.held[s]) this.held[s].push(...cards);
  }

  fromView(view) {
    this.view = view;
    if (view.hand instanceof Uint8Array) this.mine = arr(view.hand);
    if (Array.isArray(view.counts)) this.counts = [...view.counts];
  }

  /** Update from one event; returns nothing. Subclasses handle their own codes first. */
  onEvent(ev) {
    if (ev.code === HAND_START) {
      this.reset(ev.arg, ev.seat ?? 0);
      this.turn = ev.seat;
    } else if (ev.code === HAND_END) {
      this.turn = null;
    } else if (ev.code === DEAL) {
      if (ev.seat !== null && (ev.seat === this.me || faceUp(ev.cards))) this.held[ev.seat] = arr(ev.cards);
      if (ev.seat !== null) this.counts[ev.seat] = ev.cards.length;
    } else if (ev.code >= ECHO && ev.code < ECHO + ACTION_CODES && ev.seat !== null) {
      this.last[ev.seat] = `${actName(this.game, ev.code - ECHO)} ${cardsText(this.game, ev.cards)}`.trim();
    }
  }

  seatName(s, ctx) {
    return ctx.seatLabel(s);
  }

  /** The badge of the seat that opens the hand, and its tooltip: [English, 中文, title, 标题]. Each
   * game names it its own way (bridge's dealer 发牌 is not its declarer 庄家). */
  dealerBadge() {
    return ["L", "先", "leads the first trick", "首墩先出"];
  }

  /** The seat panel: name, badges, and what the seat holds. */
  seatPanel(s, ctx, body) {
    const badges = [];
    if (s === this.dealer) {
      const [en, zh, titleEn, titleZh] = this.dealerBadge();
      badges.push(h("span", { class: "badge dealer", title: tr(titleEn, titleZh) }, tr(en, zh)));
    }
    if (ctx.promptSeat === s || (ctx.promptSeat === null && this.turn === s)) badges.push(h("span", { class: "badge turn" }, tr("to act", "出牌")));
    if (ctx.isBot(s)) badges.push(h("span", { class: "badge bot" }, tr("robot", "机器人")));
    if (ctx.isAway(s)) badges.push(h("span", { class: "badge away" }, tr("away", "离线")));
    // a robot's seat says which robot plays it, in a line
    const robot = ctx.robotLine ? ctx.robotLine(s) : null;
    return h(
      "div",
      { class: `seat ${ctx.pos[s]}${s === this.me ? " me" : ""}`, "data-seat": s },
      h("div", { class: "seat-head" }, h("span", { class: "seat-name" }, this.seatName(s, ctx)), ...badges),
      robot ? h("div", { class: "robot-line", title: robot }, robot) : null,
      body,
    );
  }

  /** The receiver's hand; the cards that answer the open prompt (played by a click, or picked
   * into a play) respond to a click, and to Space or Enter once focused. */
  handRow(cards, ctx, { seat = this.me } = {}) {
    const row = h("div", { class: "hand", "data-hand-seat": seat });
    for (const b of handOrder(this.game, cards)) row.appendChild(handCard(cardEl(this.game, b), ctx, seat, b));
    return row;
  }

  /** Another seat's hand: face up when its cards are known (a replay), else its backs. */
  otherRow(s) {
    const known = this.held[s];
    if (known && known.length && faceUp(known)) {
      return h("div", { class: "hand open-hand", "data-hand-seat": s }, cardsEl(this.game, handOrder(this.game, known), { small: true }));
    }
    return this.hiddenRow(this.counts[s]);
  }

  hiddenRow(n) {
    if (!n) return null;
    return h("div", { class: "hand hidden-hand" }, cardsEl(this.game, backs(n), { small: true }), h("span", { class: "count" }, `${n}`));
  }

  render(ctx) {
    const seats = [];
    for (let s = 0; s < this.n; s++) {
      const body = s === this.me ? this.handRow(this.mine, ctx) : this.otherRow(s);
      seats.push(this.seatPanel(s, ctx, h("div", {}, body, this.last[s] ? h("div", { class: "last" }, this.last[s]) : null)));
    }
    return h("div", { class: `board seats-${this.n}` }, ...seats, h("div", { class: "center" }, this.center(ctx)));
  }

  center() {
    return h("pre", { class: "raw-view" }, this.view ? showView(this.game, this.view) : "");
  }
}

/** A view as text, card bytes in the game's notation (the generic fallback). */
export function showView(game, v, depth = 0) {
  if (v instanceof Uint8Array) return `[${cardsText(game, v)}]`;
  if (Array.isArray(v)) return `[${v.map((x) => showView(game, x, depth + 1)).join(", ")}]`;
  if (v && typeof v === "object") {
    const pad = "  ".repeat(depth);
    return Object.entries(v)
      .map(([k, x]) => `${depth ? "\n" + pad : ""}${k}: ${showView(game, x, depth + 1)}`)
      .join(depth ? "" : "\n");
  }
  return String(v);
}

// ------------------------------------------------------------------ the simple trick-taking game
class TricksModel extends Model {
  reset(hand, dealer) {
    super.reset(hand, dealer);
    this.leader = dealer;
    this.trick = []; // [seat, card]
    this.lastTrick = [];
    this.won = Array(this.n).fill(0);
    this.played = [];
  }

  fromView(v) {
    super.fromView(v);
    this.leader = v.leader ?? 0;
    this.trick = arr(v.trick).map((c, i) => [(this.leader + i) % this.n, c]);
    this.won = [...(v.won || this.won)];
    this.played = arr(v.played);
    this.turn = (this.leader + this.trick.length) % this.n;
  }

  onEvent(ev) {
    super.onEvent(ev);
    if (ev.code === HAND_START) {
      this.leader = ev.seat ?? 0;
    } else if (ev.code === TRICKS.echo.PLAY) {
      this.take(ev.seat, ev.cards);
      this.counts[ev.seat] -= ev.cards.length;
      for (const c of ev.cards) this.trick.push([ev.seat, c]);
      this.turn = (ev.seat + 1) % this.n;
    } else if (ev.code === TRICKS.events.TRICK) {
      this.played.push(...this.trick.map(([, c]) => c));
      this.lastTrick = this.trick;
      this.trick = [];
      this.won[ev.seat] = ev.arg;
      this.leader = ev.seat;
      this.turn = ev.seat;
    }
  }

  render(ctx) {
    const seats = [];
    for (let s = 0; s < this.n; s++) {
      const body = s === this.me ? this.handRow(this.mine, ctx) : this.otherRow(s);
      seats.push(this.seatPanel(s, ctx, h("div", {}, body, h("div", { class: "stat", "data-won": this.won[s] }, `${tr("tricks won", "吃墩")}: ${this.won[s]}`))));
    }
    return h("div", { class: `board seats-${this.n}` }, ...seats, h("div", { class: "center" }, trickArea(this, ctx, this.trick, this.lastTrick)));
  }
}

/** The trick in progress (or, faded, the last one) with each card at its player's side. */
function trickArea(model, ctx, trick, lastTrick, { label = null } = {}) {
  const shown = trick.length ? trick : lastTrick;
  const area = h("div", { class: "trick" + (trick.length ? "" : " done"), "data-trick-cards": shown.length });
  for (const [s, c] of shown) {
    area.appendChild(h("div", { class: `played ${ctx.pos[s]}` }, cardEl(model.game, c), h("small", {}, ctx.seatLabel(s, true))));
  }
  if (label) area.appendChild(h("div", { class: "trick-label" }, label));
  return area;
}

// ------------------------------------------------------------------ contract bridge

class BridgeModel extends Model {
  dealerBadge() {
    return ["D", "发", "dealer: calls first", "发牌人：第一个叫牌"];
  }

  reset(hand, dealer) {
    super.reset(hand, dealer);
    // the BOARD event that follows HAND_START gives the board's number and vulnerability
    this.board = null;
    this.vulnerable = null;
    this.phase = "auction";
    this.auction = [];
    this.explained = []; // each call's meaning in the bidding system (the text of its EVENT)
    this.explainAt = null; // the call whose meaning is shown under the auction (hovered or tapped)
    this.contract = null;
    this.doubled = 0;
    this.declarer = null;
    this.dummy = null;
    this.hands = [[], [], [], []];
    this.counts = [13, 13, 13, 13];
    this.leader = null;
    this.trick = [];
    this.lastTrick = [];
    this.won = [0, 0];
    this.claim = 0;
    this.turn = dealer;
  }

  fromView(v) {
    super.fromView(v);
    this.board = v.board;
    this.dealer = v.dealer;
    this.vulnerable = v.vulnerable;
    this.phase = v.phase;
    this.auction = [...v.auction];
    this.explained = [...(v.explained || [])];
    this.contract = v.contract;
    this.doubled = v.doubled;
    this.declarer = v.declarer;
    this.dummy = v.dummy;
    this.hands = v.hands.map(arr);
    this.counts = [...v.counts];
    this.leader = v.leader;
    // played: the finished tricks (4 cards each, led by leaders[i]), then the trick in progress
    const played = arr(v.played);
    const done = v.leaders.length;
    this.trick = played.slice(4 * done).map((c, i) => [(v.leader + i) % 4, c]);
    if (done) this.lastTrick = played.slice(4 * (done - 1), 4 * done).map((c, j) => [(v.leaders[done - 1] + j) % 4, c]);
    this.won = [...v.won];
    this.claim = v.claim;
    this.turn = (v.to_act || [])[0] ?? null;
    if (this.me !== null) this.mine = this.hands[this.me];
  }

  onEvent(ev) {
    const code = ev.code;
    if (code === HAND_START) {
      super.onEvent(ev);
      return;
    }
    if (code === DEAL) {
      if (ev.cards.length && ev.cards[0] !== HIDDEN) this.hands[ev.seat] = arr(ev.cards);
      this.counts[ev.seat] = ev.cards.length;
      if (ev.seat === this.me) this.mine = this.hands[ev.seat];
      return;
    }
    super.onEvent(ev);
    const act = code - ECHO;
    const { BID, PASS, DOUBLE, REDOUBLE, PLAY, CLAIM, REJECT } = BRIDGE.act;
    if (act === BID || act === PASS || act === DOUBLE || act === REDOUBLE) {
      // the auction holds call bytes: a bid's is its arg; pass, double, redouble are 0x00, 0x01, 0x02 (SPEC §4.3)
      this.auction.push(act === BID ? ev.arg : { [PASS]: 0x00, [DOUBLE]: 0x01, [REDOUBLE]: 0x02 }[act]);
      this.explained[this.auction.length - 1] = ev.text || "";
      this.turn = (ev.seat + 1) % 4;
    } else if (act === PLAY) {
      const c = ev.cards[0];
      removeCards(this.hands[ev.seat], [c]);
      this.counts[ev.seat] -= 1;
      if (!this.trick.length) this.leader = ev.seat;
      this.trick.push([ev.seat, c]);
      this.turn = (ev.seat + 1) % 4;
    } else if (act === CLAIM) {
      this.phase = "claim";
      this.claim = ev.arg;
    } else if (act === REJECT) {
      this.phase = "play";
      this.claim = 0;
    } else if (code === BRIDGE.events.CONTRACT) {
      this.declarer = ev.seat;
      this.contract = ev.arg & 0xff;
      this.doubled = ev.arg >> 8;
      this.dummy = (ev.seat + 2) % 4;
      this.leader = (ev.seat + 1) % 4;
      this.turn = this.leader;
      this.phase = "play";
    } else if (code === BRIDGE.events.PASSED_OUT) {
      this.phase = "over";
    } else if (code === BRIDGE.events.DUMMY) {
      this.hands[ev.seat] = arr(ev.cards);
    } else if (code === BRIDGE.events.TRICK) {
      this.won[ev.seat % 2] += 1;
      this.lastTrick = this.trick;
      this.trick = [];
      this.leader = ev.seat;
      this.turn = ev.seat;
    } else if (code === BRIDGE.events.REVEAL) {
      this.hands[ev.seat] = arr(ev.cards);
      this.counts[ev.seat] = ev.cards.length;
      this.phase = "over";
    } else if (code === BRIDGE.events.BOARD) {
      this.board = ev.arg >> 2;
      this.vulnerable = VULNERABILITY[ev.arg & 3];
      this.dealer = ev.seat;
    }
  }

  seatName(s, ctx) {
    let role = "";
    if (s === this.declarer) role = ` · ${tr("declarer", "庄家")}`;
    else if (s === this.dummy) role = ` · ${tr("dummy", "明手")}`;
    return `${BRIDGE_SEATS[s]} ${ctx.playerName(s)}${role}`;
  }

  contractText() {
    if (this.contract === null || this.contract === undefined) return this.phase === "over" ? tr("passed out", "四家不叫") : tr("auction", "叫牌中");
    const call = `${formatCall(this.contract)}${["", tr(" X", " 加倍"), tr(" XX", " 再加倍")][this.doubled]}`;
    return tr(`${call} by ${BRIDGE_SEATS[this.declarer]}`, `${call}，${BRIDGE_SEATS[this.declarer]}家主打`);
  }

  render(ctx) {
    const seats = [];
    for (let s = 0; s < 4; s++) {
      const cards = this.hands[s];
      let body;
      if (cards.length) {
        // the declarer plays dummy's cards: they are clickable for the prompt of dummy's seat
        body = suitRows(this, cards, ctx, s);
      } else {
        body = this.hiddenRow(this.counts[s]);
      }
      seats.push(this.seatPanel(s, ctx, body));
    }
    const vul = this.board === null ? null : h("span", { class: "vul" }, tr(`Board ${this.board} · dealer ${BRIDGE_SEATS[this.dealer]} · vulnerable: ${vulnerabilityWords(this.vulnerable)}`, `第 ${this.board} 副 · ${BRIDGE_SEATS[this.dealer]}家发牌 · ${vulnerabilityWords(this.vulnerable)}`));
    const center = h("div", { class: "bridge-center" }, vul, h("div", { class: "contract", "data-phase": this.phase }, this.contractText()));
    if (this.phase === "auction" || this.trick.length + this.lastTrick.length === 0) {
      center.appendChild(auctionTable(this));
    } else {
      center.appendChild(trickArea(this, ctx, this.trick, this.lastTrick));
      center.appendChild(h("div", { class: "stat" }, tr(`tricks NS ${this.won[0]} · EW ${this.won[1]}`, `墩数 南北 ${this.won[0]} · 东西 ${this.won[1]}`)));
      if (this.phase === "claim") center.appendChild(h("div", { class: "stat" }, tr(`declarer claims ${this.claim}`, `庄家摊牌要 ${this.claim} 墩`)));
      // the bidding stays in view during the play, as on a real table's bidding-box tray
      center.appendChild(auctionTable(this, true));
    }
    return h("div", { class: "board seats-4 bridge" }, ...seats, h("div", { class: "center" }, center));
  }
}

function suitRows(model, cards, ctx, seat) {
  const box = h("div", { class: "hand suits", "data-hand-seat": seat });
  for (const suit of [3, 2, 0, 1]) {
    const inSuit = handOrder("bridge", cards.filter((c) => c >> 4 === suit));
    const row = h("div", { class: "suit-row" }, h("span", { class: `suit-sym ${suit === 1 || suit === 2 ? "red" : "black"}` }, "♣♦♥♠"[suit]));
    for (const b of inSuit) {
      row.appendChild(handCard(cardEl("bridge", b, { small: true }), ctx, seat, b));
    }
    if (!inSuit.length) row.appendChild(h("span", { class: "void" }, "—"));
    box.appendChild(row);
  }
  return box;
}

/** The auction as the bidding-box table: columns N E S W (vulnerable seats marked, the dealer's
 * first call in its column), one row a round, and the contract under it once the bidding ends.
 * Under it, the meaning of the call hovered or tapped (the system's words the server sent with
 * the call, the same for a person's call as for a robot's), and the link to the system card. */
function auctionTable(model, compact = false) {
  const t = h("table", { class: compact ? "auction compact" : "auction", "data-calls": model.auction.length });
  const vulnerable = (s) => model.vulnerable === "All" || model.vulnerable === ["NS", "EW"][s % 2];
  t.appendChild(
    h("tr", {}, ...BRIDGE_SEATS.map((name, s) => h("th", { class: vulnerable(s) ? "vul-seat" : "", title: `${name}${s === model.dealer ? tr(" (dealer)", "（发牌）") : ""}` }, name[0] + (s === model.dealer ? "•" : "")))),
  );
  const meaning = h("div", { class: "call-meaning", "aria-live": "polite" });
  const show = (i) => {
    model.explainAt = i;
    for (const td of t.querySelectorAll("td[data-index]")) td.classList.toggle("selected", Number(td.dataset.index) === i);
    if ((i ?? null) === null || i >= model.auction.length) {
      delete meaning.dataset.index;
      meaning.replaceChildren(tr("Hover over or tap a call for its meaning.", "将指针移到叫品上或点按叫品，查看其含义。"));
      return;
    }
    meaning.dataset.index = i;
    const seat = (model.dealer + i) % 4;
    const call = `${BRIDGE_SEATS[seat]} ${formatCall(model.auction[i])}`;
    // one's own call: what the system (and so a robot partner) reads in it
    const label = seat === model.me ? tr(`${call}, as your partner reads it: `, `${call}，同伴的理解：`) : `${call}: `;
    // the system's words are text, never markup
    meaning.replaceChildren(h("b", {}, label), h("span", { class: "meaning-text" }, meaningText(model.explained[i]) || tr("no explanation", "没有解释")));
  };
  const cells = Array(model.dealer).fill(null).concat(model.auction);
  for (let i = 0; i < cells.length; i += 4) {
    const row = h("tr", {});
    for (let j = i; j < i + 4; j++) {
      if (j >= cells.length || cells[j] === null) {
        row.appendChild(h("td", {}, ""));
        continue;
      }
      const k = j - model.dealer;
      const text = model.explained[k] || "";
      const td = h("td", { class: "explained", "data-index": k, "data-explain": text, title: meaningText(text), tabindex: "0" }, callEl(cells[j]));
      td.addEventListener("mouseenter", () => show(k));
      td.addEventListener("focus", () => show(k));
      td.addEventListener("click", () => show(k));
      td.addEventListener("pointerup", () => show(k)); // a tap (a touch screen's pointer)
      row.appendChild(td);
    }
    t.appendChild(row);
  }
  if (model.phase !== "auction") t.appendChild(h("tr", { class: "auction-contract" }, h("td", { colspan: 4 }, model.contractText())));
  show(model.explainAt);
  const card = h("a", { class: "system-card-link", href: SYSTEM_CARD_URL, target: "_blank" }, tr("the bidding system", "叫牌体系"));
  return h("div", { class: compact ? "auction-box compact" : "auction-box" }, t, meaning, card);
}

// ------------------------------------------------------------------ Niujiu
class NiujiuModel extends Model {
  dealerBadge() {
    return ["H", "头", "the head: leads first", "头家：第一个出牌"];
  }

  reset(hand, dealer) {
    super.reset(hand, dealer);
    this.head = dealer;
    this.leader = dealer;
    this.myCovered = [];
    this.trick = []; // [seat, code, face-up cards, covered count]
    this.lastTrick = [];
    this.best = null;
    this.beaten = [];
    this.occupied = Array.from({ length: this.n }, () => []);
    this.enough = Array(this.n).fill(false);
    this.covered = Array(this.n).fill(0);
    this.revealed = Array.from({ length: this.n }, () => []);
    this.lastWinner = null;
  }

  fromView(v) {
    super.fromView(v);
    this.myCovered = arr(v.my_covered);
    this.head = v.head;
    this.dealer = v.head;
    this.leader = v.leader;
    this.turn = v.turn;
    this.trick = (v.trick || []).map(([s, code, cards, k]) => [s, code, arr(cards), k]);
    this.best = v.best;
    this.beaten = arr(v.beaten);
    this.occupied = v.occupied.map(arr);
    this.enough = [...v.enough];
    this.covered = [...v.covered_count];
    this.counts = [...v.hand_size];
    this.revealed = (v.revealed || []).map(arr);
  }

  onEvent(ev) {
    super.onEvent(ev);
    const code = ev.code;
    if (code === HAND_START) {
      this.head = ev.seat;
      this.leader = ev.seat;
    } else if (code === NIUJIU.echo.LEAD || code === NIUJIU.echo.EAT) {
      this.take(ev.seat, ev.cards);
      this.counts[ev.seat] -= ev.cards.length;
      this.trick.push([ev.seat, code - ECHO, arr(ev.cards), 0, ev.arg]);
      this.best = ev.seat;
      this.last[ev.seat] = `${code === NIUJIU.echo.LEAD ? tr("leads", "出") : tr("eats with", "吃")} ${niujiuKind(ev.arg)}`;
      this.turn = (ev.seat + 1) % this.n;
    } else if (code === NIUJIU.events.COVERED) {
      this.take(ev.seat, ev.cards);
      if (ev.seat === this.me) this.myCovered.push(...ev.cards);
      this.counts[ev.seat] -= ev.cards.length;
      this.covered[ev.seat] += ev.cards.length;
      this.trick.push([ev.seat, NIUJIU.act.COVER, [], ev.cards.length]);
      this.last[ev.seat] = tr(`covers ${ev.cards.length}`, `扣 ${ev.cards.length} 张`);
      this.turn = (ev.seat + 1) % this.n;
    } else if (code === NIUJIU.events.OCCUPY) {
      for (const [s, c, cards] of this.trick) if (c !== NIUJIU.act.COVER && s !== ev.seat) this.beaten.push(...cards);
      this.occupied[ev.seat].push(...ev.cards);
      this.lastTrick = this.trick;
      this.lastWinner = ev.seat;
      this.trick = [];
      this.best = null;
      this.leader = ev.seat;
      this.turn = ev.seat;
    } else if (code === NIUJIU.events.ENOUGH) {
      this.enough[ev.seat] = true;
    } else if (code === NIUJIU.events.REVEAL) {
      this.revealed[ev.seat] = arr(ev.cards);
      this.counts[ev.seat] = 0;
      this.held[ev.seat] = [];
      this.turn = null;
    }
  }

  render(ctx) {
    const seats = [];
    for (let s = 0; s < this.n; s++) {
      const parts = [];
      if (s === this.me) parts.push(this.handRow(this.mine, ctx));
      else if (this.counts[s]) parts.push(this.otherRow(s));
      if (this.revealed[s] && this.revealed[s].length) parts.push(h("div", { class: "stat" }, tr("revealed ", "亮牌 "), cardsEl("niujiu", this.revealed[s], { small: true })));
      const occ = h(
        "div",
        { class: "occupied", "data-occupied": this.occupied[s].length },
        h("span", { class: "label" }, `${tr("occupied", "占")} ${this.occupied[s].length}`),
        this.enough[s] ? h("span", { class: "badge enough" }, tr("enough 够", "够")) : null,
        cardsEl("niujiu", this.occupied[s], { small: true }),
      );
      parts.push(occ);
      if (this.covered[s]) {
        const mine = s === this.me && this.myCovered.length ? cardsEl("niujiu", this.myCovered, { small: true }) : null;
        parts.push(h("div", { class: "stat covered" }, `${tr("covered", "扣")} ${this.covered[s]} `, mine));
      }
      if (this.last[s]) parts.push(h("div", { class: "last" }, this.last[s]));
      seats.push(this.seatPanel(s, ctx, h("div", {}, ...parts)));
    }
    const shown = this.trick.length ? this.trick : this.lastTrick;
    const area = h("div", { class: "trick niujiu-trick" + (this.trick.length ? "" : " done"), "data-trick-plays": shown.length });
    for (const [s, code, cards, k] of shown) {
      const face = code === NIUJIU.act.COVER ? cardsEl("niujiu", backs(k), { small: true }) : cardsEl("niujiu", cards, { small: true });
      const winner = this.trick.length ? s === this.best : s === this.lastWinner;
      area.appendChild(h("div", { class: `played ${ctx.pos[s]}${winner ? " best" : ""}` }, face, h("small", {}, ctx.seatLabel(s, true))));
    }
    const center = h(
      "div",
      { class: "niujiu-center" },
      h("div", { class: "stat" }, tr(`head ${ctx.seatLabel(this.head, true)} · beaten ${this.beaten.length}`, `头家 ${ctx.seatLabel(this.head, true)} · 已出 ${this.beaten.length} 张`)),
      area,
    );
    return h("div", { class: `board seats-${this.n} niujiu` }, ...seats, h("div", { class: "center" }, center));
  }
}

// ------------------------------------------------------------------ mahjong
// meld kinds of the view (paiju.protocol.mahjong.MeldKind): the echo of a claim carries the whole meld
const MELD = MAHJONG.meldKinds;
const MELD_NAMES = {
  [MELD.CHOW]: tr("chow", "吃"),
  [MELD.PONG]: tr("pong", "碰"),
  [MELD.KONG_EXPOSED]: tr("kong", "明杠"),
  [MELD.KONG_CONCEALED]: tr("concealed kong", "暗杠"),
  [MELD.KONG_ADDED]: tr("added kong", "补杠"),
};
const CLAIMED_MELD = { [MAHJONG.echo.CHOW]: MELD.CHOW, [MAHJONG.echo.PONG]: MELD.PONG, [MAHJONG.echo.KONG]: MELD.KONG_EXPOSED };

class MahjongModel extends Model {
  dealerBadge() {
    return ["D", "庄", "dealer", "庄家"];
  }

  reset(hand, dealer) {
    super.reset(hand, dealer);
    this.discards = Array.from({ length: this.n }, () => []);
    this.melds = Array.from({ length: this.n }, () => []); // {kind, tiles, from}
    this.ready = Array(this.n).fill(false);
    this.revealed = Array.from({ length: this.n }, () => []);
    this.lastDiscard = null; // [seat, tile] while it may be claimed
    this.drawn = null;
    this.wall = null;
    this.winner = null;
    this.drawnHand = false;
  }

  fromView(v) {
    super.fromView(v);
    this.dealer = v.dealer;
    this.mine = arr(v.hand).concat(arr(v.drawn)); // the view keeps the drawn tile apart
    this.drawn = v.drawn && v.drawn.length ? v.drawn[0] : null;
    this.counts = [...v.counts];
    this.discards = v.discards.map(arr);
    this.melds = v.melds.map((list) => list.map((m) => ({ kind: m.kind, tiles: arr(m.tiles), from: m.from })));
    this.wall = v.wall;
    this.ready = v.ready.map(Boolean);
    this.turn = v.phase === "turn" ? v.turn : null;
    if (v.discarder >= 0) {
      const river = this.discards[v.discarder];
      this.lastDiscard = [v.discarder, river[river.length - 1]];
    }
    if (Array.isArray(v.hands)) this.revealed = v.hands.map(arr);
  }

  /** A tile leaves a river: it was claimed. */
  takeDiscard(from, tile) {
    const river = this.discards[from];
    if (river && river.length && river[river.length - 1] === tile) river.pop();
    this.lastDiscard = null;
  }

  onEvent(ev) {
    super.onEvent(ev);
    const code = ev.code;
    const s = ev.seat;
    const tiles = arr(ev.cards);
    const { DRAW, REPLACEMENT, WALL, REVEAL, DRAWN_HAND } = MAHJONG.events;
    const { DISCARD, READY, CHOW, PONG, KONG, HU } = MAHJONG.echo;
    if (code === DRAW || code === REPLACEMENT) {
      // a draw or a kong's replacement: arg = tiles left in the wall
      this.counts[s] += tiles.length;
      this.give(s, tiles);
      this.drawn = s === this.me ? tiles[0] : null;
      this.wall = ev.arg;
      this.turn = s;
      this.lastDiscard = null;
      this.last[s] = code === DRAW ? tr("draws", "摸牌") : tr("draws a replacement", "补摸");
    } else if (code === DISCARD || code === READY) {
      this.take(s, tiles);
      this.counts[s] -= 1;
      this.discards[s].push(...tiles);
      this.lastDiscard = [s, tiles[0]];
      if (code === READY) this.ready[s] = true;
      this.drawn = null;
      this.turn = null; // a claim window may be open
    } else if (code === CHOW || code === PONG || (code === KONG && tiles.length === 4 && ev.arg !== s)) {
      // chow, pong, exposed kong: the meld with the discard (arg = the discarder)
      const claimed = this.lastDiscard ? this.lastDiscard[1] : tiles[0];
      const fromHand = [...tiles];
      fromHand.splice(fromHand.indexOf(claimed), 1);
      this.take(s, fromHand);
      this.counts[s] -= fromHand.length;
      this.takeDiscard(ev.arg, claimed);
      this.melds[s].push({ kind: CLAIMED_MELD[code], tiles, from: ev.arg });
      this.turn = s;
    } else if (code === KONG && tiles.length === 4) {
      // a concealed kong: its tiles reach only the seat itself (0x00 for everyone else)
      this.take(s, tiles);
      this.counts[s] -= 4;
      this.melds[s].push({ kind: MELD.KONG_CONCEALED, tiles, from: s });
      this.turn = s;
    } else if (code === KONG && tiles.length === 1) {
      this.take(s, tiles);
      this.counts[s] -= 1;
      const pong = this.melds[s].find((m) => m.kind === MELD.PONG && m.tiles[0] === tiles[0]);
      if (pong) {
        pong.tiles.push(tiles[0]);
        pong.kind = MELD.KONG_ADDED;
      } else this.melds[s].push({ kind: MELD.KONG_ADDED, tiles, from: s });
      this.turn = s;
    } else if (code === HU) {
      // hu: the winning tile, arg = the seat it came from (the winner itself on a self-draw)
      if (ev.arg !== s) this.takeDiscard(ev.arg, tiles[0]);
      this.winner = s;
      this.winTile = tiles[0];
      this.turn = null;
    } else if (code === WALL) {
      this.wall = ev.arg;
    } else if (code === REVEAL) {
      this.revealed[s] = tiles;
      this.turn = null;
    } else if (code === DRAWN_HAND) {
      this.drawnHand = true;
      this.turn = null;
    }
    if (code === CHOW || code === PONG || code === KONG) {
      const m = this.melds[s][this.melds[s].length - 1];
      this.last[s] = m ? MELD_NAMES[m.kind] : this.last[s];
    }
  }

  seatName(s, ctx) {
    return `${seatBase("mahjong", s, this.dealer)} · ${ctx.playerName(s)}${this.ready[s] ? tr(" · ready 听", " · 听") : ""}`;
  }

  render(ctx) {
    const seats = [];
    for (let s = 0; s < this.n; s++) {
      const parts = [];
      if (s === this.me) {
        const row = this.handRow(this.mine, ctx);
        if (this.drawn !== null && this.turn === this.me) {
          // the tile just drawn stands apart, at the end
          const key = this.drawn.toString(16).padStart(2, "0");
          const el = [...row.children].reverse().find((e) => e.dataset.card === key);
          if (el) {
            el.classList.add("drawn");
            row.appendChild(el);
          }
        }
        parts.push(row);
      } else if (this.revealed[s].length) {
        parts.push(h("div", { class: "hand revealed" }, cardsEl("mahjong", this.revealed[s], { small: true })));
      } else {
        parts.push(this.otherRow(s));
      }
      if (this.melds[s].length) {
        parts.push(
          h(
            "div",
            { class: "melds" },
            ...this.melds[s].map((m) => h("span", { class: "meld", "data-kind": m.kind, title: MELD_NAMES[m.kind] }, cardsEl("mahjong", m.tiles, { small: true }))),
          ),
        );
      }
      const river = h("div", { class: "river", "data-discards": this.discards[s].length });
      this.discards[s].forEach((t, i) => {
        const el = cardEl("mahjong", t, { small: true });
        if (this.lastDiscard && this.lastDiscard[0] === s && i === this.discards[s].length - 1) el.classList.add("last-discard");
        river.appendChild(el);
      });
      parts.push(river);
      if (this.last[s]) parts.push(h("div", { class: "last" }, this.last[s]));
      seats.push(this.seatPanel(s, ctx, h("div", {}, ...parts)));
    }
    const status = [];
    if (this.wall !== null) status.push(tr(`wall ${this.wall}`, `牌墙 ${this.wall}`));
    if (this.winner !== null) status.push(tr(`${ctx.seatLabel(this.winner, true)} wins (hu 胡)`, `${ctx.seatLabel(this.winner, true)}胡了`));
    if (this.drawn !== null && this.turn === this.me) status.push(tr("you drew", "你摸了牌"));
    if (this.drawnHand) status.push(tr("drawn hand: the wall is empty", "流局：牌墙已空"));
    const center = h(
      "div",
      { class: "mahjong-center" },
      h("div", { class: "stat" }, status.join(" · ") || tr("mahjong", "麻将")),
      this.lastDiscard ? h("div", { class: "claimable" }, tr(`${ctx.seatLabel(this.lastDiscard[0], true)} discarded `, `${ctx.seatLabel(this.lastDiscard[0], true)}打出 `), cardEl("mahjong", this.lastDiscard[1])) : null,
    );
    return h("div", { class: "board seats-4 mahjong" }, ...seats, h("div", { class: "center" }, center));
  }
}

const MODELS = { tricks: TricksModel, bridge: BridgeModel, niujiu: NiujiuModel, mahjong: MahjongModel };

/** The model of ``game`` for the receiver ``me`` (null: a spectator) from a ROOM_STATE view. */
export function makeModel(game, me, nseats, view) {
  const Cls = MODELS[game] || Model;
  const m = new Cls(game, me, nseats);
  // a room still waiting for players sends an empty view: the events of the deal fill it
  if (!view || !Object.keys(view).length) return m;
  try {
    m.fromView(view);
  } catch (e) {
    // a view of a shape this page does not expect: fall back to the generic model
    console.warn(`paiju: ${game} view not understood, using the generic table`, e);
    const g = new Model(game, me, nseats);
    g.fromView(view || {});
    return g;
  }
  return m;
}

// The actions whose option holds cards of the seat's own hand, one of which is the whole
// answer: only these make a card of the hand clickable (a bridge bid's byte is a call, and the
// 3 of spades has the byte of a 3♠ bid: a card never answers by its byte alone).
const HAND_ACTS = { tricks: ["PLAY"], bridge: ["PLAY"], niujiu: ["LEAD", "EAT"], mahjong: ["DISCARD"] };

// The games whose plays are sets of cards picked in the hand (a lead or eat of any pattern, a
// cover of any k cards): a click picks a card, a button plays the picked ones (app.js, picks.js).
const PICKED = new Set(["niujiu"]);

/** Whether ``game``'s prompts are answered by picking cards in the hand, then playing them. */
export function picksCards(game) {
  return PICKED.has(game);
}

/** Whether action ``code`` of ``game`` is one that a click on a hand's card answers. */
export function handAct(game, code) {
  const names = HAND_ACTS[game];
  return Boolean(names) && names.includes(gameInfo(game).act[code]);
}

/** How an option's bytes read on a button (bridge bids are calls, not cards). */
export function optionFace(game, code, bytes) {
  if (game === "bridge" && code === BRIDGE.act.BID) return h("span", {}, ...Array.from(bytes, (b) => callEl(b)));
  return cardsEl(game, bytes, { small: bytes.length > 3 });
}

export { BRIDGE_SEATS, MELD_NAMES, ROOM_EVENTS, hex };
