// The load generator of `paiju bench peers`: one design, one process, for both servers.
//
//   node loadgen.js --target paiju|colyseus --url URL [--rooms 16] [--seconds 20]
//                   [--warmup 2] [--hands 4] [--seed 1] [--batch 1|0]
//
// `--rooms` tables of two players each play the tricks game match after match: each player
// answers every prompt at once with a uniformly random legal card; after a match's end both
// take a new room (paiju: the first creates it with CREATE_ROOM and the second JOINs it, on
// the connections they keep; Colyseus: `client.create` and `client.joinById`, its own
// matchmaking). paiju is spoken as paiju/protocol/SPEC.md defines it (msgpack frames; the players
// ask for batches in HELLO, as paiju's client library and web client do, so that what one
// action sends a player comes in one WebSocket message; `--batch 0`: one frame a message);
// Colyseus through its own client library, colyseus.js.
//
// An action counts once its effect reaches the table: the table's next prompt (to either
// player), or the hand's result after its last card. Its latency is action -> next prompt
// (a hand's last action has none). Messages and bytes are the WebSocket messages the
// players receive (payload bytes). All are counted in the window only, which opens
// `--warmup` seconds after the start (once every table has played a card) and lasts `--seconds`.
//
// stdout: JSON lines. {"event":"start"} when the window opens (the caller reads the server's
// CPU time then), {"event":"tick",...} every second, {"event":"end",...} with the window's
// figures when it closes (the caller reads the CPU again); then the players leave and the
// process exits.

"use strict";

const WebSocket = require("ws");
const { encode, decodeMulti } = require("@msgpack/msgpack");
const Colyseus = require("colyseus.js");

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const target = option("target", "paiju");
const url = option("url", "");
const rooms = Number(option("rooms", "16"));
const seconds = Number(option("seconds", "20"));
const warmup = Number(option("warmup", "2"));
const hands = Number(option("hands", "4"));
const seed = Number(option("seed", "1"));
const batch = option("batch", "1") !== "0"; // paiju: ask for batches in HELLO, as paiju's own clients do
if (!["paiju", "colyseus"].includes(target) || !url || !(rooms > 0) || !(seconds > 0) || !(hands > 0)) {
  console.error("usage: node loadgen.js --target paiju|colyseus --url URL [--rooms N] [--seconds S] [--hands H]");
  process.exit(2);
}

// -- the figures ------------------------------------------------------------------------------

const stats = { actions: 0, sent: 0, messages: 0, bytes: 0, hands: 0, matches: 0, errors: {} };
const latencies = []; // ms, action -> next prompt, in the window
let inWindow = false;
let stopping = false;

function error(code) {
  stats.errors[code] = (stats.errors[code] || 0) + 1;
}

function received(n) {
  stats.messages += 1;
  stats.bytes += n;
}

