// The Colyseus room plays the same game as paiju's: a check of room.js against docs/rules/tricks.md.
//
//   node check.js --url ws://127.0.0.1:PORT [--hands 3]
//
// Two players play a match through colyseus.js; the check fails (exit 1, the reasons on stderr)
// unless: each hand deals cards 1..2n, n to each seat, sorted, to that seat only; seat
// `hand % 2` leads the hand's first trick; a prompt offers exactly the seat's cards; the higher
// card wins the trick and its winner leads next; the hand's result is the difference in tricks;
// the state holds only the public keys and shows no card before it is played (the hands go
// by `client.send`, each to its own seat); and a play out of turn, for another prompt, of a card not in the hand,
// or malformed is refused with paiju's error code and changes nothing. Prints "ok" and the
// hands played.

"use strict";

const Colyseus = require("colyseus.js");

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const url = option("url", "");
const hands = Number(option("hands", "3"));
const failures = [];
function check(ok, what) {
  if (!ok) failures.push(what);
}

async function main() {
  const client = new Colyseus.Client(url);
  const rooms = [];
  const PUBLIC = JSON.stringify(["counts", "hand", "leader", "n", "played", "totals", "trick", "turn", "won"]);
  let played = new Set(); // the cards played this hand (a card is added before its play is sent)
  const dealt = [null, null];
  const inbox = [[], []]; // messages waiting for the script: [type, message]
  const waiters = [null, null];
  let handsPlayed = 0;

  function attach(room, seat) {
    const post = (type, m) => {
      inbox[seat].push([type, m]);
      if (waiters[seat]) waiters[seat]();
    };
    room.onMessage("deal", (m) => post("deal", m));
    room.onMessage("prompt", (m) => post("prompt", m));
    room.onMessage("result", (m) => post("result", m));
    room.onMessage("error", (m) => post("error", m));
    room.onStateChange((state) => {
      // the public state only, and only cards already played
      const m = state.toJSON();
      check(JSON.stringify(Object.keys(m).sort()) === PUBLIC, `the state has keys ${Object.keys(m).sort()}`);
      const unplayed = [...m.trick, ...m.played].filter((c) => !played.has(c));
      check(!unplayed.length, `seat ${seat}'s state shows cards not played yet: ${unplayed}`);
    });
  }

  async function next(seat, type) {
    const deadline = Date.now() + 5000;
    for (;;) {
      const at = inbox[seat].findIndex(([t]) => t === type);
      if (at >= 0) return inbox[seat].splice(at, 1)[0][1];
      if (Date.now() > deadline) throw new Error(`seat ${seat}: no ${type} within 5 s`);
      await new Promise((r) => {
        waiters[seat] = r;
        setTimeout(r, 50);
      });
    }
  }

  rooms.push(await client.create("tricks", { hands }));
  attach(rooms[0], 0);
  rooms.push(await client.joinById(rooms[0].roomId));
  attach(rooms[1], 1);
  const n = 8;
  for (let hand = 0; hand < hands; hand++) {
    const deals = [await next(0, "deal"), await next(1, "deal")];
    for (const s of [0, 1]) dealt[s] = deals[s].cards.slice();
    const all = [...dealt[0], ...dealt[1]].sort((a, b) => a - b);
    check(
      all.length === 2 * n && all.every((c, i) => c === i + 1),
      `hand ${hand}: the deal is not 1..2n: ${all}`,
    );
    for (const s of [0, 1]) {
      check(dealt[s].length === n, `hand ${hand}: seat ${s} got ${dealt[s].length} cards`);
      check(
        dealt[s].every((c, i) => i === 0 || dealt[s][i - 1] < c),
        `hand ${hand}: seat ${s}'s hand is not sorted`,
      );
      check(deals[s].hand === hand, `hand ${hand}: the deal says hand ${deals[s].hand}`);
    }
    const left = [dealt[0].slice(), dealt[1].slice()];
    let leader = hand % 2;
    let turn = leader;
    const won = [0, 0];
    let trick = [];
    for (let move = 0; move < 2 * n; move++) {
      const prompt = await next(turn, "prompt");
      check(
        JSON.stringify(prompt.cards) === JSON.stringify(left[turn]),
        `hand ${hand} move ${move}: seat ${turn} is offered ${prompt.cards}, holds ${left[turn]}`,
      );
      const other = 1 - turn;
      if (move === 0 && hand === 0) {
        // refusals: each answered with paiju's code, nothing changed (the prompt stays open)
        rooms[other].send("play", { id: prompt.id, card: left[other][0] });
        check((await next(other, "error")).code === 300, "a play out of turn is not refused with 300");
        rooms[turn].send("play", { id: prompt.id + 1, card: left[turn][0] });
        check((await next(turn, "error")).code === 301, "a play for another prompt is not refused with 301");
        rooms[turn].send("play", { id: prompt.id, card: left[other][0] });
        check((await next(turn, "error")).code === 303, "a card of the other hand is not refused with 303");
        rooms[turn].send("play", { id: prompt.id, card: "SA" });
        check((await next(turn, "error")).code === 102, "a malformed play is not refused with 102");
        rooms[turn].send("play", "nonsense");
        check((await next(turn, "error")).code === 102, "a play that is no object is not refused with 102");
      }
      const card = left[turn][Math.floor(Math.random() * left[turn].length)];
      left[turn].splice(left[turn].indexOf(card), 1);
      played.add(card);
      rooms[turn].send("play", { id: prompt.id, card });
      trick.push([turn, card]);
      if (trick.length === 2) {
        const winner = trick[0][1] > trick[1][1] ? trick[0][0] : trick[1][0];
        won[winner] += 1;
        leader = winner;
        turn = winner;
        trick = [];
      } else {
        turn = other;
      }
    }
    const results = [await next(0, "result"), await next(1, "result")];
    for (const r of results) {
      check(r.hand === hand, `hand ${hand}: the result says hand ${r.hand}`);
      check(
        r.scores[0] === won[0] - won[1] && r.scores[1] === won[1] - won[0],
        `hand ${hand}: scores ${r.scores}, tricks ${won}`,
      );
      check(r.final === (hand === hands - 1), `hand ${hand}: final is ${r.final}`);
    }
    handsPlayed += 1;
    played = new Set();
  }
  await Promise.all(rooms.map((r) => r.leave(true)));
  if (failures.length) {
    for (const f of failures) console.error(`check.js: ${f}`);
    process.exit(1);
  }
  console.log(`ok: ${handsPlayed} hands`);
  process.exit(0);
}

main().catch((e) => {
  console.error(`check.js: ${e && e.stack ? e.stack : e}`);
  process.exit(1);
});
