/* Cards and tiles drawn as text: a card is its rank and suit symbol (red hearts and diamonds,
   the jokers 大王 / 小王 — "big joker" / "small joker" in English), a tile as the players name
   it in Chinese (一万 … 九万, 一筒, 一条, 东南西北, 中发白; in English its number and suit, 1萬,
   or its honour, 東). Each carries its code in data-card / data-tile, and says its name in the
   page's language in its title. */
"use strict";

const Cards = (() => {
  const {el, _, term} = Paiju;
  const zh = Paiju.lang === "zh";
  const SUITS = {S: "♠", H: "♥", D: "♦", C: "♣"};
  const SUIT_NAMES = {S: "spades", H: "hearts", D: "diamonds", C: "clubs"};
  const RANK_NAMES = {T: "10", J: "jack", Q: "queen", K: "king", A: "ace"};
  const JOKERS = new Set(["BJ", "SJ"]);

  function isJoker(code) { return JOKERS.has(code); }
  function rank(code) { return isJoker(code) ? null : code.slice(0, -1); }
  function suit(code) { return isJoker(code) ? null : code.slice(-1); }
  function rankText(code) { return rank(code) === "T" ? "10" : rank(code); }

  function cardText(code) {
    if (isJoker(code)) return term("joker", code);
    return rankText(code) + (SUITS[suit(code)] || suit(code));
  }

  /* "queen of hearts (QH)"; in Chinese 红桃Q（QH）, the suit as the seeds name it. */
  function cardName(code) {
    if (isJoker(code)) return term("joker", code);
    const r = rank(code), s = suit(code);
    return _("{rank} of {suit} ({code})", {
      rank: zh ? rankText(code) : RANK_NAMES[r] || r,
      suit: zh ? term("suit", s) : SUIT_NAMES[s] || s, code});
  }

  /* A card's name with what makes it special: a trump, the wildcard, a level card. */
  function markedName(name, mark) {
    if (mark === "trump") return _("{card}, trump", {card: name});
    if (mark === "wild") return _("{card}, wild", {card: name});
    if (mark === "level") return _("{card}, level", {card: name});
    return mark ? name + ", " + mark : name;
  }

  /* One card; `special(code)` tells a trump (Shengji) or a wildcard / level card (Guandan). */
  function card(code, special) {
    const mark = special ? special(code) : null;
    const colour = isJoker(code) ? (code === "BJ" ? "red joker" : "black joker")
      : (suit(code) === "H" || suit(code) === "D" ? "red" : "black");
    return el("span", {class: "card " + colour + (mark ? " " + mark : ""),
                       dataset: {card: code}, title: markedName(cardName(code), mark)},
              cardText(code));
  }

  /* A row of cards; null (hidden from this viewer) as `count` card backs. */
  function cards(list, special, count) {
    if (list === null || list === undefined) {
      return el("span", {class: "cards hidden", title: _("hidden from this token")},
                el("span", {class: "card back"}, "🂠"), " × " + (count ?? "?"));
    }
    if (!list.length) return el("span", {class: "cards empty"}, "—");
    return el("span", {class: "cards"}, list.map(code => card(code, special)));
  }

  /* Shengji: jokers, the level's cards and the trump suit are trumps. */
  function shengjiTrump(trump, level) {
    return code => {
      if (isJoker(code)) return "trump";
      if (level && rank(code) === level) return "trump";
      if (trump && trump.suit && suit(code) === trump.suit) return "trump";
      return null;
    };
  }

  /* Guandan: the heart level card is the wildcard (GD-2.2); other level cards rank high. */
  function guandanMarks(wildcard, level) {
    return code => code === wildcard ? "wild" : (level && rank(code) === level ? "level" : null);
  }

  // --- tiles ----------------------------------------------------------------------------------------
  const TILE_SUITS = {m: ["萬", "characters"], p: ["筒", "dots"], s: ["条", "bamboo"]};
  const HONOURS = {E: ["東", "east wind"], S: ["南", "south wind"], W: ["西", "west wind"],
                   N: ["北", "north wind"], C: ["中", "red dragon"], F: ["發", "green dragon"],
                   P: ["白", "white dragon"]};

  /* A tile's text, name and class: in Chinese its name as the glossary says it (一万, 东). */
  function tileParts(code) {
    if (code in HONOURS) {
      return {text: zh ? term("tile", code) : HONOURS[code][0],
              name: zh ? term("tile", code) : HONOURS[code][1], kind: "honour h" + code};
    }
    const s = TILE_SUITS[code.slice(-1)];
    if (!s) return {text: code, name: code, kind: "unknown"};
    return {text: zh ? term("tile", code) : code.slice(0, -1) + s[0],
            name: zh ? term("tile", code) : code.slice(0, -1) + " " + s[1],
            kind: "suit-" + code.slice(-1)};
  }

  function tile(code, extra) {
    const p = tileParts(code);
    return el("span", {class: "tile " + p.kind + (extra ? " " + extra : ""), dataset: {tile: code},
                       title: _("{name} ({code})", {name: p.name, code})}, p.text);
  }

  function tiles(list, count) {
    if (list === null || list === undefined) {
      return el("span", {class: "tiles hidden", title: _("hidden from this token")},
                el("span", {class: "tile back"}, "▯"), " × " + (count ?? "?"));
    }
    if (!list.length) return el("span", {class: "tiles empty"}, "—");
    return el("span", {class: "tiles"}, list.map(code => tile(code)));
  }

  // the suit a Sichuan seat declares void (定缺), as "void {suit}" says it
  const SUIT_OF_VOID = {m: _("萬 characters"), p: _("筒 dots"), s: _("条 bamboo")};

  /* A wind (a seat's, the round's): its code in English (E), its name in Chinese (东). */
  function windName(code) { return zh && code ? term("tile", code) : code; }

  function suitSymbol(letter) { return SUITS[letter] || letter; }

  return {card, cards, cardText, suitSymbol, shengjiTrump, guandanMarks, tile, tiles, tileParts,
          windName, SUIT_OF_VOID, isJoker, rank, suit};
})();
