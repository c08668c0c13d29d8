// The table in a player's words: seat names (mahjong winds 東南西北, bridge compass points),
// and one sentence per event for the event log. Only what the frame carried is told: a card
// sent face down (0x00) is not named.

import { ACTION_CODES, ECHO, ROOM, SEAT_KINDS, codesOf, gameInfo } from "./codes.js";
import { HIDDEN, cardsText, formatCall } from "./cards.js";

export const BRIDGE_SEATS = ["North", "East", "South", "West"];
// a mahjong seat's wind for the hand: the dealer is East, then counterclockwise
/** A bridge vulnerability as players say it: "None" is neither side, "All" both. */
export function vulnerabilityWords(vul) {
  return { None: "neither side", NS: "North-South", EW: "East-West", All: "both sides" }[vul] ?? vul;
}
/** The vulnerabilities by their index in a BOARD event's arg (protocol/bridge.py). */
export const VULNERABILITY = ["None", "NS", "EW", "All"];

export const WINDS = [
  ["East", "東"],
  ["South", "南"],
  ["West", "西"],
  ["North", "北"],
];

/** The seat's name at the table: "North", "East 東" (mahjong, from the dealer), "seat 2". */
export function seatBase(game, s, dealer = 0) {
  if (game === "bridge") return BRIDGE_SEATS[s];
  if (game === "mahjong") {
    const [en, zh] = WINDS[(s - dealer + 4) % 4];
    return `${zh} ${en}`;
  }
  return `seat ${s + 1}`;
}

// Niujiu's pattern kinds (protocol/niujiu.py Kind) as players call them
const NIUJIU_KINDS = {
  SINGLE: "a single",
  PAIR: "a pair",
  TRIPLE: "a triple",
  LIANGZI: "a liangzi 亮子",
  NIU_PAIR: "二牛 (two niu)",
  NIU_TRIPLE: "三牛 (three niu)",
  XI_PAIR: "二喜 (two xi)",
  XI_TRIPLE: "三喜 (three xi)",
  YU: "鱼 (yu)",
  BAI: "摆 (bai)",
  YU_LIANG: "鱼亮 (yu-liang)",
  BAI_LIANG: "摆亮 (bai-liang)",
  XI_BAO_LIANG: "喜包亮 (xi-bao-liang)",
};

export function niujiuKind(arg) {
  const name = gameInfo("niujiu").kinds[arg];
  return NIUJIU_KINDS[name] || "a pattern";
}

const shown = (bytes) => bytes.length > 0 && !Array.from(bytes).includes(HIDDEN);
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * One event as a sentence, or null for one not worth a line. ``who(s)`` names a seat;
 * ``me`` is the receiver's seat (null: a spectator).
 */
export function eventText(game, f, who, me) {
  const w = f.seat === null || f.seat === undefined ? "" : who(f.seat);
  const cards = (b = f.cards) => cardsText(game, b);
  switch (f.code) {
    case ROOM.HAND_START: {
      const start = `Hand ${f.arg + 1} begins`;
      if (f.seat === null) return `${start}.`;
      if (game === "bridge") return `${start}.`; // BOARD follows with the dealer
      if (game === "mahjong") return `${start}: ${w} is the dealer.`;
      if (game === "niujiu") return `${start}: ${w} is the head (头家).`;
      return `${start}: ${w} leads.`;
    }
    case ROOM.DEAL:
      if (f.seat === me && shown(f.cards)) return `You are dealt ${cards()}.`;
      return null; // the others' deals say nothing a player reads
    case ROOM.HAND_END:
      return "The hand is over.";
    case ROOM.SEAT: {
      const kind = SEAT_KINDS[f.arg];
      if (kind === "HUMAN") return `${w}: a player sits down.`;
      if (kind === "BOT") return `${w}: a robot takes the seat.`;
      if (kind === "AWAY") return `${w} has lost the connection; the seat is kept for a while.`;
      return `${w}: the seat is free.`;
    }
    case ROOM.TIMEOUT:
      return `${w} ran out of time: the default move is played.`;
    case ROOM.MATCH_END:
      return "The match is over.";
    case ROOM.ROBOT:
      return f.arg ? `A robot plays for ${w} for now.` : `${w} is back at the controls.`;
  }
  const words = { tricks: tricksText, bridge: bridgeText, niujiu: niujiuText, mahjong: mahjongText }[game];
  const text = words ? words(f, w, who, me, cards) : undefined;
  if (text !== undefined) return text;
  // a game this page does not know: the code's name and the cards
  const info = gameInfo(game);
  const name = f.code >= ECHO && f.code < ECHO + ACTION_CODES ? info.act[f.code - ECHO] : info.events[f.code];
  return `${w} ${(name || `event ${f.code}`).toLowerCase().replace(/_/g, " ")} ${shown(f.cards) ? cards() : ""}`.trim();
}

const TRICKS = codesOf("tricks");
const BRIDGE = codesOf("bridge");
const NIUJIU = codesOf("niujiu");
const MAHJONG = codesOf("mahjong");

