// The bidding system's words in Chinese. The server sends each call's meaning in English (the
// rows of paiju/games/bridge/tables/*.txt, as paiju.games.bridge.bidding.explain joins them: the
// rows' meanings separated by " / ", then "; " and what the call promises together, "13-15
// points, 2-5 clubs", then "; forcing"); a Chinese page shows it in Chinese, phrase by phrase.
// tests/games/test_bridge_meanings_zh.py checks that every row of the tables has its words here.
//
//   meaningText("balanced, no five-card major; 13-15 points, 2-5 clubs")
//     -> "均型，没有五张高花；13-15 点，梅花 2-5 张" (on a Chinese page; the text itself on an English one)

import { ZH } from "./i18n.js";

// each row's meaning, English -> 中文 (one object literal, JSON: the test reads it)
export const MEANINGS_ZH = /*JSON*/ {
  "Stayman, forcing": "斯台曼问叫，逼叫",
  "Stayman: a four-card major, forcing": "斯台曼问叫：有四张高花，逼叫",
  "a four-card major": "有四张高花",
  "a four-card suit": "有一门四张花色",
  "a major": "一门高花",
  "a second suit": "第二套花色",
  "a stopper": "有止张",
  "a suit of four": "一门四张花色",
  "accepts": "接受",
  "accepts the game try": "接受成局试探",
  "accepts the grand slam invitation": "接受大满贯邀请",
  "accepts the invitation": "接受邀请",
  "accepts the quantitative invitation": "接受定量邀请",
  "accepts with six": "有六张，接受",
  "accepts with the fit": "有配合，接受",
  "accepts with the spade fit": "黑桃有配合，接受",
  "accepts, short suits counted": "接受，短套计点",
  "ask answered: none or three key cards": "回答问叫：零或三个关键张",
  "ask answered: one or four key cards": "回答问叫：一或四个关键张",
  "ask answered: two key cards with the trump queen": "回答问叫：两个关键张，有将牌 Q",
  "ask answered: two key cards without the trump queen": "回答问叫：两个关键张，没有将牌 Q",
  "back to partner's suit": "回到同伴的花色",
  "balanced": "均型",
  "balanced, a stopper": "均型，有止张",
  "balanced, no five-card major": "均型，没有五张高花",
  "balanced, strong": "均型，强牌",
  "balanced, very strong": "均型，很强",
  "balancing double": "平衡位置加倍",
  "balancing notrump": "平衡位置叫无将",
  "balancing overcall": "平衡位置争叫",
  "balancing take-out double": "平衡位置技术性加倍",
  "bids on over their game in a long fit: to make or to sacrifice": "长配合，在对方成局之上继续叫：争取做成或牺牲",
  "cheapest": "最便宜的叫品",
  "cheapest at two": "二阶最便宜的叫品",
  "choice of games": "选择成局定约",
  "clubs": "梅花",
  "competes in the fit": "在配合花色上竞叫",
  "completes the transfer": "完成转移",
  "control bid back: slam interest, forcing": "回扣叫：有满贯兴趣，逼叫",
  "control bid: slam interest, forcing": "扣叫：有满贯兴趣，逼叫",
  "converts to penalty": "转为惩罚",
  "declines": "拒绝",
  "declines with the fit": "有配合，拒绝",
  "declines with the spade fit": "黑桃有配合，拒绝",
  "declines: the small slam": "拒绝：打小满贯",
  "diamonds": "方块",
  "diamonds to play": "打方块定约",
  "everything else of 11-15: may be short in diamonds": "其他 11-15 点的牌：方块可能很短",
  "fit, a suit stopped nowhere: game forcing": "有配合，有一门花色无止张：逼局",
  "fit, game": "有配合，成局",
  "fit, game forcing": "有配合，逼局",
  "fit, set trumps": "有配合，确定将牌",
  "fit, slam interest, game forcing": "有配合，有满贯兴趣，逼局",
  "five cards, forcing: opener bids four with three, else 3NT": "五张，逼叫：开叫人有三张支持叫四阶，否则叫 3 无将",
  "five or more in the major (the longer; spades with 5-5)": "该高花五张或以上（较长的一门；5-5 时叫黑桃）",
  "forced: a suit of four": "被迫：一门四张花色",
  "forced: notrump": "被迫：无将",
  "forced: our agreed suit": "被迫：我方确定的花色",
  "forced: our last suit": "被迫：我方最后叫的花色",
  "forcing": "逼叫",
  "forcing, no major": "逼叫，没有高花",
  "four hearts (spades may be four too)": "四张红桃（黑桃也可能四张）",
  "four hearts (spades may be four too), forcing": "四张红桃（黑桃也可能四张），逼叫",
  "four hearts beside five spades, not forcing": "五张黑桃加四张红桃，不逼叫",
  "four spades": "四张黑桃",
  "four spades, forcing": "四张黑桃，逼叫",
  "four spades, not hearts, forcing": "四张黑桃，没有四张红桃，逼叫",
  "four-four-zero-five, to play": "4-4-0-5 牌型，止叫",
  "free bid, five cards": "自由叫，五张",
  "free bid, four cards and values": "自由叫，四张且有实力",
  "game": "成局",
  "game in a seven-card major": "七张高花成局",
  "game in notrump": "无将成局",
  "game in notrump, every suit stopped": "无将成局，每门都有止张",
  "game in partner's major": "在同伴的高花上成局",
  "game in the heart fit": "红桃配合成局",
  "game in the major": "高花成局",
  "game in the major fit": "高花配合成局",
  "game in the major, short suits counted opposite a limited hand": "高花成局，对面是限制性的牌，短套计点",
  "game in the minor": "低花成局",
  "game in the minor: a short suit": "低花成局：有一门短套",
  "game in the minor: a suit unstopped": "低花成局：有一门花色无止张",
  "game opposite 16-18 (or the 12-15 4-3-3-3)": "对面 16-18 点（或 12-15 点的 4-3-3-3）时成局",
  "game opposite 19-21": "对面 19-21 点时成局",
  "game opposite the raise": "对面加叫后成局",
  "game raise": "加叫到局",
  "game reached": "已到局",
  "game try accepted by itself": "自己接受成局试探",
  "game try: partner bids game with the top of 6-9": "成局试探：同伴有 6-9 点的上限就叫到局",
  "game with a long major": "有长高花，成局",
  "game, no fit": "成局，没有配合",
  "game, no fit in partner's major": "成局，同伴的高花没有配合",
  "game, no major fit": "成局，高花没有配合",
  "grand slam": "大满贯",
  "grand slam in notrump": "无将大满贯",
  "grand slam reached": "已到大满贯",
  "grand slam: every key card and partner's trump queen": "大满贯：关键张齐全，同伴有将牌 Q",
  "grand slam: every key card and the queen": "大满贯：关键张齐全，且有将牌 Q",
  "invitation": "邀叫",
  "invitation in the heart fit": "红桃配合邀叫",
  "invitation in the major fit": "高花配合邀叫",
  "invitation, no fit": "邀叫，没有配合",
  "invitation: opener bids game with 13": "邀叫：开叫人有 13 点就叫到局",
  "invitational raise": "邀请性加叫",
  "jump, invitational (or cheapest at two)": "跳叫，邀叫（或二阶最便宜的叫品）",
  "key-card ask (1430) in our agreed suit, forcing": "在我方确定的花色上问关键张（1430），逼叫",
  "key-card ask (1430), forcing": "问关键张（1430），逼叫",
  "key-card ask (1430): every side suit controlled, forcing": "问关键张（1430）：每门旁套都有控制，逼叫",
  "key-card ask: partner's slam try accepted, forcing": "问关键张：接受同伴的满贯试探，逼叫",
  "limit raise": "限制性加叫",
  "long diamonds": "长方块",
  "long hearts": "长红桃",
  "long suit": "长套",
  "minimum balanced": "低限均型",
  "natural": "自然叫",
  "natural, a five-card suit": "自然叫，五张套",
  "natural, a stopper": "自然叫，有止张",
  "natural, balancing": "自然叫，平衡位置",
  "natural, forcing": "自然叫，逼叫",
  "natural, four cards": "自然叫，四张",
  "natural, game forcing": "自然叫，逼局",
  "natural, invitational": "自然叫，邀叫",
  "natural, stoppers in both their suits": "自然叫，对方两门花色都有止张",
  "negative double": "否定性加倍",
  "negative double, forcing": "否定性加倍，逼叫",
  "negative, artificial: 0-7 high-card points, forcing": "示弱，人为叫：0-7 大牌点，逼叫",
  "no fit": "没有配合",
  "no fit, not forcing": "没有配合，不逼叫",
  "no four-card major": "没有四张高花",
  "no four-card major, forcing": "没有四张高花，逼叫",
  "no game": "不成局",
  "no major": "没有高花",
  "no other call of the system fits": "体系中没有其他叫品适合",
  "nothing else to say": "没有别的可说",
  "notrump": "无将",
  "notrump overcall": "无将争叫",
  "one-level new major": "一阶新高花",
  "one-level overcall": "一阶争叫",
  "otherwise pass": "其余情况不叫",
  "outside the system: no promise": "体系之外：不作任何保证",
  "partscore in the best fit": "在最好的配合上打部分定约",
  "partscore in the fit": "在配合花色上打部分定约",
  "penalty": "惩罚性加倍",
  "penalty double of their high contract": "对方高阶定约的惩罚性加倍",
  "penalty, balancing": "惩罚性，平衡位置",
  "positive, balanced, strong, game forcing": "积极应叫，均型，强牌，逼局",
  "positive, five or more in a minor, game forcing": "积极应叫，低花五张或以上，逼局",
  "positive, five or more, game forcing": "积极应叫，五张或以上，逼局",
  "positive, no five-card suit, game forcing": "积极应叫，没有五张套，逼局",
  "pre-empt: seven cards, two honours": "阻击叫：七张，两个大牌",
  "pre-emptive raise": "阻击性加叫",
  "quantitative: partner bids 6NT with 11+": "定量加叫：同伴有 11 点以上叫 6 无将",
  "quantitative: partner bids 6NT with 18+": "定量加叫：同伴有 18 点以上叫 6 无将",
  "quantitative: partner bids 6NT with a maximum": "定量加叫：同伴高限就叫 6 无将",
  "quantitative: partner bids 6NT with the top of the range": "定量加叫：同伴在范围上限就叫 6 无将",
  "quantitative: partner bids 6NT, or 7NT with a maximum": "定量加叫：同伴叫 6 无将，高限叫 7 无将",
  "raise": "加叫",
  "raise with values": "有实力的加叫",
  "raise, extra values": "加叫，额外实力",
  "raise, values": "加叫，有实力",
  "rebids a long suit": "再叫长套",
  "rebids clubs": "再叫梅花",
  "rebids the suit": "再叫原花色",
  "reopening double: short in their suit": "重开加倍：对方花色短",
  "second suit": "第二套花色",
  "sign-off": "止叫",
  "sign-off in game after partner's control bid": "同伴扣叫后在局止叫",
  "sign-off in game opposite the splinter": "对面爆裂叫后在局止叫",
  "sign-off: five of our suit is below the answer": "止叫：我方花色五阶在回答之下",
  "sign-off: the answer is in our suit": "止叫：回答就在我方花色上",
  "sign-off: two key cards missing": "止叫：缺两个关键张",
  "simple raise": "单加叫",
  "six or more clubs": "梅花六张或以上",
  "six, game": "六张，成局",
  "slam": "满贯",
  "slam in notrump": "无将满贯",
  "slam interest opposite the splinter, nothing wasted in its suit: key-card ask": "对面爆裂叫，该花色没有浪费的大牌，有满贯兴趣：问关键张",
  "slam interest opposite the splinter, nothing wasted in spades: key-card ask": "对面爆裂叫，黑桃没有浪费的大牌，有满贯兴趣：问关键张",
  "slam interest opposite the splinter: key-card ask": "对面爆裂叫，有满贯兴趣：问关键张",
  "slam opposite 16-19": "对面 16-19 点时打满贯",
  "slam reached": "已到满贯",
  "slam reached: no second try": "已到满贯：不再试探",
  "slam try: agrees the major, forcing": "满贯试探：同意该高花，逼叫",
  "slam try: agrees the minor, forcing": "满贯试探：同意该低花，逼叫",
  "slam, no major fit": "满贯，高花没有配合",
  "small slam in notrump": "无将小满贯",
  "small slam in the major": "高花小满贯",
  "small slam in the minor": "低花小满贯",
  "small slam: at most one key card missing": "小满贯：最多缺一个关键张",
  "some suit": "某一门花色",
  "splinter: four trumps, a singleton or void in hearts, game values, forcing": "爆裂叫：四张将牌，红桃单张或缺门，成局实力，逼叫",
  "splinter: four trumps, a singleton or void in spades, game values, forcing": "爆裂叫：四张将牌，黑桃单张或缺门，成局实力，逼叫",
  "splinter: four trumps, a singleton or void in the suit bid, game values, forcing": "爆裂叫：四张将牌，所叫花色单张或缺门，成局实力，逼叫",
  "strength": "实力",
  "strong hand": "强牌",
  "strong, a second suit": "强牌，有第二套花色",
  "strong, artificial, any shape, forcing": "强牌，人为叫，任意牌型，逼叫",
  "strong, balanced": "强牌，均型",
  "strong, balanced, a stopper": "强牌，均型，有止张",
  "strong, balanced, stoppers": "强牌，均型，有止张",
  "strong, five cards": "强牌，五张",
  "strong, five cards of my own": "强牌，自己有五张",
  "strong, game forcing": "强牌，逼局",
  "strong, natural": "强牌，自然叫",
  "strong, rebids the suit": "强牌，再叫原花色",
  "strong, take-out again": "强牌，再次技术性加倍",
  "strong: game opposite any advance": "强牌：同伴任何应叫都成局",
  "strong: invitational raise": "强牌：邀请性加叫",
  "strong: reopening double": "强牌：重开加倍",
  "strong: take-out double": "强牌：技术性加倍",
  "support": "支持",
  "take-out double": "技术性加倍",
  "take-out double of both their suits": "对方两门花色的技术性加倍",
  "take-out double of their raised suit": "对方加叫花色的技术性加倍",
  "take-out double: short in their suit": "技术性加倍：对方花色短",
  "the fit": "配合花色",
  "the other major": "另一门高花",
  "the seed's 4-3-3-3: minimum": "基础体系的 4-3-3-3：低限",
  "the seed's row: 4-3-3-3 with three club honours, forcing": "基础体系：4-3-3-3，梅花有三个大牌，逼叫",
  "the seed's row: 4-4-1-4 or 4-4-0-5, short in diamonds": "基础体系：4-4-1-4 或 4-4-0-5，方块短",
  "the sign-off accepted": "接受止叫",
  "the spade fit": "黑桃配合",
  "to play": "止叫",
  "to play in the longer major": "在较长的高花上止叫",
  "too weak to open": "太弱，不开叫",
  "transfer to hearts, forcing": "转移到红桃，逼叫",
  "transfer to spades, forcing": "转移到黑桃，逼叫",
  "two over one, forcing": "二盖一，逼叫",
  "two over one, four cards": "二盖一，四张",
  "two-level overcall": "二阶争叫",
  "values": "有实力",
  "weak jump overcall": "弱跳争叫",
  "weak two in a major: six cards, two honours": "高花弱二：六张，两个大牌"
} /*END*/;

