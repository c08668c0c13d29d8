// The paiju wire protocol (paiju/protocol/SPEC.md) for the browser: frame tables and the codec.
//
// Encoding and decoding are done by @msgpack/msgpack (vendor/msgpack.min.js, part of the
// package and pinned in paiju/server/webvendor.py, loaded as the global `MessagePack`); this module only names
// the fields of each frame. A frame is a msgpack array [type, field1, field2, ...]; card
// bytes are msgpack bin, which the library gives and takes as Uint8Array.

const MP = globalThis.MessagePack;
if (!MP) {
  throw new Error("vendor/msgpack.min.js is missing: reinstall paiju (or run `python -m paiju.server.webvendor`)");
}

import { C, ERRORS, FEATURES, MAX_FRAME, ROOM_INFO, S, SESSION_INFO, VERSION } from "./wire.js";

// the frame tables (SPEC §3) and HELLO's features (SPEC §1: BATCH, several frames a message,
// which decodeMessage reads), generated from the Python declarations into wire.js
export { C, ERRORS, FEATURES, MAX_FRAME, S, VERSION };

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
  if (name === "SESSION_LIST") {
    out.sessions = out.sessions.map((r) => Object.fromEntries(SESSION_INFO.map((f, i) => [f, r[i]])));
  }
  return out;
}

// Frames the client sends, with every field in wire order (SPEC §3.1).
export const frames = {
  hello: (name, token = null, lastSeq = null, session = null) =>
    encode(C.HELLO, VERSION, name, token, lastSeq, session, FEATURES.BATCH | FEATURES.REMATCH),
  account: (op, name = null, password = null) => encode(C.ACCOUNT, op, name, password),
  // the account's sessions; end: a session's id, or "others"
  sessions: (end = null) => encode(C.SESSIONS, end),
  listRooms: (game = null) => encode(C.LIST_ROOMS, game),
  // robots (a robot's name per seat, null for the room's default) only when the seats differ
  createRoom: ({ game, ruleset = null, hands = null, clockMs = null, bots = [], robot = null, priv = false, seed = null, pbn = null, robots = null }) =>
    robots ? encode(C.CREATE_ROOM, game, ruleset, hands, clockMs, bots, robot, priv, seed, pbn, robots) : encode(C.CREATE_ROOM, game, ruleset, hands, clockMs, bots, robot, priv, seed, pbn),
  // firstFree: the first free seat, else watch (an invite link)
  join: (room, seat = null, firstFree = false) => (firstFree ? encode(C.JOIN, room, null, true) : encode(C.JOIN, room, seat)),
  leave: (room) => encode(C.LEAVE, room),
  quickPlay: (game, ruleset = null) => encode(C.QUICK_PLAY, game, ruleset),
  action: (promptId, code, cards) => encode(C.ACTION, promptId, code, bin(cards)),
  ping: (nonce) => encode(C.PING, nonce),
  say: (room, text) => encode(C.SAY, room, text),
  mute: (room, name, on = true) => encode(C.MUTE, room, name, on),
  rematch: (room, accept) => encode(C.REMATCH_ANSWER, room, accept),
  setSeat: (room, seat, robot) => encode(C.SET_SEAT, room, seat, robot),
};
