"""The games' own words: each term as the seeds and ``shared/rules/`` write it in Chinese, with
its English. One table for the pages (cards, tiles, event types, phases, combinations), the
documentation and the catalogues' translators; where a seed uses a word, that word wins
(tests/test_glossary.py reads the seeds: a term that names its seed is found there, in the
seed's script, and no other spelling of it is the seed's). Pure data: the edge picks the
language, the key is what the API says (an event type, a tile code, a phase)."""
from __future__ import annotations

from dataclasses import dataclass

# The seed documents, by their number (shared/seeds/NNN_*.txt).
OTTAWA, GUANDAN_CUP, NORTHEAST, SICHUAN, JINAN = "000", "001", "002", "003", "004"


@dataclass(frozen=True)
class Term:
    zh: str
    en: str
    seed: str | None = None  # the seed whose word ``zh`` is (in simplified characters)
    also: tuple[str, ...] = ()  # other spellings in use, none of which a seed writes instead

    def say(self, language: str) -> str:
        return self.zh if language == "zh" else self.en


def _numbered(suit: str, zh_suit: str, en_suit: str) -> dict[str, Term]:
    """The nine tiles of a mahjong suit: 一万 … 九万 (1m … 9m)."""
    numerals = "一二三四五六七八九"
    return {f"{n}{suit}": Term(numerals[n - 1] + zh_suit, f"{n} {en_suit}") for n in range(1, 10)}


GAMES = {
    "SJ2": Term("拖拉机（两副牌）", "Tractor (two decks)", OTTAWA, ("双扣",)),
    "SJ3": Term("拖拉机（三副牌）", "Tractor (three decks)", JINAN),
    "GD": Term("掼蛋", "Guandan", GUANDAN_CUP),
    "MJO": Term("麻将", "Mahjong (Ottawa)", OTTAWA),
    "MJS": Term("川麻", "Sichuan mahjong", SICHUAN, ("四川麻将",)),
    "bridge": Term("桥牌", "Bridge", OTTAWA),
    "xiangqi": Term("象棋", "Xiangqi", OTTAWA),
    "go": Term("围棋", "Go", OTTAWA),
}

FORMATS = {
    "knockout": Term("淘汰赛", "Knockout", OTTAWA),
    "swiss": Term("瑞士制", "Swiss rounds"),
    "groups": Term("分组赛", "Groups of four"),
    "swiss-teams": Term("积分编排", "Team event (Swiss)", JINAN),
}

SUITS = {  # the card suits as the seeds name them; seed 004 writes 草花 for clubs
    "S": Term("黑桃", "spades", JINAN),
    "H": Term("红桃", "hearts", GUANDAN_CUP, ("红心",)),
    "D": Term("方块", "diamonds", JINAN),
    "C": Term("草花", "clubs", JINAN, ("梅花",)),
}

JOKERS = {
    "BJ": Term("大王", "big joker", OTTAWA),
    "SJ": Term("小王", "small joker", OTTAWA),
}

TILES = {
    **_numbered("m", "万", "characters"),
    **_numbered("p", "筒", "dots"),
    **_numbered("s", "条", "bamboo"),
    "E": Term("东", "East wind"), "S": Term("南", "South wind"),
    "W": Term("西", "West wind"), "N": Term("北", "North wind"),
    "C": Term("中", "Red dragon"), "F": Term("发", "Green dragon"), "P": Term("白", "White dragon"),
}

COMBINATIONS = {  # Guandan (GD-3, seed 001's 牌型) and Shengji (SJ2-7, SJ3-6)
    "single": Term("单张", "single"),
    "pair": Term("对子", "pair", GUANDAN_CUP),
    "triple": Term("三张", "triple", GUANDAN_CUP),
    "fullHouse": Term("三带二", "full house", GUANDAN_CUP),
    "straight": Term("顺子", "straight", GUANDAN_CUP),
    "pairRun": Term("三连对", "three consecutive pairs", GUANDAN_CUP),
    "tripleRun": Term("双飞", "two consecutive triples", GUANDAN_CUP, ("钢板",)),
    "bomb": Term("炸弹", "bomb", GUANDAN_CUP),
    "straightFlush": Term("同花顺", "straight flush", GUANDAN_CUP),
    "fourJokers": Term("四王", "four jokers", GUANDAN_CUP, ("天王炸",)),
    "tractor": Term("拖拉机", "tractor", OTTAWA),
    "throw": Term("甩牌", "throw", OTTAWA),
}