function tricksText(f, w, who, me, cards) {
  if (f.code === TRICKS.echo.PLAY) return `${w} plays ${cards()}.`;
  if (f.code === TRICKS.events.TRICK) return `${w} wins the trick (${plural(f.arg, "trick")} won).`;
  return undefined;
}

function bridgeText(f, w, who, me, cards) {
  switch (f.code) {
    case BRIDGE.echo.BID:
      return `${w} bids ${formatCall(f.arg)}.`;
    case BRIDGE.echo.PASS:
      return `${w} passes.`;
    case BRIDGE.echo.DOUBLE:
      return `${w} doubles.`;
    case BRIDGE.echo.REDOUBLE:
      return `${w} redoubles.`;
    case BRIDGE.echo.PLAY:
      return `${w} plays ${cards()}.`;
    case BRIDGE.echo.CLAIM:
      return `${w} claims ${plural(f.arg, "more trick")}.`;
    case BRIDGE.echo.ACCEPT:
      return `${w} accepts the claim.`;
    case BRIDGE.echo.REJECT:
      return `${w} rejects the claim: play goes on.`;
    case BRIDGE.events.CONTRACT:
      return `The contract is ${formatCall(f.arg & 0xff)}${["", " doubled", " redoubled"][f.arg >> 8]}, played by ${w}.`;
    case BRIDGE.events.PASSED_OUT:
      return "All four pass: the board is passed out.";
    case BRIDGE.events.DUMMY:
      return `${w} is dummy and lays down the hand.`;
    case BRIDGE.events.TRICK:
      return `${w} wins the trick.`;
    case BRIDGE.events.REVEAL:
      return shown(f.cards) ? `${w} held ${cards()}.` : null;
    case BRIDGE.events.BOARD:
      return `Board ${f.arg >> 2}: ${w} deals, ${vulnerabilityWords(VULNERABILITY[f.arg & 3])} vulnerable.`;
  }
  return undefined;
}

function niujiuText(f, w, who, me, cards) {
  switch (f.code) {
    case NIUJIU.echo.LEAD:
      return `${w} leads ${niujiuKind(f.arg)}: ${cards()}.`;
    case NIUJIU.echo.EAT:
      return `${w} eats with ${niujiuKind(f.arg)}: ${cards()}.`;
    case NIUJIU.echo.COVER:
    case NIUJIU.events.COVERED:
      return f.seat === me && shown(f.cards) ? `You cover ${cards()} (face down).` : `${w} covers ${plural(f.cards.length, "card")}.`;
    case NIUJIU.events.OCCUPY:
      return `${w} occupies the trick${f.cards.length ? ` (${plural(f.cards.length, "card")})` : ""}.`;
    case NIUJIU.events.ENOUGH:
      return `${w} has enough (够).`;
    case NIUJIU.events.REVEAL:
      return shown(f.cards) ? `${w} shows ${cards()}.` : null;
  }
  return undefined;
}

function mahjongText(f, w, who, me, cards) {
  const s = f.seat;
  switch (f.code) {
    case MAHJONG.echo.DISCARD:
      return `${w} discards ${cards()}.`;
    case MAHJONG.echo.CHOW:
      return `${w} chows ${cards()} (the tile of ${who(f.arg)}).`;
    case MAHJONG.echo.PONG:
      return `${w} pongs ${cards()} (the tile of ${who(f.arg)}).`;
    case MAHJONG.echo.KONG:
      if (f.cards.length === 1) return `${w} adds ${cards()} to a pong: a kong.`;
      if (f.arg !== s) return `${w} kongs ${cards()} (the tile of ${who(f.arg)}).`;
      return shown(f.cards) ? `${w} declares a concealed kong of ${cards()}.` : `${w} declares a concealed kong.`;
    case MAHJONG.echo.HU:
      return f.arg === s ? `${w} wins (hu 胡) by self-draw on ${cards()}!` : `${w} wins (hu 胡) on ${cards()}, the discard of ${who(f.arg)}!`;
    case MAHJONG.echo.PASS:
      return null; // passing on a claim says nothing a player reads
    case MAHJONG.echo.READY:
      return `${w} declares ready (报听), discarding ${cards()}.`;
    case MAHJONG.events.DRAW:
      return s === me && shown(f.cards) ? `You draw ${cards()} (${f.arg} left in the wall).` : `${w} draws (${f.arg} left in the wall).`;
    case MAHJONG.events.REPLACEMENT:
      return s === me && shown(f.cards) ? `You draw ${cards()} as a replacement.` : `${w} draws a replacement tile.`;
    case MAHJONG.events.WALL:
      return `${plural(f.arg, "tile")} left in the wall.`;
    case MAHJONG.events.REVEAL:
      return shown(f.cards) ? `${w} shows ${cards()}.` : null;
    case MAHJONG.events.DRAWN_HAND:
      return "The wall is empty: a drawn hand (流局).";
  }
  return undefined;
}
