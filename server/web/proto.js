// The paiju wire protocol (protocol/SPEC.md) for the browser: frame tables and the codec.
//
// Encoding and decoding are done by @msgpack/msgpack (vendor/msgpack.min.js, part of the
// package and pinned in server/webvendor.py, loaded as the global `MessagePack`); this module only names
// the fields of each frame. A frame is a msgpack array [type, field1, field2, ...]; card
// bytes are msgpack bin, which the library gives and takes as Uint8Array.

const MP = globalThis.MessagePack;
if (!MP) {
  throw new Error("vendor/msgpack.min.js is missing: reinstall paiju (or run `python -m server.webvendor`)");
}

export const VERSION = 1;
export const MAX_FRAME = 65536;
// HELLO's features (SPEC §1): BATCH, several frames a message, which decodeMessage reads
export const FEATURES = { BATCH: 1 };

// client -> server: type and field names in wire order (SPEC §3.1)
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
};

// server -> client: name, fields, and the defaults of trailing fields that may be left out
export const S = {
  0x41: ["WELCOME", ["player_id", "token", "version"], { version: 1 }],
  0x42: ["ROOM_LIST", ["rooms"], {}],
  0x43: ["ROOM_STATE", ["room", "game", "ruleset", "seat", "seq", "hand", "seats", "scores", "view"], {}],
  0x44: ["EVENT", ["room", "seq", "code", "seat", "cards", "arg"], { seat: null, cards: new Uint8Array(0), arg: 0 }],
  0x45: ["PROMPT", ["room", "prompt_id", "seat", "ms_left", "mask", "options", "bank_ms"], { bank_ms: 0 }],
  0x46: ["RESULT", ["room", "hand", "scores", "totals", "hands", "final", "detail"], { detail: {} }],
  0x47: ["ERROR", ["code", "message", "ref_type", "ref_id"], { ref_type: null, ref_id: null }],
  0x48: ["PONG", ["nonce"], {}],
  0x49: ["ACK", ["prompt_id"], {}],
  0x4a: ["IDENTITY", ["player", "registered", "session"], { session: null }],
  0x4b: ["REDIRECT", ["url", "room", "ref_type"], { room: null, ref_type: null }],
};

const ROOM_INFO = ["room", "game", "ruleset", "seats", "bots", "spectators", "hands", "hand", "status"];

export const ERRORS = {
  100: "MALFORMED", 101: "UNKNOWN_FRAME", 102: "BAD_FIELD", 103: "BAD_CARD", 104: "TOO_LARGE",
  105: "TRAILING_BYTES", 106: "BAD_VERSION", 107: "WRONG_DIRECTION", 200: "HELLO_FIRST",
  201: "BAD_TOKEN", 202: "NO_SUCH_ROOM", 203: "SEAT_TAKEN", 204: "ROOM_FULL", 205: "NOT_IN_ROOM",
  206: "BAD_ROOM_OPTIONS", 207: "RATE_LIMITED", 208: "ALREADY_IN_ROOM", 209: "SLOW_CONSUMER", 210: "WRONG_STATE",
  211: "NAME_TAKEN", 212: "BAD_LOGIN", 213: "BAD_ACCOUNT", 214: "NO_ACCOUNTS", 215: "MOVED",
  216: "TOO_MANY_CONNECTIONS", 217: "TOO_MANY_ROOMS", 218: "ROOM_EXPIRED",
  300: "NOT_YOUR_TURN", 301: "NO_SUCH_PROMPT", 302: "ILLEGAL_ACTION", 303: "ILLEGAL_CARDS",
  304: "GAME_OVER", 500: "INTERNAL", 503: "SHUTTING_DOWN",
};

const bin = (b) => (b instanceof Uint8Array ? b : new Uint8Array(b || []));

/** Encode a client frame: encode(C.JOIN, "r1", 2). */
export function encode(type, ...fields) {
  // a 64-bit value (a seed) is given as a BigInt: a JavaScript number would round it
  return MP.encode([type, ...fields], fields.some((f) => typeof f === "bigint") ? { useBigInt64: true } : undefined);
}

/** Decode a server frame into {type, name, ...fields}; throws on anything else. */
export function decode(data) {
  return fromArray(MP.decode(data instanceof Uint8Array ? data : new Uint8Array(data)));
}

/** Decode one message of the server: one frame, or a batch of frames one after the other
 * (SPEC §1: the msgpack objects concatenated); an array of frames, in order. */
export function decodeMessage(data) {
  const frames = [];
  for (const arr of MP.decodeMulti(data instanceof Uint8Array ? data : new Uint8Array(data))) frames.push(fromArray(arr));
  if (frames.length === 0) throw new Error("an empty message");
  return frames;
}

/** Decode a msgpack array of server frames (a replay: /replay/ROOM/HAND.msgpack). */
export function decodeAll(data) {
  const list = MP.decode(data instanceof Uint8Array ? data : new Uint8Array(data));
  if (!Array.isArray(list)) throw new Error("a replay is an array of frames");
  return list.map(fromArray);
}

function fromArray(arr) {
  if (!Array.isArray(arr) || arr.length === 0) throw new Error("a frame is a non-empty array");
  const spec = S[arr[0]];
  if (!spec) throw new Error(`unknown frame type 0x${Number(arr[0]).toString(16)}`);
  const [name, fields, defaults] = spec;
  const out = { type: arr[0], name };
  fields.forEach((f, i) => {
    out[f] = i + 1 < arr.length ? arr[i + 1] : defaults[f];
  });
  if (name === "EVENT") out.cards = bin(out.cards);
  if (name === "PROMPT") out.options = out.options.map(([code, cards, pick]) => ({ code, cards: bin(cards), pick }));
  if (name === "RESULT") out.hands = out.hands.map(bin);
  if (name === "ROOM_LIST") {
    out.rooms = out.rooms.map((r) => Object.fromEntries(ROOM_INFO.map((f, i) => [f, r[i]])));
  }
  return out;
}

// Frames the client sends, with every field in wire order (SPEC §3.1).
export const frames = {
  hello: (name, token = null, lastSeq = null, session = null) =>
    encode(C.HELLO, VERSION, name, token, lastSeq, session, FEATURES.BATCH),
  account: (op, name = null, password = null) => encode(C.ACCOUNT, op, name, password),
  listRooms: (game = null) => encode(C.LIST_ROOMS, game),
  // robots (a robot's name per seat, null for the room's default) only when the seats differ
  createRoom: ({ game, ruleset = null, hands = null, clockMs = null, bots = [], robot = null, priv = false, seed = null, pbn = null, robots = null }) =>
    robots ? encode(C.CREATE_ROOM, game, ruleset, hands, clockMs, bots, robot, priv, seed, pbn, robots) : encode(C.CREATE_ROOM, game, ruleset, hands, clockMs, bots, robot, priv, seed, pbn),
  join: (room, seat = null) => encode(C.JOIN, room, seat),
  leave: (room) => encode(C.LEAVE, room),
  quickPlay: (game, ruleset = null) => encode(C.QUICK_PLAY, game, ruleset),
  action: (promptId, code, cards) => encode(C.ACTION, promptId, code, bin(cards)),
  ping: (nonce) => encode(C.PING, nonce),
};
