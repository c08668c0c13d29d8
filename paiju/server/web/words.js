// The table in a player's words, in the page's language (i18n.js): game and ruleset names and
// their one-line descriptions, seat names (mahjong winds 东南西北, bridge compass points, Niujiu's
// head 头家 and the seats after it, as docs/rules/niujiu.md names them), action names, robots'
// descriptions, and one sentence per event for the event log. Only what the frame carried is
// told: a card sent face down (0x00) is not named.

import { ACTION_CODES, ECHO, ROOM, SEAT_KINDS, codesOf, gameInfo } from "./codes.js";
import { HIDDEN, cardsText, formatCall } from "./cards.js";
import { ZH, count, tr } from "./i18n.js";

// ------------------------------------------------------------------ games and rulesets
const GAME_NAMES = {
  mahjong: ["Mahjong 麻将", "麻将"],
  bridge: ["Bridge", "桥牌"],
  niujiu: ["Niujiu 牛九", "牛九"],
  tricks: ["Tricks", "吃墩"],
};

/** The games in the lobby's order: the three people come for, then the research toy. */
export const GAME_ORDER = ["mahjong", "bridge", "niujiu", "tricks"];

/** A game's name: "Mahjong 麻将" (English), "麻将" (Chinese). */
export function gameTitle(game) {
  const pair = GAME_NAMES[game];
  return pair ? tr(...pair) : gameInfo(game).title;
}

/** What each game is, in a line. */
const GAME_LINES = {
  mahjong: ["four players draw and discard to make four sets and a pair", "四人摸牌打牌，凑成四组加一对即可胡牌"],
  bridge: ["two partnerships bid a contract, then play thirteen tricks to make it", "两对搭档先叫牌定约，再打十三墩完成定约"],
  niujiu: ["three players lead and eat patterns of cards; six occupied cards are enough", "三人出牌吃牌，占够六张即为够牌"],
  tricks: ["two players, eight numbered cards each: the higher card takes the trick", "两人各八张数字牌，大牌吃墩"],
};

export function gameLine(game) {
  const line = GAME_LINES[game];
  return line ? tr(...line) : "";
}

// each ruleset's name and line; the rules pages for players are docs/rules/players/GAME.md and
// GAME.zh.md rendered (paiju/server/rules.py), at /rules/GAME.html and /rules/GAME.zh.html
const RULESETS = {
  mahjong: {
    championship: ["championship", "竞赛", "108 suited tiles (no winds or dragons); seven pairs wins; 报听 allowed", "108 张序数牌（无风箭牌），七对可胡，可报听"],
    classic: ["classic", "经典", "136 tiles with winds and dragons; no seven pairs", "136 张含风牌箭牌，七对不能胡"],
  },
  bridge: {
    standard: ["standard", "标准", "duplicate scoring; declarer may claim the rest", "复式计分，庄家可以摊牌"],
    "no-claims": ["no claims", "不摊牌", "every trick is played out: no claims", "每一墩都要打完，不能摊牌"],
  },
  niujiu: {
    standard: ["standard", "标准", "the hand ends as soon as who is enough is settled", "够牌的人确定后本局即结束"],
    "play-out": ["play-out", "打完", "every card is played, to the last trick", "所有牌都要打完，直到最后一墩"],
  },
  tricks: {
    standard: ["standard", "标准", "8 cards each, numbered 1-16", "每人 8 张，编号 1-16"],
    pack: ["pack", "整副", "26 cards each: the whole 52-card pack", "每人 26 张：整副 52 张牌"],
  },
};

export function rulesetName(game, name) {
  const r = (RULESETS[game] || {})[name];
  return r ? tr(r[0], r[1]) : name;
}

export function rulesetLine(game, name) {
  const r = (RULESETS[game] || {})[name];
  return r ? tr(r[2], r[3]) : "";
}

/** The address of a game's rules page in the page's language. */
export function rulesUrl(game) {
  return `/rules/${game}${ZH ? ".zh" : ""}.html`;
}

// bridge's system card: every row of the bidding system the robots bid and read, the one each
// call's explanation comes from (served from the tables themselves: paiju/server/systemcard.py),
// in the page's language
export const SYSTEM_CARD_URL = ZH ? "/rules/bridge-system.zh.html" : "/rules/bridge-system.html";

// a room's status in the lobby's list (ROOM_LIST's status: paiju.core.lifecycle.Phase) and a
// match's in the records (paiju.records.models: playing, over, abandoned)
const STATUS = { waiting: ["waiting", "等人中"], playing: ["playing", "进行中"], over: ["over", "已结束"], abandoned: ["abandoned", "中途结束"] };

