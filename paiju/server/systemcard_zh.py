"""The words of bridge's system card in simplified Chinese (paiju/server/systemcard.py renders
the card in either language; the rows' meanings come from the web client's own table,
web/meanings.js, so that the card and the table's explanations say the same)."""

from __future__ import annotations

TITLES = {
    "openings": "开叫",
    "responses": "应叫",
    "controls": "扣叫",
    "rebids": "再叫",
    "competition": "竞叫",
    "slam": "满贯叫牌",
    "placement": "定约（任何叫牌进程）",
}

COLUMNS = ("叫牌进程", "叫品", "点力", "牌型", "含义")
ANY = "不限"

LEGEND = (
    (
        "叫牌进程",
        "开叫以来的叫品，按叫牌人所见：`-` 还没有人叫牌；`1x P` 同伴开叫一阶花色，下家不叫；"
        "`...` 任何进程；`... 4NT P` 以此结束的进程。叫品中的小写字母（`1x`、`2y`）代表一门花色。",
    ),
    ("叫品", "`P` 不叫，`X` 加倍，`XX` 再加倍，一个叫品（`2NT`、`3x`），或 `+x`：x 花色最便宜的叫品。"),
    ("点力", "大牌点，按本体系对短套大牌和长套的调整：`12-15`、`16+`、`-10`（至多 10 点）；空白：不限。"),
    (
        "牌型",
        "必须全部满足的条件：花色长度（`S5+` 五张以上黑桃，`H-4` 至多四张红心，`x4`）；"
        "`hC3` 梅花前四大牌中有三张；`bal` 均型；`rest3+` 其余每门至少三张；`x=M` / `x=m` 高花 / 低花；"
        "`tp25+` 本手点力加同伴承诺的点力；`fitx` 我方在 x 花色共八张；`kc1/4` 关键张（四张 A 和将牌 K）；"
        "`tq` / `notq` 有 / 没有将牌 Q；`t` 我方约定的花色；`cuey` y 是成局以下有控制（A、K、单张或缺门）的最便宜旁套；"
        "`ctlok` 每门旁套由本手或同伴的扣叫控制；`stopx` x 花色有止张（A、Kx、Qxx、Jxxx）；"
        "`stops` 每门都由本手止住，或同伴承诺了四门止张。",
    ),
    ("含义", "这个叫品用文字说明的意思；逼叫：同伴不可以不叫。"),
)

HEAD = """<p>机器人叫牌的约定卡：每一次叫牌，它们按顺序选择下面第一条进程、点力和牌型都符合的规则；
读别人的叫品（无论是人还是机器人的），则看哪些规则可能叫出它。牌桌上每个叫品旁边显示的含义就来自这些规则：
先是规则的文字，然后是它们共同承诺的内容（点力、花色长度），同伴不可以不叫时再加上“逼叫”。</p>"""

TITLE = "桥牌：叫牌体系"
BACK = "桥牌规则"

# each table's opening comment (its lines joined by spaces)
INTROS = {
    "openings": "开叫。各列：叫牌进程 | 叫品 | 点力 | 牌型 | 含义。"
    "叫牌进程 `-` 表示还没有人叫牌（第一、二、三、四家都一样）。"
    "点力按本体系估算（大牌点、短套大牌、长套）；规则按顺序逐条尝试。",
    "responses": "应叫：同伴开叫，右手对手不叫。",
    "controls": "扣叫：我方在三阶约定了一门花色（`t`）并有满贯实力后，在成局以下叫一门旁套，"
    "表示那里有控制（A 或缺门，或 K 或单张；最便宜的那门），逼叫。同伴回扣叫，或在两手合起来每门旁套都有控制时"
    "问关键张（答叫在满贯叫牌一节），或止叫在成局。这些规则排在再叫之前，使有满贯实力时不会不经试探就止叫在成局。",
    "rebids": "开叫人的再叫和应叫人的再叫（其余的交给定约一节）。",
    "competition": "竞叫：对方开叫，或在我方开叫后插叫。",
    "slam": "满贯叫牌：我方约定了花色并有满贯实力时问关键张（罗马关键张黑木问叫，1430），它的答叫，"
    "以及问叫人的决定。关键张是四张 A 和将牌 K；`t` 是我方约定的花色（我方一人叫过并承诺至少三张的最后一门花色）。"
    "无将之上的定量 4NT 和 5NT 在应叫和再叫中。",
    "placement": "定约：上面没有一条规则描述的所有后续叫品。叫牌进程 `...` 表示任何进程；"
    "`tp` 是本手点力加同伴承诺的点力（按各表从同伴叫品读出的范围取中间值）；`fitx` 表示我方在 x 花色共有八张以上。",
}

