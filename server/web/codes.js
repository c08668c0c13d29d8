// Names of each game's codes (the protocol/<game>.py enums, SPEC.md §5 and §6: every IntEnum of
// the module, Kind as `kinds`, MeldKind as `meldKinds`) and its rulesets (games/<game>/ RULESETS,
// the first being the default). tests/browser/test_web_tables.py checks these tables against the
// Python ones, so a renamed or added code cannot drift silently; the tables (games.js) use the
// codes only by name, through codesOf().

export const ECHO = 0x20; // event code 0x20 + c: a seat took action c
export const ACTION_CODES = 8; // a mask has 8 bits: action codes 0..7, echoed as events ECHO..ECHO + 7

export const ROOM_EVENTS = {
  0x01: "HAND_START",
  0x02: "DEAL",
  0x03: "HAND_END",
  0x04: "SEAT",
  0x05: "TIMEOUT",
  0x06: "MATCH_END",
  0x07: "ROBOT",
};

export const SEAT_KINDS = { 0: "EMPTY", 1: "HUMAN", 2: "BOT", 3: "AWAY" };

export const GAMES = {
  tricks: {
    title: "Tricks",
    seats: 2,
    rulesets: ["standard", "pack"],
    act: { 0: "PLAY" },
    events: { 0x30: "TRICK" },
    errors: { 380: "CARD_NOT_IN_HAND" },
  },
  niujiu: {
    title: "Niujiu 牛九",
    seats: 3,
    rulesets: ["standard", "play-out"],
    act: { 0: "LEAD", 1: "EAT", 2: "COVER" },
    events: { 0x30: "COVERED", 0x31: "OCCUPY", 0x32: "ENOUGH", 0x33: "REVEAL" },
    errors: { 360: "NOT_A_PATTERN", 361: "DOES_NOT_BEAT", 362: "WRONG_COUNT", 363: "CARD_NOT_IN_HAND" },
    kinds: {
      1: "SINGLE", 2: "PAIR", 3: "TRIPLE", 4: "LIANGZI", 5: "NIU_PAIR", 6: "NIU_TRIPLE", 7: "XI_PAIR",
      8: "XI_TRIPLE", 9: "YU", 10: "BAI", 11: "YU_LIANG", 12: "BAI_LIANG", 13: "XI_BAO_LIANG",
    },
  },
  bridge: {
    title: "Bridge",
    seats: 4,
    rulesets: ["standard", "no-claims"],
    act: { 0: "BID", 1: "PASS", 2: "DOUBLE", 3: "REDOUBLE", 4: "PLAY", 5: "CLAIM", 6: "ACCEPT", 7: "REJECT" },
    events: { 0x30: "CONTRACT", 0x31: "PASSED_OUT", 0x32: "DUMMY", 0x33: "TRICK", 0x34: "REVEAL", 0x35: "BOARD" },
    errors: {
      340: "INSUFFICIENT_BID", 341: "DOUBLE_NOT_ALLOWED", 342: "REDOUBLE_NOT_ALLOWED", 343: "REVOKE",
      344: "WRONG_HAND", 345: "AUCTION_OVER", 346: "NO_CLAIM",
    },
  },
  mahjong: {
    title: "Mahjong 麻将",
    seats: 4,
    rulesets: ["championship", "classic"],
    act: { 0: "DISCARD", 1: "CHOW", 2: "PONG", 3: "KONG", 4: "HU", 5: "PASS", 6: "READY" },
    events: { 0x30: "DRAW", 0x31: "REPLACEMENT", 0x32: "WALL", 0x33: "REVEAL", 0x34: "DRAWN_HAND" },
    errors: {
      320: "TILE_NOT_IN_HAND", 321: "CHOW_WRONG_SEAT", 322: "WINDOW_CLOSED", 323: "NOT_A_WIN",
      324: "NOT_READY", 325: "HAND_LOCKED",
    },
    meldKinds: { 0: "CHOW", 1: "PONG", 2: "KONG_EXPOSED", 3: "KONG_CONCEALED", 4: "KONG_ADDED" }, // a view's melds[s][i].kind
    gone: [322], // refusals that mean the prompt itself is over (the claim window closed)
  },
};

/** The table of a game, or an empty one for a game this page does not know (it still plays). */
export function gameInfo(name) {
  return GAMES[name] || { title: name, seats: 4, rulesets: [], act: {}, events: {}, errors: {} };
}

/** A code table turned around: name -> code. */
export const byName = (table) => Object.fromEntries(Object.entries(table || {}).map(([code, name]) => [name, Number(code)]));

/** The room's event codes by name: ROOM.HAND_START ... */
export const ROOM = byName(ROOM_EVENTS);

/**
 * The codes of game ``name`` by name: ``act`` (action codes), ``echo`` (the event an action
 * becomes: ECHO + its code), ``events``, and every other table of the game (``kinds``,
 * ``meldKinds``). A name the game does not have reads as undefined.
 */
export function codesOf(name) {
  const g = gameInfo(name);
  const out = {};
  for (const [key, table] of Object.entries(g)) if (table && typeof table === "object" && !Array.isArray(table)) out[key] = byName(table);
  out.echo = Object.fromEntries(Object.entries(out.act).map(([n, c]) => [n, ECHO + c]));
  return out;
}

/** A readable name for event code ``code`` of game ``name``. */
export function eventName(name, code) {
  if (ROOM_EVENTS[code]) return ROOM_EVENTS[code];
  const g = gameInfo(name);
  if (code >= ECHO && code < ECHO + 8) return g.act[code - ECHO] || `ACT_${code - ECHO}`;
  return g.events[code] || `EVENT_0x${code.toString(16)}`;
}