export function statusWord(status) {
  const pair = STATUS[status];
  return pair ? tr(...pair) : status;
}

// ------------------------------------------------------------------ robots
// each robot's line in Chinese, by its English line (two games may have robots of one name:
// niujiu's greedy is not mahjong's)
const ROBOT_LINES = {
  "plays perfectly: an exact solver picks an optimal card every trick": "完美算牌：每墩用精确求解选最优的牌",
  "plays a legal move at random: the baseline": "随机出合法的牌：基准",
  "plans its hand by hu distance (tiles away from a win) and plays safe once ready": "按向听数规划手牌，听牌后打安全牌",
  "fewest tiles from a win, then the most tiles that bring it nearer: the strong baseline": "向听数最少，再求进张最多：强基准",
  "plans by rearranging tile pairs (the BDI strategy)": "按重排牌对规划手牌（信念-愿望-意图策略）",
  "discards whatever brings the hand nearest a win; never declares ready": "总打最接近胡牌的牌，从不报听",
  "the automaton, with Monte Carlo play-outs at the decisions it leaves open": "自动机，未定之处用蒙特卡洛模拟",
  'the "six must suffice" automaton, the sure-winner test, the evaluation': "“六张必够”自动机，稳赢检验与估值",
  "leads its largest pattern, eats as cheaply as it can, never guesses hidden cards: the baseline": "先出最大的牌型，用最小的代价吃牌，从不猜暗牌：基准",
  "table bidding, experience rules, then Monte Carlo double dummy": "叫牌表与经验规则，打牌用蒙特卡洛双明手",
  "hybrid frozen as the baseline: the tables of v1, opening leads by the rules, no signals": "冻结为基准的混合机器人：第一版叫牌表，按规则首攻，不打信号",
  "natural bidding by points and the longest suit, simple card play: the measuring stick": "按点力与最长套自然叫牌，简单打牌：参照标准",
};

/** A robot's one-line description in the page's language (``text``: the server's, English). */
export function robotLine(name, text) {
  return ZH && ROBOT_LINES[text] ? ROBOT_LINES[text] : text;
}

// each game's robots' names and versions (NAME@VERSION, as the records name them), from /healthz
const ROBOT_LABELS = {};
export function setRobotLabels(labels) {
  if (labels && typeof labels === "object") Object.assign(ROBOT_LABELS, labels);
}

/** A robot's name and version as the records show it ("hybrid" -> "hybrid@3"), else its name. */
export function robotLabel(game, robot) {
  return (ROBOT_LABELS[game] || {})[robot] || robot;
}

/** A seat holder's name as shown: "hybrid (robot)" -> "hybrid@3 (robot)", "hybrid@3（机器人）" in Chinese. */
export function holderName(name, game = "") {
  if (typeof name !== "string") return name;
  const robot = robotOf(name);
  return robot ? `${robotLabel(game, robot)}${tr(" (robot)", "（机器人）")}` : name;
}

/** The robot's name of a seat holder's ("hybrid (robot)" -> "hybrid"), or null for a person. */
export function robotOf(name) {
  return typeof name === "string" && name.endsWith(" (robot)") ? name.slice(0, -8) : null;
}

// ------------------------------------------------------------------ seats
export const BRIDGE_SEATS = ZH ? ["北", "东", "南", "西"] : ["North", "East", "South", "West"];
/** A bridge vulnerability as players say it: "None" is neither side, "All" both. */
export function vulnerabilityWords(vul) {
  const words = ZH ? { None: "双方无局", NS: "南北有局", EW: "东西有局", All: "双方有局" } : { None: "neither side", NS: "North-South", EW: "East-West", All: "both sides" };
  return words[vul] ?? vul;
}
/** The vulnerabilities by their index in a BOARD event's arg (paiju/protocol/bridge.py). */
export const VULNERABILITY = ["None", "NS", "EW", "All"];

// a mahjong seat's wind for the hand: the dealer is East, then counterclockwise
export const WINDS = [
  ["East", "东"],
  ["South", "南"],
  ["West", "西"],
  ["North", "北"],
];
// Niujiu's seats from the head of the hand, in the order of play (docs/rules/niujiu.md R1.6)
const NIUJIU_SEATS = [
  ["head", "头家"],
  ["second", "二家"],
  ["third", "三家"],
];

