// Card and tile faces. A card or tile is one byte: high nibble suit, low nibble rank
// (SPEC.md §4); 0x00 is a card face down. Mahjong tiles are drawn as small SVGs (pips,
// sticks, numerals, winds, dragons; 万 and 发 need a CJK font, e.g. fonts-wqy-microhei);
// playing cards use the suit symbols ♠♥♦♣; the simple trick-taking game shows its card
// numbers 1..2n (the k-th card of a pack in byte order).

import { ZH, tr } from "./i18n.js";

export const HIDDEN = 0x00;
const SUIT_LETTERS = "CDHS";
const SUIT_SYMBOLS = ["♣", "♦", "♥", "♠"];
const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];
const SUIT_NAMES_ZH = ["梅花", "方块", "红桃", "黑桃"];
const MJ_SUITS = "msp";
const MJ_SUIT_NAMES = ["characters", "bamboo", "dots"];
const HONOURS = "ESWNCFP";
const HONOUR_NAMES = ZH ? ["东风", "南风", "西风", "北风", "红中", "发财", "白板"] : ["East", "South", "West", "North", "Red dragon", "Green dragon", "White dragon"];
// Chinese tile names (simplified characters only): 五筒, 东; the wind's character on its tile
const MJ_SUITS_ZH = ["万", "条", "筒"];
const HONOURS_ZH = "东南西北中发白";
const STRAINS = ["♣", "♦", "♥", "♠", tr("NT", "无将")];
const STRAIN_LETTERS = ["C", "D", "H", "S", "NT"];

export const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
export const fromHex = (s) => new Uint8Array((s.match(/../g) || []).map((h) => parseInt(h, 16)));

// ------------------------------------------------------------------ notation (SPEC §4)
export function rankText(rank) {
  return { 1: "A", 10: "10", 11: "J", 12: "Q", 13: "K", 14: "A" }[rank] || String(rank);
}

/** Playing card notation as paiju.protocol.cards.format_card: 0x3e -> "SA", 0x0a -> "CT". */
export function formatCard(b) {
  if (b === HIDDEN) return "??";
  const r = b & 15;
  return SUIT_LETTERS[b >> 4] + ({ 1: "A", 10: "T", 11: "J", 12: "Q", 13: "K", 14: "A" }[r] || String(r));
}

/** Mahjong notation as paiju.protocol.cards.format_tile: 0x25 -> "5p", 0x31 -> "E". */
export function formatTile(b) {
  if (b === HIDDEN) return "?";
  const s = b >> 4;
  const r = b & 15;
  return s === 3 ? HONOURS[r - 1] : `${r}${MJ_SUITS[s]}`;
}

/** Bridge call notation: 0x34 -> "3NT", 0 -> "Pass", 1 -> "X", 2 -> "XX" (in Chinese 3无将,
 * 不叫, 加倍, 再加倍). */
export function formatCall(b) {
  if (b === 0) return tr("Pass", "不叫");
  if (b === 1) return tr("X", "加倍");
  if (b === 2) return tr("XX", "再加倍");
  return `${b >> 4}${STRAINS[b & 15]}`;
}
export function callLetters(b) {
  return b < 3 ? ["P", "X", "XX"][b] : `${b >> 4}${STRAIN_LETTERS[b & 15]}`;
}

/** The simple trick-taking game's number of a card byte: C2 = 1 ... SA = 52. */
export function tricksNumber(b) {
  return (b >> 4) * 13 + (b & 15) - 1;
}

/** How the game names its cards, for logs and titles. */
export function cardText(game, b) {
  if (b === HIDDEN) return game === "mahjong" ? "?" : "??";
  if (game === "mahjong") return ZH ? tileZh(b) : formatTile(b);
  if (game === "tricks") return `#${tricksNumber(b)}`;
  const s = b >> 4;
  return `${SUIT_SYMBOLS[s] || "?"}${rankText(b & 15)}`;
}
export function cardsText(game, bytes) {
  return Array.from(bytes, (b) => cardText(game, b)).join(" ");
}

function tileZh(b) {
  const s = b >> 4;
  const r = b & 15;
  return s === 3 ? HONOURS_ZH[r - 1] : `${r}${MJ_SUITS_ZH[s]}`;
}

function longName(game, b) {
  if (b === HIDDEN) return tr("face down", "暗牌");
  if (game === "mahjong") {
    const s = b >> 4;
    const r = b & 15;
    if (ZH) return s === 3 ? HONOUR_NAMES[r - 1] : tileZh(b);
    return s === 3 ? HONOUR_NAMES[r - 1] : `${r} ${MJ_SUIT_NAMES[s]} (${formatTile(b)})`;
  }
  if (game === "tricks") return tr(`card ${tricksNumber(b)} (${formatCard(b)})`, `${tricksNumber(b)} 号牌`);
  return tr(`${rankText(b & 15)} of ${SUIT_NAMES[b >> 4]} (${formatCard(b)})`, `${SUIT_NAMES_ZH[b >> 4]} ${rankText(b & 15)}`);
}

// ------------------------------------------------------------------ elements
const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// pip positions of 1..9 in a 30 x 40 tile face
const PIPS = {
  1: [[15, 20]],
  2: [[15, 11], [15, 29]],
  3: [[8, 9], [15, 20], [22, 31]],
  4: [[9, 11], [21, 11], [9, 29], [21, 29]],
  5: [[8, 9], [22, 9], [15, 20], [8, 31], [22, 31]],
  6: [[9, 8], [21, 8], [9, 20], [21, 20], [9, 32], [21, 32]],
  7: [[6, 6], [15, 10], [24, 14], [9, 24], [21, 24], [9, 34], [21, 34]],
  8: [[9, 6], [21, 6], [9, 15], [21, 15], [9, 25], [21, 25], [9, 34], [21, 34]],
  9: [[7, 8], [15, 8], [23, 8], [7, 20], [15, 20], [23, 20], [7, 32], [15, 32], [23, 32]],
};
const PIP_R = { 1: 8, 2: 5.5, 3: 5, 4: 5, 5: 4.6, 6: 4.4, 7: 3.8, 8: 3.8, 9: 3.8 };
const PIP_COLOURS = ["#1f5fbf", "#2e8b3a", "#c62828"];

