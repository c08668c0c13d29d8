// The end of a hand as players read it: each game's RESULT detail (paiju/games/<game> outcome())
// turned into words and cards, never dumped. Mahjong: the winning hand with its melds, the
// fan items and who pays; bridge: contract, declarer, tricks, the NS/EW score and the IMPs of
// the match so far; Niujiu: each seat's occupied cards, enough or not, liangzi, covered
// cards; tricks: the tricks taken (and the deal's solved value when the server sends it).

import { cardEl, cardsEl, handOrder } from "./cards.js";
import { MELD_NAMES, h } from "./games.js";
import { vulnerabilityWords } from "./words.js";
import { count, tr } from "./i18n.js";

const signed = (x) => (x > 0 ? `+${x}` : x < 0 ? `−${-x}` : "0");
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`; // English only
const row = (label, ...value) => h("div", { class: "result-row" }, h("span", { class: "result-label" }, label), h("span", { class: "result-value" }, ...value));

// The WBF IMP scale: the lower bound of each step (paiju/games/bridge/scoring.py IMP_STEPS, which
// tests/browser/test_web_tables.py checks this copy against)
export const IMP_STEPS = [20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000];

/** International Match Points for a difference in points (negative for a loss). */
export function imps(diff) {
  const n = IMP_STEPS.filter((step) => Math.abs(diff) >= step).length;
  return diff >= 0 ? n : -n;
}

/**
 * The elements that tell the result of a hand, from a RESULT frame ``f``.
 * ``ctx``: {seatLabel(s), dealer, boards} (boards: the bridge match so far, kept by the caller).
 */
export function resultSummary(game, f, ctx) {
  const d = f.detail || {};
  const make = { mahjong: mahjongResult, bridge: bridgeResult, niujiu: niujiuResult, tricks: tricksResult }[game];
  return make ? make(f, d, ctx) : genericResult(f, d);
}

// ------------------------------------------------------------------ mahjong
const FORMS = {
  basic: tr("basic hand (平胡)", "平胡"),
  "all pungs": tr("all pungs (碰碰胡)", "碰碰胡"),
  "full flush": tr("full flush (清一色)", "清一色"),
  "seven pairs": tr("seven pairs (七对)", "七对"),
};

function mahjongResult(f, d, ctx) {
  const out = [];
  if (d.winner === undefined || d.winner < 0) {
    out.push(h("p", { class: "result-headline", "data-result": "drawn" }, tr("Drawn hand (流局): the wall ran out and nobody won. Nobody pays.", "流局：牌墙摸完，无人胡牌，不计输赢。")));
    return out;
  }
  const s = d.winner;
  const tile = d.tile && d.tile.length ? d.tile[0] : null;
  const headline = d.self_draw
    ? tr(`${ctx.seatLabel(s)} wins (hu 胡) by self-draw (自摸).`, `${ctx.seatLabel(s)}自摸胡牌。`)
    : tr(`${ctx.seatLabel(s)} wins (hu 胡) on the discard of ${ctx.seatLabel(d.from)}.`, `${ctx.seatLabel(s)}胡牌，${ctx.seatLabel(d.from)}点炮。`);
  out.push(h("p", { class: "result-headline", "data-result": "win" }, headline));
  // the winning hand: the concealed tiles (the winning tile apart, lit) and the melds
  const concealed = handOrder("mahjong", f.hands[s] || []);
  const at = tile === null ? -1 : concealed.lastIndexOf(tile);
  if (at >= 0) concealed.splice(at, 1);
  const hand = h("div", { class: "winning-hand", "data-seat": s }, cardsEl("mahjong", concealed, { small: true }));
  if (tile !== null) {
    const t = cardEl("mahjong", tile, { small: true });
    t.classList.add("winning-tile");
    t.title = `${tr("the winning tile", "胡的牌")}: ${t.title}`;
    hand.appendChild(t);
  }
  for (const m of (d.melds && d.melds[s]) || []) {
    hand.appendChild(h("span", { class: "meld", "data-kind": m.kind, title: MELD_NAMES[m.kind] }, cardsEl("mahjong", m.tiles, { small: true })));
  }
  out.push(row(tr("hand", "牌"), hand));
  const items = [h("li", {}, `${FORMS[d.form] || d.form}${tr(": ", "：")}${count(d.fan, "fan", "番", "fan")}`)];
  if (d.ready) items.push(h("li", {}, tr("declared ready (报听): +1", "报听：+1")));
  if (d.self_draw) items.push(h("li", {}, tr("self-draw (自摸): +1", "自摸：+1")));
  out.push(row(tr("fan", "番"), h("ul", { class: "fan-items" }, ...items), h("b", {}, `= ${count(d.points, "point", "分")}`)));
  const payers = (d.scores || f.scores).map((x, i) => [i, x]).filter(([, x]) => x < 0);
  const pay = d.self_draw
    ? tr(`each of the other three pays ${ctx.seatLabel(s)} ${plural(d.points, "point")}`, `其他三家各付${ctx.seatLabel(s)} ${d.points} 分`)
    : payers.map(([i, x]) => tr(`${ctx.seatLabel(i)} pays ${ctx.seatLabel(s)} ${plural(-x, "point")}`, `${ctx.seatLabel(i)}付${ctx.seatLabel(s)} ${-x} 分`)).join(tr("; ", "；"));
  out.push(row(tr("payment", "支付"), pay || tr("nobody pays", "无人支付")));
  return out;
}

// ------------------------------------------------------------------ bridge
const STRAIN_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠", NT: tr("NT", "无将") };

/** "4SX" -> {level: 4, doubled: 1, call: "4♠", text: "4♠ doubled"} (in Chinese "4♠ 加倍");
 * "Pass" -> null. */
export function parseContract(text) {
  const m = /^([1-7])(C|D|H|S|NT)(X{0,2})$/.exec(text || "");
  if (!m) return null;
  const call = `${m[1]}${STRAIN_SYMBOLS[m[2]]}`;
  const doubled = m[3].length;
  return { level: Number(m[1]), doubled, call, text: call + tr(["", " doubled", " redoubled"], ["", " 加倍", " 再加倍"])[doubled] };
}

function bridgeResult(f, d, ctx) {
  const out = [];
  const c = parseContract(d.contract);
  const ns = d.score ?? f.scores[0];
  out.push(h("p", { class: "result-headline" }, tr(`Board ${d.board ?? f.hand + 1} · vulnerable: ${vulnerabilityWords(d.vulnerable)}`, `第 ${d.board ?? f.hand + 1} 副 · ${vulnerabilityWords(d.vulnerable)}`)));
  if (!c) {
    out.push(row(tr("contract", "定约"), tr("passed out: all four passed", "四家都不叫")));
  } else {
    const need = c.level + 6;
    const by = d.tricks - need;
    const made = by >= 0 ? (by === 0 ? "made exactly" : `made with ${plural(by, "overtrick")}`) : `down ${-by}`;
    const claimed = d.claimed ? ` (${plural(d.claimed, "trick")} by claim)` : "";
    out.push(row(tr("contract", "定约"), h("b", { class: "contract-text" }, c.text), tr(` by ${ctx.seatLabel(d.declarer)}`, `，${ctx.seatLabel(d.declarer)}主打`)));
    out.push(row(tr("tricks", "墩数"), tr(`${d.tricks} of the ${need} needed: ${made}${claimed}`, `${d.tricks} 墩（需 ${need} 墩）：${by >= 0 ? (by === 0 ? "正好完成" : `超 ${by} 墩`) : `宕 ${-by}`}`)));
  }
  out.push(row(tr("score", "得分"), h("span", { class: "ns" }, `${tr("NS", "南北")} ${signed(ns)}`), " · ", h("span", { class: "ew" }, `${tr("EW", "东西")} ${signed(-ns)}`)));
  // the match so far: one line per board, with North-South's IMPs against the deal's par (the
  // datum of a board no other table played). The par is solved off the server's loop: a board
  // whose solve was not done when its RESULT went out shows "—", and the total counts the others;
  // a server that sends no par at all gets no IMP column
  const boards = ctx.boards || [];
  if (boards.length) {
    const hasPar = (b) => typeof b.par === "number";
    const vsPar = boards.some(hasPar);
    const impsOf = boards.map((b) => (hasPar(b) ? imps(b.ns - b.par) : null));
    const cells = (...c) => c.filter((x) => x !== null);
    const shown = (x) => (x === null ? "—" : signed(x));
    const rows = boards.map((b, k) =>
      h("tr", {}, ...cells(h("td", {}, String(b.board)), h("td", {}, b.contract), h("td", { class: "num" }, signed(b.ns)), h("td", { class: "num" }, signed(-b.ns)), vsPar ? h("td", { class: "num" }, shown(hasPar(b) ? b.par : null)) : null, vsPar ? h("td", { class: "num imps" }, shown(impsOf[k])) : null)),
    );
    const sum = (xs) => xs.reduce((a, x) => a + x, 0);
    const ns = sum(boards.map((b) => b.ns));
    const missing = boards.length - boards.filter(hasPar).length;
    const note = !vsPar
      ? tr("This server sends no par: no IMPs.", "此服务器不提供最优定约分数：不计国际比赛分。")
      : tr("IMPs: North-South's score against the deal's par (double-dummy), board by board.", "国际比赛分：南北得分与该副牌双明手最优分数之差，逐副计算。") +
        (missing ? tr(` "—": ${missing} board(s) whose par was not solved in time, left out of the total.`, ` “—”：${missing} 副牌的最优分数未及时算出，不计入总分。`) : "");
    out.push(
      h(
        "table",
        { class: "match", "data-boards": boards.length },
        h("tr", {}, ...cells(h("th", {}, tr("board", "牌号")), h("th", {}, tr("contract", "定约")), h("th", {}, tr("NS", "南北")), h("th", {}, tr("EW", "东西")), vsPar ? h("th", {}, tr("par NS", "南北最优分")) : null, vsPar ? h("th", {}, tr("IMPs NS", "南北国际比赛分")) : null)),
        ...rows,
        h("tr", { class: "total" }, ...cells(h("td", { colspan: 2 }, tr("match", "全场")), h("td", { class: "num" }, signed(ns)), h("td", { class: "num" }, signed(-ns)), vsPar ? h("td", {}, "") : null, vsPar ? h("td", { class: "num imps" }, signed(sum(impsOf.filter((x) => x !== null)))) : null)),
      ),
      h("p", { class: "note" }, note),
    );
  }
  return out;
}

/** What the match table keeps of a bridge RESULT. */
export function bridgeBoard(f, seatLabel) {
  const d = f.detail || {};
  const c = parseContract(d.contract);
  return {
    board: d.board ?? f.hand + 1,
    contract: c ? `${c.call}${tr(["", "X", "XX"], ["", "加倍", "再加倍"])[c.doubled]} ${seatLabel(d.declarer)[0]}` : tr("passed out", "四家不叫"),
    ns: d.score ?? f.scores[0],
    par: typeof d.par === "number" ? d.par : null,
  };
}

// ------------------------------------------------------------------ Niujiu
function niujiuResult(f, d, ctx) {
  const out = [];
  const n = f.scores.length;
  const enough = (d.enough || []).map((e, s) => (e ? s : -1)).filter((s) => s >= 0);
  const names = enough.map((s) => ctx.seatLabel(s)).join(tr(", ", "、"));
  out.push(h("p", { class: "result-headline" }, enough.length ? tr(`Enough (够): ${names}.`, `够牌：${names}。`) : tr("Nobody has enough (够).", "无人够牌。")));
  const list = h("div", { class: "niujiu-result" });
  for (let s = 0; s < n; s++) {
    const occ = (d.occupied && d.occupied[s]) || new Uint8Array(0);
    const isEnough = Boolean(d.enough && d.enough[s]);
    list.appendChild(
      h(
        "div",
        { class: "niujiu-seat", "data-seat": s, "data-enough": isEnough ? "1" : "0" },
        h(
          "div",
          { class: "niujiu-seat-head" },
          h("b", {}, ctx.seatLabel(s)),
          s === d.head ? h("span", { class: "badge dealer", title: tr("head 头家", "头家") }, tr("head", "头家")) : null,
          h("span", {}, isEnough ? tr("enough 够", "够") : tr("not enough", "不够")),
          h("b", { class: "num" }, signed(f.scores[s])),
        ),
        row(`${tr("occupied", "占")} ${occ.length}`, occ.length ? cardsEl("niujiu", handOrder("niujiu", occ), { small: true }) : tr("nothing", "无")),
        h("div", { class: "stat" }, tr(`liangzi 亮子: ${(d.liangzi && d.liangzi[s]) || 0} · covered: ${plural((d.covered_count && d.covered_count[s]) || 0, "card")}`, `亮子：${(d.liangzi && d.liangzi[s]) || 0} · 扣牌：${(d.covered_count && d.covered_count[s]) || 0} 张`)),
      ),
    );
  }
  out.push(list);
  return out;
}

// ------------------------------------------------------------------ tricks
function tricksResult(f, d, ctx) {
  const out = [];
  const won = d.tricks || [];
  out.push(h("p", { class: "result-headline" }, won.map((t, s) => tr(`${ctx.seatLabel(s)} took ${plural(t, "trick")}`, `${ctx.seatLabel(s)}吃 ${t} 墩`)).join(" · ")));
  if (typeof d.value === "number") {
    const v = `${signed(d.value)}`;
    const who = ctx.seatLabel(d.leader ?? 0);
    out.push(row(tr("solver", "求解"), tr(`the deal's value with perfect play: ${v} for ${who} (tricks taken minus tricks lost)`, `双方完美打法下本副牌的值：${who} ${v}（赢墩减输墩）`)));
  }
  return out;
}

// ------------------------------------------------------------------ a game this page does not know
function genericResult(f, d) {
  const items = Object.entries(d)
    .filter(([k, v]) => k !== "pbn" && v !== null && v !== undefined && typeof v !== "object")
    .map(([k, v]) => h("li", {}, `${k.replace(/_/g, " ")}: ${v}`));
  return items.length ? [h("ul", { class: "generic-result" }, ...items)] : [];
}
