// Generated from the Python declarations by `python -m paiju.server.webcodes --write`: do not edit.
// tests/server/test_webcodes.py fails when this file and the code differ (paiju/protocol/SPEC.md).

export const VERSION = 1;
export const MAX_FRAME = 65536;
export const ECHO = 0x20; // event code ECHO + c: a seat took action c
export const ACTION_CODES = 8; // a mask has 8 bits: action codes 0..7
export const FEATURES = { BATCH: 1, REMATCH: 2 }; // HELLO's features bits

// client -> server: frame types by name (SPEC §3.1)
export const C = {
  HELLO: 0x01,
  LIST_ROOMS: 0x02,
  CREATE_ROOM: 0x03,
  JOIN: 0x04,
  LEAVE: 0x05,
  QUICK_PLAY: 0x06,
  ACTION: 0x07,
  PING: 0x08,
  ACCOUNT: 0x09,
  SAY: 0x0a,
  MUTE: 0x0b,
  REMATCH_ANSWER: 0x0c,
  SET_SEAT: 0x0d,
  SESSIONS: 0x0e,
};

// server -> client: name, fields in wire order, defaults of the fields that may be left out
export const S = {
  0x41: ["WELCOME", ["player_id", "token", "version", "features"], { version: 1, features: 0 }],
  0x42: ["ROOM_LIST", ["rooms"], {}],
  0x43: ["ROOM_STATE", ["room", "game", "ruleset", "seat", "seq", "hand", "seats", "scores", "view", "robots", "commitment", "waiting"], { robots: [], commitment: "", waiting: "" }],
  0x44: ["EVENT", ["room", "seq", "code", "seat", "cards", "arg", "text"], { seat: null, cards: new Uint8Array(0), arg: 0, text: "" }],
  0x45: ["PROMPT", ["room", "prompt_id", "seat", "ms_left", "mask", "options", "bank_ms"], { bank_ms: 0 }],
  0x46: ["RESULT", ["room", "hand", "scores", "totals", "hands", "final", "detail", "seed", "salt"], { detail: {}, seed: null, salt: "" }],
  0x47: ["ERROR", ["code", "message", "ref_type", "ref_id"], { ref_type: null, ref_id: null }],
  0x48: ["PONG", ["nonce"], {}],
  0x49: ["ACK", ["prompt_id"], {}],
  0x4a: ["IDENTITY", ["player", "registered", "session"], { session: null }],
  0x4b: ["REDIRECT", ["url", "room", "ref_type"], { room: null, ref_type: null }],
  0x4c: ["CHAT_LINE", ["room", "id", "channel", "seat", "speaker", "text"], {}],
  0x4d: ["REMATCH_OFFER", ["room", "state", "ms_left", "accepted", "next_room", "left"], { accepted: [], next_room: null, left: [] }],
  0x4e: ["TOKEN", ["token"], {}],
  0x4f: ["SESSION_LIST", ["sessions"], {}],
};

export const ROOM_INFO = ["room", "game", "ruleset", "seats", "bots", "spectators", "hands", "hand", "status"];
export const SESSION_INFO = ["id", "created", "expires", "current"];
export const ERRORS = { 100: "MALFORMED", 101: "UNKNOWN_FRAME", 102: "BAD_FIELD", 103: "BAD_CARD", 104: "TOO_LARGE", 105: "TRAILING_BYTES", 106: "BAD_VERSION", 107: "WRONG_DIRECTION", 200: "HELLO_FIRST", 201: "BAD_TOKEN", 202: "NO_SUCH_ROOM", 203: "SEAT_TAKEN", 204: "ROOM_FULL", 205: "NOT_IN_ROOM", 206: "BAD_ROOM_OPTIONS", 207: "RATE_LIMITED", 208: "ALREADY_IN_ROOM", 209: "SLOW_CONSUMER", 210: "WRONG_STATE", 211: "NAME_TAKEN", 212: "BAD_LOGIN", 213: "BAD_ACCOUNT", 214: "NO_ACCOUNTS", 215: "MOVED", 216: "TOO_MANY_CONNECTIONS", 217: "TOO_MANY_ROOMS", 218: "ROOM_EXPIRED", 219: "ROBOTS_UNAVAILABLE", 300: "NOT_YOUR_TURN", 301: "NO_SUCH_PROMPT", 302: "ILLEGAL_ACTION", 303: "ILLEGAL_CARDS", 304: "GAME_OVER", 500: "INTERNAL", 503: "SHUTTING_DOWN" };
export const ROOM_EVENTS = { 0x01: "HAND_START", 0x02: "DEAL", 0x03: "HAND_END", 0x04: "SEAT", 0x05: "TIMEOUT", 0x06: "MATCH_END", 0x07: "ROBOT" };
export const SEAT_KINDS = { 0: "EMPTY", 1: "HUMAN", 2: "BOT", 3: "AWAY" };