EVENTS = {  # the event types, as a referee names what happened
    "TournamentCreated": Term("创建比赛", "tournament created"),
    "TournamentArchived": Term("比赛归档", "tournament archived"),
    "TeamRegistered": Term("报名", "team registered", OTTAWA),
    "TeamCheckedIn": Term("签到", "checked in"),
    "TeamWithdrawn": Term("退赛", "withdrawn"),
    "LotsDrawn": Term("抽签", "lots drawn", OTTAWA),
    "RoundPaired": Term("编排对阵", "round paired"),
    "TeamEventClosed": Term("团体赛结束", "team event closed"),
    "MatchStarted": Term("比赛开始", "match started"),
    "PairSeated": Term("入座", "pair seated"),
    "LatenessRecorded": Term("迟到", "lateness recorded"),
    "LatenessLimitReached": Term("迟到超时", "lateness limit reached"),
    "HandDealt": Term("发牌", "hand dealt"),
    "GDHandDealt": Term("发牌", "hand dealt"),
    "DealCompleted": Term("发牌完毕", "deal completed"),
    "TrumpDeclared": Term("定主", "trump declared", OTTAWA, ("亮主",)),
    "TrumpOvercalled": Term("反主", "trump overcalled", OTTAWA),
    "DeclarationWindowClosed": Term("定主结束", "declarations closed"),
    "KittyTaken": Term("拿底牌", "kitty taken"),
    "KittyBuried": Term("扣底牌", "kitty buried"),
    "KittyCorrected": Term("底牌更正", "kitty corrected"),
    "CardsPlayed": Term("出牌", "cards played", GUANDAN_CUP),
    "GDCardsPlayed": Term("出牌", "cards played", GUANDAN_CUP),
    "Passed": Term("不出", "passed"),
    "ThrowPenaltyChoice": Term("甩牌罚分", "throw penalty choice"),
    "PenaltyAssessed": Term("罚分", "penalty"),
    "LevelPenaltyAssessed": Term("罚级", "level penalty"),
    "CoinPenaltyAssessed": Term("罚币", "coin penalty"),
    "ConductPenaltyAssessed": Term("违规处罚", "conduct penalty"),
    "WarningIssued": Term("警告", "warning", SICHUAN),
    "IrregularityReported": Term("报告违规", "irregularity reported"),
    "PlayCorrected": Term("更正出牌", "play corrected"),
    "TributeAssigned": Term("分配进贡", "tribute assigned"),
    "TributePaid": Term("进贡", "tribute paid", GUANDAN_CUP),
    "TributeReturned": Term("还牌", "tribute returned", GUANDAN_CUP, ("还贡",)),
    "AntiTributeDeclared": Term("抗贡", "anti-tribute", GUANDAN_CUP),
    "HandResultRecorded": Term("本局结果", "hand result"),
    "GDHandResultRecorded": Term("本局结果", "hand result"),
    "ResultRecorded": Term("比赛结果", "result recorded"),
    "HandVoided": Term("本局作废", "hand voided"),
    "TimeLimitReached": Term("比赛到时", "time limit reached"),
    "TimeLimitExceeded": Term("超时", "time limit exceeded"),
    "GDTimeLimitExceeded": Term("超时", "time limit exceeded"),
    "SJ3TimeLimitExceeded": Term("超时", "time limit exceeded"),
    "MatchClockPaused": Term("暂停计时", "clock paused"),
    "MatchClockResumed": Term("恢复计时", "clock resumed"),
    "DiceRolled": Term("掷骰", "dice rolled", SICHUAN),
    "TieDiceRolled": Term("打骰子", "tie dice rolled", SICHUAN),
    "TilesDealt": Term("配牌", "tiles dealt"),
    "DrawingEnded": Term("摸牌结束", "drawing ended"),
    "ExchangeTilesSelected": Term("换三张", "three tiles exchanged", SICHUAN),
    "VoidSuitDeclared": Term("缺门", "void suit declared", SICHUAN, ("定缺",)),
    "TileDrawn": Term("摸牌", "tile drawn", SICHUAN),
    "TileDiscarded": Term("打牌", "tile discarded", SICHUAN),
    "Claim": Term("吃碰杠胡", "claim"),
    "ClaimPassed": Term("不要", "claim passed"),
    "ClaimWindowClosed": Term("过牌", "claim window closed"),
    "KongDeclared": Term("杠", "kong", SICHUAN),
    "Win": Term("胡牌", "win", SICHUAN, ("和牌", "糊牌")),
    "FalseWinDeclared": Term("炸胡", "false win", SICHUAN, ("诈和", "诈胡")),
    "ExhaustiveDrawDeclared": Term("流局", "exhaustive draw", SICHUAN, ("荒庄",)),
    "WrongTileCount": Term("相公", "wrong tile count", SICHUAN),
    "DisputeRaised": Term("提出申诉", "dispute raised"),
    "DisputeResolved": Term("申诉裁决", "dispute resolved"),
    "RulingRecorded": Term("裁决", "ruling"),
}