/** The seat's name at the table: "North", "东 East" (mahjong, from the dealer), "头家 head" (Niujiu, from the head), "seat 2". */
export function seatBase(game, s, dealer = 0) {
  if (game === "bridge") return BRIDGE_SEATS[s];
  if (game === "mahjong" || game === "niujiu") {
    const names = game === "mahjong" ? WINDS : NIUJIU_SEATS;
    const [en, zh] = names[(s - dealer + names.length) % names.length];
    return ZH ? (game === "mahjong" ? `${zh}家` : zh) : `${zh} ${en}`;
  }
  return tr(`seat ${s + 1}`, `${s + 1} 号位`);
}

// ------------------------------------------------------------------ actions
const ACT_NAMES = {
  tricks: { PLAY: ["play", "出牌"] },
  bridge: {
    BID: ["bid", "叫牌"],
    PASS: ["pass", "不叫"],
    DOUBLE: ["double", "加倍"],
    REDOUBLE: ["redouble", "再加倍"],
    PLAY: ["play", "出牌"],
    CLAIM: ["claim", "摊牌"],
    ACCEPT: ["accept", "同意"],
    REJECT: ["reject", "拒绝"],
  },
  niujiu: { LEAD: ["lead", "出牌"], EAT: ["eat", "吃"], COVER: ["cover", "扣牌"] },
  mahjong: {
    DISCARD: ["discard", "打牌"],
    CHOW: ["chow", "吃"],
    PONG: ["pong", "碰"],
    KONG: ["kong", "杠"],
    HU: ["hu", "胡"],
    PASS: ["pass", "过"],
    READY: ["ready", "报听"],
  },
};

/** An action's name for a prompt's button: "discard" / "打牌". */
export function actName(game, code) {
  const name = gameInfo(game).act[code];
  const pair = (ACT_NAMES[game] || {})[name];
  if (pair) return tr(...pair);
  return name ? name.toLowerCase().replace(/_/g, " ") : tr(`action ${code}`, `动作 ${code}`);
}

// ------------------------------------------------------------------ Niujiu's patterns
// Niujiu's pattern kinds (paiju/protocol/niujiu.py Kind) as players call them
const NIUJIU_KINDS = {
  SINGLE: ["a single", "单张"],
  PAIR: ["a pair", "对子"],
  TRIPLE: ["a triple", "三张"],
  LIANGZI: ["a liangzi 亮子", "亮子"],
  NIU_PAIR: ["二牛 (two niu)", "二牛"],
  NIU_TRIPLE: ["三牛 (three niu)", "三牛"],
  XI_PAIR: ["二喜 (two xi)", "二喜"],
  XI_TRIPLE: ["三喜 (three xi)", "三喜"],
  YU: ["鱼 (yu)", "鱼"],
  BAI: ["摆 (bai)", "摆"],
  YU_LIANG: ["鱼亮 (yu-liang)", "鱼亮"],
  BAI_LIANG: ["摆亮 (bai-liang)", "摆亮"],
  XI_BAO_LIANG: ["喜包亮 (xi-bao-liang)", "喜包亮"],
};

export function niujiuKind(arg) {
  const name = gameInfo("niujiu").kinds[arg];
  const pair = NIUJIU_KINDS[name];
  return pair ? tr(...pair) : tr("a pattern", "牌型");
}

const shown = (bytes) => bytes.length > 0 && !Array.from(bytes).includes(HIDDEN);

// ------------------------------------------------------------------ events
/**
 * One event as a sentence, or null for one not worth a line. ``who(s)`` names a seat;
 * ``me`` is the receiver's seat (null: a spectator).
 */