function rng(s) {
  // mulberry32: a small seeded generator, so that runs can be repeated
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// What both table kinds share: the pending action and its completion.
class Table {
  constructor(index) {
    this.index = index;
    this.random = rng(seed * 100003 + index);
    this.pendingAt = null; // when the table's last action went, until its effect arrived
    this.actions = 0; // in the window
    this.started = false; // it has played a card
  }

  pick(cards) {
    return cards[Math.floor(this.random() * cards.length)];
  }

  acted() {
    this.started = true;
    stats.sent += 1;
    this.pendingAt = performance.now();
  }

  prompted() {
    if (this.pendingAt === null) return;
    if (inWindow) {
      latencies.push(performance.now() - this.pendingAt);
      stats.actions += 1;
      this.actions += 1;
    }
    this.pendingAt = null;
  }

  handEnded(counted) {
    if (this.pendingAt !== null && inWindow) {
      stats.actions += 1;
      this.actions += 1;
    }
    this.pendingAt = null;
    if (counted && inWindow) stats.hands += 1;
  }
}

// -- paiju (paiju/protocol/SPEC.md) -----------------------------------------------------------------

const F = {
  HELLO: 0x01,
  CREATE_ROOM: 0x03,
  JOIN: 0x04,
  LEAVE: 0x05,
  ACTION: 0x07,
  WELCOME: 0x41,
  ROOM_STATE: 0x43,
  EVENT: 0x44,
  PROMPT: 0x45,
  RESULT: 0x46,
  ERROR: 0x47,
  ACK: 0x49,
};
const MATCH_END = 0x06;
const VERSION = 1;
const BATCH = 1; // HELLO's features bit: a server message may hold several frames, one after the other

class PaijuPlayer {
  constructor(table, seat) {
    this.table = table;
    this.seat = seat;
    this.free = false; // welcomed and in no room
    this.room = null; // the room it is in
    this.lastRoom = null; // the last room it was in (the second player joins each room once)
  }

  open() {
    const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 1 << 20 });
    this.ws = ws;
    ws.binaryType = "nodebuffer";
    // HELLO: version, name, token, last_seq, session, features
    const name = `peer${this.table.index}-${this.seat}`;
    ws.on("open", () => this.send([F.HELLO, VERSION, name, null, null, null, batch ? BATCH : 0]));
    ws.on("message", (data) => {
      received(data.length);
      for (const f of decodeMulti(data)) this.frame(f);
    });
    ws.on("error", (e) => error(`socket: ${e.code || e.message}`));
    ws.on("close", () => {
      if (!stopping) error("closed by the server");
    });
  }

  send(frame) {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(encode(frame));
  }

  frame(f) {
    const t = this.table;
    switch (f[0]) {
      case F.PROMPT: {
        const [, , promptId, , , mask, options] = f;
        t.prompted();
        if (!mask || !options.length || stopping) return;
        const [code, cards, pick] = options[Math.floor(t.random() * options.length)];
        const bytes = Array.from(cards);
        const chosen = [];
        for (let k = 0; k < pick; k++) chosen.push(bytes.splice(Math.floor(t.random() * bytes.length), 1)[0]);
        this.send([F.ACTION, promptId, code, Uint8Array.from(chosen)]);
        t.acted();
        return;
      }
      case F.ACK:
        return;
      case F.EVENT:
        if (f[3] === MATCH_END) {
          this.room = null;
          this.free = true;
          t.matchEnded(this);
        }
        return;
      case F.RESULT:
        t.handEnded(this.seat === 0);
        return;
      case F.ROOM_STATE:
        this.room = f[1];
        this.free = false;
        if (this.seat === 0) t.created(f[1]);
        return;
      case F.WELCOME:
        this.free = true;
        t.next();
        return;
      case F.ERROR: {
        error(`paiju ${f[1]}`);
        const refType = f[3];
        if (refType === F.CREATE_ROOM || refType === F.JOIN) {
          // refused (the server is full?): ask again shortly
          setTimeout(() => {
            if (refType === F.CREATE_ROOM) t.create();
            else t.join();
          }, 500);
        }
        return;
      }
      default:
    }
  }

  leave() {
    if (this.room !== null) this.send([F.LEAVE, this.room]);
    this.ws.close();
  }
}

class PaijuTable extends Table {
  constructor(index) {
    super(index);
    this.players = [new PaijuPlayer(this, 0), new PaijuPlayer(this, 1)];
    this.room = null; // the room the second player is to join
  }

  start() {
    for (const p of this.players) p.open();
  }

  next() {
    // the first player creates a room when it is free; the second joins the newest room
    if (this.players[0].free) this.create();
    this.join();
  }

  create() {
    const p = this.players[0];
    if (stopping || !p.free) return;
    p.free = false;
    // CREATE_ROOM: game, ruleset, hands, clock_ms, bots, robot, private
    p.send([F.CREATE_ROOM, "tricks", null, hands, null, [], null, true]);
  }

  created(room) {
    this.room = room;
    this.join();
  }

  join() {
    const p = this.players[1];
    if (stopping || !p.free || this.room === null || this.room === p.lastRoom) return;
    p.free = false;
    p.lastRoom = this.room;
    p.send([F.JOIN, this.room, 1]);
  }

  matchEnded(player) {
    if (player.seat === 0 && inWindow) stats.matches += 1;
    this.next();
  }

