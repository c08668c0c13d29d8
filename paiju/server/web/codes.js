// Names of each game's codes (the paiju/protocol/<game>.py enums, SPEC.md §5 and §6: every IntEnum of
// the module, Kind as `kinds`, MeldKind as `meldKinds`) and its rulesets (paiju/games/<game>/ RULESETS,
// the first being the default), from wire.js, which `python -m paiju.server.webcodes --write` generates
// from the Python declarations (tests/server/test_webcodes.py fails when they differ); the tables
// (games.js) use the codes only by name, through codesOf().

import { ACTION_CODES, ECHO, GAMES as WIRE_GAMES, ROOM_EVENTS, SEAT_KINDS } from "./wire.js";

export { ACTION_CODES, ECHO, ROOM_EVENTS, SEAT_KINDS };

// wire.js's tables (generated from the Python declarations), with what this page adds:
// mahjong's refusals that mean the prompt itself is over (the claim window closed)
export const GAMES = { ...WIRE_GAMES, mahjong: { ...WIRE_GAMES.mahjong, gone: [322] } };

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