export function eventText(game, f, who, me) {
  const w = f.seat === null || f.seat === undefined ? "" : who(f.seat);
  const cards = (b = f.cards) => cardsText(game, b);
  switch (f.code) {
    case ROOM.HAND_START: {
      const start = tr(`Hand ${f.arg + 1} begins`, `第 ${f.arg + 1} 局开始`);
      if (f.seat === null || game === "bridge") return tr(`${start}.`, `${start}。`); // bridge: BOARD follows with the dealer
      if (game === "mahjong") return tr(`${start}: ${w} is the dealer.`, `${start}：${w}坐庄。`);
      if (game === "niujiu") return tr(`${start}: ${w} is the head (头家).`, `${start}：${w}先出。`);
      return tr(`${start}: ${w} leads.`, `${start}：${w}先出。`);
    }
    case ROOM.DEAL:
      if (f.seat === me && shown(f.cards)) return tr(`You are dealt ${cards()}.`, `你的牌：${cards()}。`);
      return null; // the others' deals say nothing a player reads
    case ROOM.HAND_END:
      return tr("The hand is over.", "本局结束。");
    case ROOM.SEAT: {
      const kind = SEAT_KINDS[f.arg];
      if (kind === "HUMAN") return tr(`${w}: a player sits down.`, `${w}：玩家入座。`);
      if (kind === "BOT") return tr(`${w}: a robot takes the seat.`, `${w}：机器人入座。`);
      if (kind === "AWAY") return tr(`${w} has lost the connection; the seat is kept for a while.`, `${w}断线了，座位暂时保留。`);
      return tr(`${w}: the seat is free.`, `${w}：空位。`);
    }
    case ROOM.TIMEOUT:
      return tr(`${w} ran out of time: the default move is played.`, `${w}超时：自动出牌。`);
    case ROOM.MATCH_END:
      return tr("The match is over.", "比赛结束。");
    case ROOM.ROBOT:
      return f.arg ? tr(`A robot plays for ${w} for now.`, `机器人暂时替${w}打。`) : tr(`${w} is back at the controls.`, `${w}回来了。`);
  }
  const words = { tricks: tricksText, bridge: bridgeText, niujiu: niujiuText, mahjong: mahjongText }[game];
  const text = words ? words(f, w, who, me, cards) : undefined;
  if (text !== undefined) return text;
  // a game this page does not know: the code's name and the cards
  const info = gameInfo(game);
  const name = f.code >= ECHO && f.code < ECHO + ACTION_CODES ? info.act[f.code - ECHO] : info.events[f.code];
  return `${w} ${(name || `event ${f.code}`).toLowerCase().replace(/_/g, " ")} ${shown(f.cards) ? cards() : ""}`.trim();
}

const TRICKS = codesOf("tricks");
const BRIDGE = codesOf("bridge");
const NIUJIU = codesOf("niujiu");
const MAHJONG = codesOf("mahjong");

function tricksText(f, w, who, me, cards) {
  if (f.code === TRICKS.echo.PLAY) return tr(`${w} plays ${cards()}.`, `${w}出 ${cards()}。`);
  if (f.code === TRICKS.events.TRICK) return tr(`${w} wins the trick (${count(f.arg, "trick", "墩")} won).`, `${w}吃下这一墩（共 ${f.arg} 墩）。`);
  return undefined;
}

function bridgeText(f, w, who, me, cards) {
  const doubled = (k) => [tr("", ""), tr(" doubled", "，加倍"), tr(" redoubled", "，再加倍")][k];
  switch (f.code) {
    case BRIDGE.echo.BID:
      return tr(`${w} bids ${formatCall(f.arg)}.`, `${w}叫 ${formatCall(f.arg)}。`);
    case BRIDGE.echo.PASS:
      return tr(`${w} passes.`, `${w}不叫。`);
    case BRIDGE.echo.DOUBLE:
      return tr(`${w} doubles.`, `${w}加倍。`);
    case BRIDGE.echo.REDOUBLE:
      return tr(`${w} redoubles.`, `${w}再加倍。`);
    case BRIDGE.echo.PLAY:
      return tr(`${w} plays ${cards()}.`, `${w}出 ${cards()}。`);
    case BRIDGE.echo.CLAIM:
      return tr(`${w} claims ${count(f.arg, "more trick", "墩")}.`, `${w}摊牌，再要 ${f.arg} 墩。`);
    case BRIDGE.echo.ACCEPT:
      return tr(`${w} accepts the claim.`, `${w}同意摊牌。`);
    case BRIDGE.echo.REJECT:
      return tr(`${w} rejects the claim: play goes on.`, `${w}拒绝摊牌：继续打。`);
    case BRIDGE.events.CONTRACT:
      return tr(`The contract is ${formatCall(f.arg & 0xff)}${doubled(f.arg >> 8)}, played by ${w}.`, `定约 ${formatCall(f.arg & 0xff)}${doubled(f.arg >> 8)}，由${w}主打。`);
    case BRIDGE.events.PASSED_OUT:
      return tr("All four pass: the board is passed out.", "四家都不叫：本副牌作废。");
    case BRIDGE.events.DUMMY:
      return tr(`${w} is dummy and lays down the hand.`, `${w}是明手，摊开手牌。`);
    case BRIDGE.events.TRICK:
      return tr(`${w} wins the trick.`, `${w}赢得这一墩。`);
    case BRIDGE.events.REVEAL:
      return shown(f.cards) ? tr(`${w} held ${cards()}.`, `${w}的牌：${cards()}。`) : null;
    case BRIDGE.events.BOARD:
      return tr(
        `Board ${f.arg >> 2}: ${w} deals, ${vulnerabilityWords(VULNERABILITY[f.arg & 3])} vulnerable.`,
        `第 ${f.arg >> 2} 副：${w}发牌，${vulnerabilityWords(VULNERABILITY[f.arg & 3])}。`,
      );
  }
  return undefined;
}