// each game: its title, seats, rulesets (the first is the default) and code tables
export const GAMES = {
  tricks: {
    title: "Tricks",
    seats: 2,
    rulesets: ["standard", "pack"],
    act: { 0: "PLAY" },
    events: { 0x30: "TRICK" },
    errors: { 380: "CARD_NOT_IN_HAND" },
  },
  mahjong: {
    title: "Mahjong 麻将",
    seats: 4,
    rulesets: ["championship", "classic"],
    act: { 0: "DISCARD", 1: "CHOW", 2: "PONG", 3: "KONG", 4: "HU", 5: "PASS", 6: "READY" },
    events: { 0x30: "DRAW", 0x31: "REPLACEMENT", 0x32: "WALL", 0x33: "REVEAL", 0x34: "DRAWN_HAND" },
    errors: { 320: "TILE_NOT_IN_HAND", 321: "CHOW_WRONG_SEAT", 322: "WINDOW_CLOSED", 323: "NOT_A_WIN", 324: "NOT_READY", 325: "HAND_LOCKED" },
    meldKinds: { 0: "CHOW", 1: "PONG", 2: "KONG_EXPOSED", 3: "KONG_CONCEALED", 4: "KONG_ADDED" },
  },
  niujiu: {
    title: "Niujiu 牛九",
    seats: 3,
    rulesets: ["standard", "play-out"],
    act: { 0: "LEAD", 1: "EAT", 2: "COVER" },
    events: { 0x30: "COVERED", 0x31: "OCCUPY", 0x32: "ENOUGH", 0x33: "REVEAL" },
    errors: { 360: "NOT_A_PATTERN", 361: "DOES_NOT_BEAT", 362: "WRONG_COUNT", 363: "CARD_NOT_IN_HAND" },
    kinds: { 1: "SINGLE", 2: "PAIR", 3: "TRIPLE", 4: "LIANGZI", 5: "NIU_PAIR", 6: "NIU_TRIPLE", 7: "XI_PAIR", 8: "XI_TRIPLE", 9: "YU", 10: "BAI", 11: "YU_LIANG", 12: "BAI_LIANG", 13: "XI_BAO_LIANG" },
  },
  bridge: {
    title: "Bridge",
    seats: 4,
    rulesets: ["standard", "no-claims"],
    act: { 0: "BID", 1: "PASS", 2: "DOUBLE", 3: "REDOUBLE", 4: "PLAY", 5: "CLAIM", 6: "ACCEPT", 7: "REJECT" },
    events: { 0x30: "CONTRACT", 0x31: "PASSED_OUT", 0x32: "DUMMY", 0x33: "TRICK", 0x34: "REVEAL", 0x35: "BOARD" },
    errors: { 340: "INSUFFICIENT_BID", 341: "DOUBLE_NOT_ALLOWED", 342: "REDOUBLE_NOT_ALLOWED", 343: "REVOKE", 344: "WRONG_HAND", 345: "AUCTION_OVER", 346: "NO_CLAIM" },
  },
};