const SUITS_ZH = { clubs: "梅花", diamonds: "方块", hearts: "红桃", spades: "黑桃" };
const PART = /^(\d+(?:\.\d+)?)(\+|-\d+(?:\.\d+)?)? (points|clubs|diamonds|hearts|spades)$/;

function partZh(part) {
  const m = PART.exec(part);
  if (!m) return null;
  const range = `${m[1]}${m[2] || ""}`;
  return m[3] === "points" ? `${range} 点` : `${SUITS_ZH[m[3]]} ${range} 张`;
}

/** ``text`` cut at each ``sep`` outside brackets: "a (b; c); d" -> ["a (b; c)", "d"]. */
function splitOutside(text, sep) {
  const out = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "(") depth += 1;
    else if (c === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0 && text.startsWith(sep, i)) {
      out.push(text.slice(start, i));
      start = i + sep.length;
      i = start - 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

/** A call's meaning (the text the server sent) in the page's language. A phrase without its
 * Chinese words stays as it came. The phrases of several meanings are joined by "; " (one
 * phrase may hold "; " in brackets: "five or more in the major (the longer; spades with 5-5)"). */
export function meaningText(text) {
  if (!ZH || !text) return text;
  return splitOutside(text, "; ")
    .map((seg) => {
      if (MEANINGS_ZH[seg] !== undefined) return MEANINGS_ZH[seg];
      const parts = seg.split(", ").map(partZh);
      if (parts.every((p) => p !== null)) return parts.join("，");
      return seg
        .split(" / ")
        .map((m) => MEANINGS_ZH[m] ?? m)
        .join(" / ");
    })
    .join("；");
}
