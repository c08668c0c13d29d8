// Playing by picking cards in the hand (Niujiu; any game whose plays are sets of several
// cards): the player taps cards to select them, the cards of the legal plays that contain the
// selection are highlighted, and one button sends the selection once it is a legal play (a
// lead, an eat) or a legal "any k of these" (a cover). A hint cycles through the legal plays.
//
//   const s = pickState(prompt.options, isPlay, [0x13]);
//   s.match   // the exact play the selection is (an option), or null
//   s.cover   // the "any pick of these" option the selection satisfies, or null
//   s.lit     // the bytes of every legal play that contains the selection
//
// The options are the PROMPT's (SPEC.md §3.4): an exact option of a play's code is one play;
// any other option with cards (a cover) means any `pick` of its cards (all of them when the hand
// holds just `pick`).

/** Whether ``small`` is a sub-multiset of ``big`` (two arrays of bytes). */
export function within(small, big) {
  const left = new Map();
  for (const b of big) left.set(b, (left.get(b) || 0) + 1);
  for (const b of small) {
    const n = left.get(b) || 0;
    if (!n) return false;
    left.set(b, n - 1);
  }
  return true;
}

/**
 * What the selection ``sel`` (bytes) is, given a prompt's ``options`` and ``isPlay(code)`` (the
 * codes whose exact options are plays of cards of the hand).
 * @returns {{plays: object[], covers: object[], match: object|null, cover: object|null, lit: Set<number>}}
 */
export function pickState(options, isPlay, sel) {
  const plays = options.filter((o) => isPlay(o.code) && o.pick === o.cards.length && o.cards.length > 0);
  const covers = options.filter((o) => !isPlay(o.code) && o.pick > 0 && o.cards.length >= o.pick);
  const containing = plays.filter((o) => within(sel, o.cards));
  const match = containing.find((o) => o.cards.length === sel.length) || null;
  const cover = sel.length ? covers.find((o) => o.pick === sel.length && within(sel, o.cards)) || null : null;
  const lit = new Set();
  for (const o of containing) for (const b of o.cards) lit.add(b);
  return { plays, covers, match, cover, lit };
}

/**
 * The hint after ``at`` (-1: the first): the next legal play in the options' order, cycling;
 * with no play, the first ``pick`` cards (in ``order``) of the first cover.
 * @returns {{at: number, cards: number[]}|null}
 */
export function nextHint(state, at, order = (a) => a) {
  if (state.plays.length) {
    const i = (at + 1) % state.plays.length;
    return { at: i, cards: Array.from(state.plays[i].cards) };
  }
  const c = state.covers[0];
  return c ? { at: -1, cards: order(Array.from(c.cards)).slice(0, c.pick) } : null;
}