PHASES = {  # the phases a hand's view names
    "deal": Term("发牌", "deal"),
    "declaring": Term("定主", "declaring", OTTAWA),
    "awaiting_dealer": Term("等待庄家", "awaiting the dealer"),
    "kitty": Term("底牌", "kitty", OTTAWA),
    "burying": Term("扣底牌", "burying the kitty"),
    "correcting_kitty": Term("更正底牌", "correcting the kitty"),
    "tribute": Term("进贡", "tribute", GUANDAN_CUP),
    "return": Term("还牌", "return", GUANDAN_CUP),
    "play": Term("出牌", "play", GUANDAN_CUP),
    "playing": Term("出牌", "playing", GUANDAN_CUP),
    "exchange": Term("换三张", "exchange", SICHUAN),
    "void": Term("缺门", "void suit", SICHUAN, ("定缺",)),
    "draw": Term("摸牌", "draw", SICHUAN),
    "discard": Term("打牌", "discard", SICHUAN),
    "claims": Term("吃碰杠胡", "claims"),
    "ruling": Term("待裁决", "awaiting a ruling"),
    "over": Term("本局结束", "over"),
    "voided": Term("作废", "voided"),
    "completed": Term("已结束", "completed"),
}

SIDES = {
    "A": Term("A方", "side A"),
    "B": Term("B方", "side B"),
}

TRIBUTES = {  # GD-7.1: the tribute case of a hand (a Guandan hand view's tribute.case)
    "none": Term("不进贡", "no tribute"),
    "double": Term("双下", "double down", GUANDAN_CUP),
    "single": Term("单下", "single down", GUANDAN_CUP),
    # P1 and P4 partners: seed 001 is silent (guandan.md GD-7.1); 对家 and 末游 are its words
    "partnerLast": Term("头游对家末游", "first player's partner last"),
}

FANS = {  # MJS-6.1, 6.2: a winning hand's pattern and fans (a win's value), as the API codes them
    "basic": Term("基本胡", "basic", SICHUAN),
    "allPongs": Term("碰碰胡", "all pongs", SICHUAN),
    "sevenPairs": Term("七对", "seven pairs", SICHUAN),
    "pure": Term("清一色", "pure one suit", SICHUAN),
    "gen": Term("根", "gen (four of a kind)"),
    "selfDraw": Term("自摸", "self-drawn", SICHUAN),
    "kongFlower": Term("杠开", "win on a kong's replacement tile", SICHUAN, ("杠上开花",)),
    "afterKong": Term("杠后炮", "win on the discard after a kong", SICHUAN, ("杠上炮",)),
    "robKong": Term("抢杠", "robbing a kong", SICHUAN),
    "lastTile": Term("海底捞月", "the last tile", SICHUAN),
}

PAYMENTS = {  # MJS-6.4 – 10: why a payment of a hand's ledger is made (its reason)
    "win": Term("胡牌", "win", SICHUAN),
    "kong": Term("杠分", "kong payment", SICHUAN),
    "refund": Term("退杠分", "kong payment returned"),
    "drawSettlement": Term("流局结算", "exhaustive draw settlement"),
    "penalty": Term("罚分", "penalty"),
}

# kind -> key -> term: the kinds a page asks for (Paiju.term(kind, key) in common.js)
TERMS: dict[str, dict[str, Term]] = {
    "game": GAMES, "format": FORMATS, "suit": SUITS, "joker": JOKERS, "tile": TILES,
    "combo": COMBINATIONS, "event": EVENTS, "phase": PHASES, "side": SIDES,
    "tribute": TRIBUTES, "fan": FANS, "payment": PAYMENTS,
}


def terms(language: str) -> dict[str, dict[str, str]]:
    """Every term in ``language`` (zh or en), by kind and key: what a page is sent."""
    return {kind: {key: term.say(language) for key, term in table.items()}
            for kind, table in TERMS.items()}