function niujiuText(f, w, who, me, cards) {
  switch (f.code) {
    case NIUJIU.echo.LEAD:
      return tr(`${w} leads ${niujiuKind(f.arg)}: ${cards()}.`, `${w}出${niujiuKind(f.arg)}：${cards()}。`);
    case NIUJIU.echo.EAT:
      return tr(`${w} eats with ${niujiuKind(f.arg)}: ${cards()}.`, `${w}用${niujiuKind(f.arg)}吃：${cards()}。`);
    case NIUJIU.echo.COVER:
    case NIUJIU.events.COVERED:
      if (f.seat === me && shown(f.cards)) return tr(`You cover ${cards()} (face down).`, `你扣下 ${cards()}。`);
      return tr(`${w} covers ${count(f.cards.length, "card", "张")}.`, `${w}扣 ${f.cards.length} 张。`);
    case NIUJIU.events.OCCUPY:
      return tr(
        `${w} occupies the trick${f.cards.length ? ` (${count(f.cards.length, "card", "张")})` : ""}.`,
        `${w}占下这一轮${f.cards.length ? `（${f.cards.length} 张）` : ""}。`,
      );
    case NIUJIU.events.ENOUGH:
      return tr(`${w} has enough (够).`, `${w}够了。`);
    case NIUJIU.events.REVEAL:
      return shown(f.cards) ? tr(`${w} shows ${cards()}.`, `${w}亮牌：${cards()}。`) : null;
  }
  return undefined;
}

function mahjongText(f, w, who, me, cards) {
  const s = f.seat;
  switch (f.code) {
    case MAHJONG.echo.DISCARD:
      return tr(`${w} discards ${cards()}.`, `${w}打出 ${cards()}。`);
    case MAHJONG.echo.CHOW:
      return tr(`${w} chows ${cards()} (the tile of ${who(f.arg)}).`, `${w}吃 ${cards()}（${who(f.arg)}的牌）。`);
    case MAHJONG.echo.PONG:
      return tr(`${w} pongs ${cards()} (the tile of ${who(f.arg)}).`, `${w}碰 ${cards()}（${who(f.arg)}的牌）。`);
    case MAHJONG.echo.KONG:
      if (f.cards.length === 1) return tr(`${w} adds ${cards()} to a pong: a kong.`, `${w}补杠 ${cards()}。`);
      if (f.arg !== s) return tr(`${w} kongs ${cards()} (the tile of ${who(f.arg)}).`, `${w}杠 ${cards()}（${who(f.arg)}的牌）。`);
      if (shown(f.cards)) return tr(`${w} declares a concealed kong of ${cards()}.`, `${w}暗杠 ${cards()}。`);
      return tr(`${w} declares a concealed kong.`, `${w}暗杠。`);
    case MAHJONG.echo.HU:
      if (f.arg === s) return tr(`${w} wins (hu 胡) by self-draw on ${cards()}!`, `${w}自摸 ${cards()} 胡了！`);
      return tr(`${w} wins (hu 胡) on ${cards()}, the discard of ${who(f.arg)}!`, `${w}胡了 ${cards()}，${who(f.arg)}点炮！`);
    case MAHJONG.echo.PASS:
      return null; // passing on a claim says nothing a player reads
    case MAHJONG.echo.READY:
      return tr(`${w} declares ready (报听), discarding ${cards()}.`, `${w}报听，打出 ${cards()}。`);
    case MAHJONG.events.DRAW:
      if (s === me && shown(f.cards)) return tr(`You draw ${cards()} (${f.arg} left in the wall).`, `你摸到 ${cards()}（牌墙剩 ${f.arg} 张）。`);
      return tr(`${w} draws (${f.arg} left in the wall).`, `${w}摸牌（牌墙剩 ${f.arg} 张）。`);
    case MAHJONG.events.REPLACEMENT:
      if (s === me && shown(f.cards)) return tr(`You draw ${cards()} as a replacement.`, `你补摸到 ${cards()}。`);
      return tr(`${w} draws a replacement tile.`, `${w}补摸一张。`);
    case MAHJONG.events.WALL:
      return tr(`${count(f.arg, "tile", "张")} left in the wall.`, `牌墙剩 ${f.arg} 张。`);
    case MAHJONG.events.REVEAL:
      return shown(f.cards) ? tr(`${w} shows ${cards()}.`, `${w}亮牌：${cards()}。`) : null;
    case MAHJONG.events.DRAWN_HAND:
      return tr("The wall is empty: a drawn hand (流局).", "牌墙摸完：流局。");
  }
  return undefined;
}
