// The simple trick-taking game ("tricks", docs/rules/tricks.md) as a Colyseus room: the peer
// that `paiju bench peers` measures paiju against.
//
// The same authority as paiju's room: the server deals (cards 1..2n shuffled, n to each seat,
// sorted; seat `hand % 2` leads the hand's first trick), prompts the seat to play with its legal
// cards, checks every move (the right seat, the open prompt, a card of its hand) and refuses
// anything else with an error message, and tells both seats what happened. The public part of
// the table is the room's Schema state; each hand is sent only to its own seat (`client.send`),
// never put in the state, so no seat ever receives the other's cards before they are played.
// The match is `hands` hands; its end is a "result" message with `final` true.
//
// Two modes (the `perMove` option of the room's definition): the state patch is broadcast
// right after every move (`patchRate` 0 and `broadcastPatch()`), as paiju tells both players at
// once; or Colyseus's default, a patch every 50 ms.

"use strict";

const { Room } = require("@colyseus/core");
const { Schema, ArraySchema, defineTypes } = require("@colyseus/schema");

class TricksState extends Schema {
  constructor() {
    super();
    this.n = 8; // cards per seat
    this.hand = 0; // hand number from 0
    this.leader = 0; // seat that leads (led) the current trick
    this.turn = -1; // seat to play (-1: none)
    this.counts = new ArraySchema(0, 0); // cards left in each hand
    this.trick = new ArraySchema(); // cards of the current trick, the lead first
    this.played = new ArraySchema(); // cards of the completed tricks, two a trick, the leader's first
    this.won = new ArraySchema(0, 0); // tricks each seat won this hand
    this.totals = new ArraySchema(0, 0); // the match's score so far
  }
}
defineTypes(TricksState, {
  n: "uint8",
  hand: "uint16",
  leader: "uint8",
  turn: "int8",
  counts: ["uint8"],
  trick: ["uint8"],
  played: ["uint8"],
  won: ["uint8"],
  totals: ["int16"],
});

// the codes of paiju's refusals (paiju/protocol/SPEC.md §7), so both servers say the same
const ERRORS = { BAD_FIELD: 102, NOT_YOUR_TURN: 300, NO_SUCH_PROMPT: 301, ILLEGAL_CARDS: 303, GAME_OVER: 304 };

class TricksRoom extends Room {
  onCreate(options) {
    this.maxClients = 2;
    this.hands = Math.max(1, Math.min(1000, Number(options.hands) || 4));
    this.perMove = Boolean(options.perMove);
    this.patchRate = this.perMove ? 0 : 50;
    const state = new TricksState();
    state.n = Math.max(1, Math.min(26, Number(options.n) || 8));
    this.state = state;
    this.seats = [null, null]; // the client of each seat
    this.cards = [[], []]; // each seat's hand (never in the state)
    this.dealt = [[], []];
    this.promptId = 0;
    this.over = false;
    this.onMessage("play", (client, message) => this.play(client, message));
  }

  onJoin(client) {
    const seat = this.seats[0] === null ? 0 : 1;
    this.seats[seat] = client;
    client.userData = { seat };
    if (this.seats[0] !== null && this.seats[1] !== null) this.deal(0);
  }

  onLeave(client) {
    // a player who leaves ends the match (the load generator leaves only at a match's end or
    // when its run stops); the room closes once both are gone
    const seat = client.userData ? client.userData.seat : -1;
    if (seat >= 0 && this.seats[seat] === client) this.seats[seat] = null;
    this.over = true;
    this.state.turn = -1;
  }

  deal(hand) {
    const s = this.state;
    const n = s.n;
    const deck = [];
    for (let k = 1; k <= 2 * n; k++) deck.push(k);
    for (let i = deck.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [deck[i], deck[j]] = [deck[j], deck[i]];
    }
    this.cards = [deck.slice(0, n).sort((a, b) => a - b), deck.slice(n).sort((a, b) => a - b)];
    this.dealt = [this.cards[0].slice(), this.cards[1].slice()];
    s.hand = hand;
    s.leader = hand % 2;
    s.counts[0] = n;
    s.counts[1] = n;
    s.trick.clear();
    s.played.clear();
    s.won[0] = 0;
    s.won[1] = 0;
    for (const seat of [0, 1]) this.seats[seat].send("deal", { hand, cards: this.cards[seat] });
    this.prompt(s.leader);
  }

  prompt(seat) {
    this.promptId += 1;
    this.state.turn = seat;
    if (this.perMove) this.broadcastPatch();
    const client = this.seats[seat];
    if (client) client.send("prompt", { id: this.promptId, cards: this.cards[seat] });
  }

  refuse(client, code, message) {
    client.send("error", { code, message });
  }

  play(client, message) {
    const seat = client.userData ? client.userData.seat : -1;
    const s = this.state;
    if (this.over) return this.refuse(client, ERRORS.GAME_OVER, "the match is over");
    if (message === null || typeof message !== "object" || !Number.isInteger(message.card)) {
      return this.refuse(client, ERRORS.BAD_FIELD, "play needs {id, card}");
    }
    if (seat !== s.turn) return this.refuse(client, ERRORS.NOT_YOUR_TURN, "not your turn");
    if (message.id !== this.promptId) return this.refuse(client, ERRORS.NO_SUCH_PROMPT, "no such prompt");
    const hand = this.cards[seat];
    const at = hand.indexOf(message.card);
    if (at < 0) return this.refuse(client, ERRORS.ILLEGAL_CARDS, "card not in hand");
    hand.splice(at, 1);
    s.counts[seat] = hand.length;
    s.trick.push(message.card);
    if (s.trick.length === 2) {
      const follower = 1 - s.leader;
      const winner = s.trick[0] > s.trick[1] ? s.leader : follower;
      s.won[winner] += 1;
      s.played.push(s.trick[0], s.trick[1]);
      s.trick.clear();
      s.leader = winner;
    }
    if (this.cards[0].length === 0 && this.cards[1].length === 0) return this.endHand();
    this.prompt(s.trick.length === 0 ? s.leader : 1 - s.leader);
  }

  endHand() {
    const s = this.state;
    const d = s.won[0] - s.won[1];
    s.totals[0] += d;
    s.totals[1] -= d;
    s.turn = -1;
    const final = s.hand + 1 >= this.hands;
    this.over = final;
    if (this.perMove) this.broadcastPatch();
    this.broadcast("result", {
      hand: s.hand,
      scores: [d, -d],
      totals: [s.totals[0], s.totals[1]],
      hands: this.dealt,
      tricks: [s.won[0], s.won[1]],
      final,
    });
    if (!final && this.seats[0] !== null && this.seats[1] !== null) this.deal(s.hand + 1);
  }
}

module.exports = { TricksRoom, TricksState, ERRORS };