# the sections within the tables (their "--- ..." comments)
SECTIONS = {
    "to the strong club": "应强梅花",
    "to one notrump (13-15): Stayman, transfers, notrump raises": "应 1NT（13-15）：斯台曼问叫、转移叫、无将加叫",
    "to one of a major (11-15, five or more)": "应一阶高花（11-15，五张以上）",
    "to one diamond (11-15, may be short)": "应 1♦（11-15，可能是短套）",
    "to two clubs (11-15, six clubs)": "应 2♣（11-15，六张梅花）",
    "to two diamonds (11-15, 4-4-1-4 or 4-4-0-5)": "应 2♦（11-15，4-4-1-4 或 4-4-0-5）",
    "to a weak two or a pre-empt": "应弱二或阻击叫",
    "after partner's control bid": "同伴扣叫之后",
    "the first control bid, or the ask when every side suit is controlled here": (
        "第一个扣叫，或每门旁套都由本手控制时直接问叫"
    ),
    "strong club, negative response": "强梅花，消极应叫",
    "strong club, positive response: opener shows support or notrump, placement follows": (
        "强梅花，积极应叫：开叫人表示支持或无将，然后定约"
    ),
    "one notrump: Stayman and transfers": "1NT：斯台曼问叫和转移叫",
    "one of a major": "一阶高花",
    "one diamond": "1♦",
    "two diamonds": "2♦",
    "two clubs": "2♣",
    "direct overcalls over one of a suit (right-hand opponent opened)": "对一阶花色开叫的直接争叫（右手对手开叫）",
    "over a two- or three-level opening": "对二阶或三阶开叫",
    "in the balancing seat": "平衡位置",
    "advancing the balancing double": "应平衡位置的加倍",
    "the balancing doubler's rebid": "平衡位置加倍人的再叫",
    "the fourth hand after their opening and response": "对方开叫并应叫之后的第四家",
    "the fourth hand after their opening and a raise": "对方开叫并加叫之后的第四家",
    "the opener after their overcall and two passes": "对方争叫、两家不叫之后的开叫人",
    "the same over a two-level overcall": "对二阶争叫，同上",
    "advancing partner's overcall or double": "应同伴的争叫或加倍",
    "advancing a take-out double when the next hand bids (a free advance)": "下家叫牌时应技术性加倍（自由应叫）",
    "advancing a take-out double when the next hand raises its partner": "下家加叫其同伴时应技术性加倍",
    "the doubler's rebid with a strong hand": "加倍人持强牌的再叫",
    "our opening, their overcall or double": "我方开叫，对方争叫或加倍",
    "the strong club after their overcall and raise": "对方争叫并加叫之后的强梅花开叫人",
    "the answers (4NT is forcing: every hand has one)": "答叫（4NT 是逼叫：每手牌都有一个答叫）",
    "4NT with no suit agreed is quantitative (placement.txt): six with the top of the range": (
        "没有约定花色时 4NT 是定量邀请（定约一节）：范围上限叫六阶"
    ),
    "the asker decides": "问叫人决定",
    "the answerer passes the sign-off and the slam": "答叫人对止叫和满贯不叫",
    "reached only when partner's last call is forcing (no row passes it) and no row above bids": (
        "只在同伴最后一个叫品是逼叫（没有规则不叫）且上面没有规则叫牌时用到"
    ),
}