  stop() {
    for (const p of this.players) p.leave();
  }
}

// -- Colyseus (colyseus.js) -------------------------------------------------------------------

// count every message of the rooms' connections, state patches included
const onMessageCallback = Colyseus.Room.prototype.onMessageCallback;
Colyseus.Room.prototype.onMessageCallback = function (event) {
  received(event.data.byteLength);
  return onMessageCallback.call(this, event);
};

class ColyseusTable extends Table {
  constructor(index, client) {
    super(index);
    this.client = client;
    this.rooms = [];
  }

  start() {
    this.loop().catch((e) => error(`colyseus: ${e && e.message ? e.message : e}`));
  }

  async loop() {
    while (!stopping) {
      let over;
      const done = new Promise((resolve) => {
        over = resolve;
      });
      try {
        const first = await this.client.create("tricks", { hands });
        this.rooms = [first];
        this.attach(first, 0, over);
        const second = await this.client.joinById(first.roomId);
        this.rooms.push(second);
        this.attach(second, 1, over);
        await done;
        await Promise.all(this.rooms.map((r) => r.leave(true)));
        this.rooms = [];
        if (inWindow) stats.matches += 1;
      } catch (e) {
        error(`colyseus: ${e && e.message ? e.message : e}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  attach(room, seat, over) {
    room.onMessage("deal", () => {});
    room.onMessage("prompt", (m) => {
      this.prompted();
      if (stopping) return;
      room.send("play", { id: m.id, card: this.pick(m.cards) });
      this.acted();
    });
    room.onMessage("result", (m) => {
      this.handEnded(seat === 0);
      if (m.final && seat === 1) over();
    });
    room.onMessage("error", (m) => error(`colyseus ${m.code}`));
    room.onError((code, message) => error(`colyseus room ${code}: ${message}`));
  }

  stop() {
    for (const r of this.rooms) r.leave(true).catch(() => {});
  }
}

// -- the run ----------------------------------------------------------------------------------

function percentile(sorted, q) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

function say(obj) {
  process.stdout.write(`${JSON.stringify(obj)}\n`);
}

async function main() {
  const client = target === "colyseus" ? new Colyseus.Client(url) : null;
  const tables = [];
  for (let i = 0; i < rooms; i++) tables.push(target === "paiju" ? new PaijuTable(i) : new ColyseusTable(i, client));
  for (const t of tables) t.start();
  // the window opens `--warmup` seconds after the start, once every table has played (a
  // server's first rooms may be slow to come: imports, a database to create), within a minute
  const ready = performance.now() + 60000;
  await new Promise((r) => setTimeout(r, warmup * 1000));
  while (tables.some((t) => !t.started) && performance.now() < ready) await new Promise((r) => setTimeout(r, 50));
  stats.messages = 0; // what arrived during the warm-up is not counted
  stats.bytes = 0;
  stats.sent = 0;
  inWindow = true;
  const t0 = performance.now();
  say({ event: "start" });
  const ticker = setInterval(() => {
    say({ event: "tick", actions: stats.actions, errors: Object.values(stats.errors).reduce((a, b) => a + b, 0) });
  }, 1000);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  inWindow = false;
  const wall = (performance.now() - t0) / 1000;
  clearInterval(ticker);
  latencies.sort((a, b) => a - b);
  say({
    event: "end",
    target,
    rooms,
    hands_per_match: hands,
    batch: target === "paiju" ? batch : null,
    seconds: wall,
    actions: stats.actions,
    actions_sent: stats.sent,
    hands: stats.hands,
    matches: stats.matches,
    messages: stats.messages,
    bytes: stats.bytes,
    p50_ms: percentile(latencies, 0.5),
    p99_ms: percentile(latencies, 0.99),
    latencies: latencies.length,
    idle_tables: tables.filter((t) => t.actions === 0).length,
    errors: stats.errors,
  });
  stopping = true;
  for (const t of tables) t.stop();
  setTimeout(() => process.exit(0), 1000);
}

main().catch((e) => {
  console.error(`loadgen.js: ${e && e.stack ? e.stack : e}`);
  process.exit(1);
});