function tileFace(b) {
  const s = b >> 4;
  const r = b & 15;
  const g = svg("svg", { viewBox: "0 0 30 40", class: "face", "aria-hidden": "true" });
  if (s === 2) {
    PIPS[r].forEach(([x, y], i) => {
      const c = PIP_COLOURS[(i + r) % 3];
      svg("circle", { cx: x, cy: y, r: PIP_R[r], fill: "none", stroke: c, "stroke-width": 1.6 }, g);
      svg("circle", { cx: x, cy: y, r: PIP_R[r] / 3, fill: c }, g);
    });
  } else if (s === 1) {
    const h = r === 1 ? 26 : r <= 4 ? 14 : 9;
    const w = r === 1 ? 6 : 3.4;
    PIPS[r].forEach(([x, y], i) => {
      const c = r === 1 || (r >= 5 && i === Math.floor(r / 2)) ? "#c62828" : "#2e8b3a";
      svg("rect", { x: x - w / 2, y: y - h / 2, width: w, height: h, rx: 1.4, fill: c }, g);
      svg("line", { x1: x - w / 2, x2: x + w / 2, y1: y, y2: y, stroke: "#fff", "stroke-width": 0.8 }, g);
    });
  } else if (s === 0) {
    const t = svg("text", { x: 15, y: 19, "text-anchor": "middle", "font-size": 17, "font-weight": "bold", fill: "#14306b" }, g);
    t.textContent = String(r);
    const w = svg("text", { x: 15, y: 35, "text-anchor": "middle", "font-size": 14, "font-weight": "bold", fill: "#c62828" }, g);
    w.textContent = "万";
  } else if (r <= 4) {
    const t = svg("text", { x: 15, y: 27, "text-anchor": "middle", "font-size": 20, "font-weight": "bold", fill: "#14306b" }, g);
    t.textContent = ZH ? HONOURS_ZH[r - 1] : HONOURS[r - 1];
  } else if (r === 5) {
    // 中: a box crossed by one stroke, in red
    svg("rect", { x: 6, y: 13, width: 18, height: 12, fill: "none", stroke: "#c62828", "stroke-width": 3 }, g);
    svg("line", { x1: 15, x2: 15, y1: 5, y2: 35, stroke: "#c62828", "stroke-width": 3.4 }, g);
  } else if (r === 6) {
    const t = svg("text", { x: 15, y: 28, "text-anchor": "middle", "font-size": 20, "font-weight": "bold", fill: "#2e8b3a" }, g);
    t.textContent = "发";
  } else {
    svg("rect", { x: 5, y: 6, width: 20, height: 28, fill: "none", stroke: "#1f5fbf", "stroke-width": 2.4 }, g);
  }
  return g;
}

/**
 * The element of one card or tile of ``game`` (byte ``b``); small = a compact face.
 * Every face carries data-card (the byte in hex) and a title with its full name.
 */
export function cardEl(game, b, { small = false } = {}) {
  const el = document.createElement("span");
  el.dataset.card = b.toString(16).padStart(2, "0");
  el.title = longName(game, b);
  if (game === "mahjong") {
    el.className = "tile" + (small ? " small" : "") + (b === HIDDEN ? " back" : "");
    if (b !== HIDDEN) el.appendChild(tileFace(b));
    return el;
  }
  el.className = "card" + (small ? " small" : "") + (b === HIDDEN ? " back" : "");
  if (b === HIDDEN) return el;
  const s = b >> 4;
  if (game === "tricks") {
    el.classList.add("number");
    el.innerHTML = `<b class="rank">${tricksNumber(b)}</b>`;
    return el;
  }
  el.classList.add(s === 1 || s === 2 ? "red" : "black");
  el.innerHTML = `<b class="rank">${rankText(b & 15)}</b><i class="suit">${SUIT_SYMBOLS[s]}</i>`;
  return el;
}

/** A row of cards. */
export function cardsEl(game, bytes, opts = {}) {
  const row = document.createElement("span");
  row.className = "cards";
  for (const b of bytes) row.appendChild(cardEl(game, b, opts));
  return row;
}

/** A bridge call as an element (red strains in red). */
export function callEl(b) {
  const el = document.createElement("span");
  el.className = "call";
  el.dataset.call = b.toString(16).padStart(2, "0");
  if (b < 3) {
    el.textContent = formatCall(b);
    el.classList.add(b === 0 ? "pass" : "dbl");
  } else {
    const strain = b & 15;
    el.innerHTML = `${b >> 4}<span class="${strain === 1 || strain === 2 ? "red" : "black"}">${STRAINS[strain]}</span>`;
  }
  return el;
}

/** Sort key for showing a hand: suits grouped, high ranks first for cards, low first for tiles. */
export function handOrder(game, bytes) {
  const a = Array.from(bytes);
  if (game === "mahjong" || game === "tricks") return a.sort((x, y) => x - y);
  if (game === "niujiu") return a.sort((x, y) => (x & 15) - (y & 15) || (x >> 4) - (y >> 4));
  // bridge: spades, hearts, clubs, diamonds alternate colours; high first
  const order = [3, 2, 0, 1];
  return a.sort((x, y) => order.indexOf(x >> 4) - order.indexOf(y >> 4) || (y & 15) - (x & 15));
}
