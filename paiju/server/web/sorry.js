// What the page says when the server refuses something (an ERROR frame, SPEC.md §7): a sentence
// in the player's language and a way on, never a code. Every code of the wire (wire.js ERRORS
// and each game's errors) has its sentence; tests/browser/test_web_words.py checks that none is
// missing. The code itself stays on the message's data-code, for whoever debugs.
//
//   sorry(202)  // {text: "This table has ended, or its link is wrong.", lobby: true}

import { tr } from "./i18n.js";

// by code: [English, 简体中文, whether the way on is the lobby]
const WORDS = {
  100: ["The page sent something the server could not read. Reload the page.", "服务器读不懂页面发来的内容，请刷新页面。"],
  101: ["The page sent something the server could not read. Reload the page.", "服务器读不懂页面发来的内容，请刷新页面。"],
  102: ["Something in that request was not right: check the name and the options, then try again.", "请求里有内容不对：请检查名字和选项后重试。"],
  103: ["That card is not one of this game's. Choose another.", "这张牌不属于本游戏，请另选。"],
  104: ["That was too long to send. Make it shorter.", "内容太长，请缩短后再发。"],
  105: ["The page sent something the server could not read. Reload the page.", "服务器读不懂页面发来的内容，请刷新页面。"],
  106: ["This page is older than the server. Reload the page.", "页面版本比服务器旧，请刷新页面。"],
  107: ["The page sent something the server could not read. Reload the page.", "服务器读不懂页面发来的内容，请刷新页面。"],
  200: ["The connection was not ready yet. Try again in a moment.", "连接尚未就绪，请稍后再试。"],
  201: ["Your earlier session has expired: a new one has started.", "之前的会话已过期，已开始新的会话。"],
  202: ["This table has ended, or its link is wrong.", "这张牌桌已经结束，或者链接有误。", true],
  203: ["That seat has just been taken. Choose another.", "这个座位刚被占了，请另选一个。"],
  204: ["This table or server is full right now. Try another table or try again shortly.", "牌桌或服务器已满，请换一张牌桌或稍后再试。", true],
  205: ["You are not at that table any more.", "你已不在这张牌桌上。", true],
  206: ["Those table options are not possible: change them and create the table again.", "这些牌桌选项无法使用，请修改后重新创建。"],
  207: ["Too fast: wait a moment, then try again.", "操作太快了，请稍等再试。"],
  208: ["You are at a table already: leave it first.", "你已经在一张牌桌上了，请先离开。"],
  209: ["The connection was too slow and was closed: the page reconnects.", "连接太慢已被关闭，页面正在重新连接。"],
  210: ["That cannot be done right now.", "现在不能这样做。"],
  211: ["That name belongs to an account: log in to use it, or choose another name.", "这个名字属于一个账号：请登录后使用，或换一个名字。"],
  212: ["Wrong name or password.", "名字或密码错误。"],
  213: ["That name or password is not allowed: a name is 2 to 24 letters, digits, _, - or ., starting with a letter or digit.", "名字或密码不符合要求：名字为 2 到 24 个字母、数字、_、- 或 .，以字母或数字开头。"],
  214: ["This server keeps no accounts.", "这台服务器不保存账号。"],
  215: ["The table is on another server: following it.", "牌桌在另一台服务器上，正在转接。"],
  216: ["Too many connections from your address: close another tab and reload.", "你的地址连接过多，请关闭其他标签页后刷新。"],
  217: ["You have opened many tables lately: wait a minute before opening another.", "你最近开的牌桌太多，请过一分钟再开。"],
  218: ["The table closed: nobody joined it in time.", "牌桌已关闭：没有人及时加入。", true],
  219: ["The table closed: its robot players did not come in time. Try again shortly, or choose other robots.", "牌桌已关闭：机器人玩家没有及时到来。请稍后再试，或选择其他机器人。", true],
  300: ["It is not your turn.", "还没轮到你。"],
  301: ["That decision has passed (the clock decided, or it was answered).", "这一步已经过去了（时间到了，或已作答）。"],
  302: ["That is not allowed now. Choose a highlighted play.", "现在不能这样出，请选择高亮的出法。"],
  303: ["Those cards cannot be played now. Choose a highlighted play.", "现在不能出这些牌，请选择高亮的出法。"],
  304: ["The hand is over.", "这一局已经结束。"],
  320: ["That tile is not in your hand.", "这张牌不在你手里。"],
  321: ["Only the next player may chow that tile.", "只有下家可以吃这张牌。"],
  322: ["Too late: the discard can no longer be claimed.", "晚了：这张牌已不能再要。"],
  323: ["That hand is not a winning hand.", "这手牌还不能胡。"],
  324: ["That discard does not leave you ready.", "打出这张后还没有听牌。"],
  325: ["Your hand is ready and locked: discard the tile you draw.", "你已报听：摸什么打什么。"],
  340: ["That bid is not higher than the last one.", "这个叫品不比上一个高。"],
  341: ["You cannot double now.", "现在不能加倍。"],
  342: ["You cannot redouble now.", "现在不能再加倍。"],
  343: ["You must follow suit.", "必须跟出同花色的牌。"],
  344: ["That card is from the wrong hand.", "这张牌不是该出的那一手里的。"],
  345: ["The auction is over.", "叫牌已经结束。"],
  346: ["No claim is possible now.", "现在不能摊牌。"],
  360: ["Those cards make no pattern that can be led.", "这几张牌组不成可以出的牌型。"],
  361: ["Those cards do not beat the best play of the trick.", "这几张牌管不上本轮最大的牌。"],
  362: ["Play as many cards as the trick's lead.", "出牌张数要和本轮首家一样。"],
  363: ["Those cards are not all in your hand.", "这些牌不全在你手里。"],
  380: ["That card is not in your hand.", "这张牌不在你手里。"],
  500: ["Something went wrong on the server. Try again; if it persists, reload the page.", "服务器出了问题，请重试；如仍不行，请刷新页面。"],
  503: ["The server is restarting: the page reconnects in a moment.", "服务器正在重启，页面马上重新连接。"],
};

/** The sentence for ERROR ``code`` in the page's language, and whether its way on is the lobby. */
export function sorry(code) {
  const w = WORDS[code];
  if (!w) return { text: tr("The server refused that. Try again, or go back to the lobby.", "服务器拒绝了这个操作。请重试，或返回大厅。"), lobby: true };
  return { text: tr(w[0], w[1]), lobby: Boolean(w[2]) };
}

/** The codes that have a sentence (for the test that every code of the wire has one). */
export const SORRY_CODES = Object.keys(WORDS).map(Number);
