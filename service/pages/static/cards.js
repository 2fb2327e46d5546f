/* Cards and tiles drawn as text: a card is its rank and suit symbol (red hearts and diamonds,
   the jokers 大王 / 小王), a tile its number and suit (萬 characters, 筒 dots, 条 bamboo) or its
   honour (東南西北 winds, 中發白 dragons). Each carries its code in data-card / data-tile. */
"use strict";

const Cards = (() => {
  const {el} = Paiju;
  const SUITS = {S: "♠", H: "♥", D: "♦", C: "♣"};
  const SUIT_NAMES = {S: "spades", H: "hearts", D: "diamonds", C: "clubs"};
  const RANK_NAMES = {T: "10", J: "jack", Q: "queen", K: "king", A: "ace"};
  const JOKERS = {BJ: ["大王", "big joker"], SJ: ["小王", "small joker"]};

  function isJoker(code) { return code in JOKERS; }
  function rank(code) { return isJoker(code) ? null : code.slice(0, -1); }
  function suit(code) { return isJoker(code) ? null : code.slice(-1); }

  function cardText(code) {
    if (isJoker(code)) return JOKERS[code][0];
    return (rank(code) === "T" ? "10" : rank(code)) + (SUITS[suit(code)] || suit(code));
  }

  function cardName(code) {
    if (isJoker(code)) return JOKERS[code][1];
    const r = rank(code);
    return (RANK_NAMES[r] || r) + " of " + (SUIT_NAMES[suit(code)] || suit(code)) + " (" + code + ")";
  }

  /* One card; `special(code)` tells a trump (Shengji) or a wildcard / level card (Guandan). */
  function card(code, special) {
    const mark = special ? special(code) : null;
    const colour = isJoker(code) ? (code === "BJ" ? "red joker" : "black joker")
      : (suit(code) === "H" || suit(code) === "D" ? "red" : "black");
    return el("span", {class: "card " + colour + (mark ? " " + mark : ""),
                       dataset: {card: code}, title: cardName(code) + (mark ? ", " + mark : "")},
              cardText(code));
  }

  /* A row of cards; null (hidden from this viewer) as `count` card backs. */
  function cards(list, special, count) {
    if (list === null || list === undefined) {
      return el("span", {class: "cards hidden", title: "hidden from this token"},
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

  function tileParts(code) {
    if (code in HONOURS) return {text: HONOURS[code][0], name: HONOURS[code][1], kind: "honour h" + code};
    const s = TILE_SUITS[code.slice(-1)];
    if (!s) return {text: code, name: code, kind: "unknown"};
    return {text: code.slice(0, -1) + s[0], name: code.slice(0, -1) + " " + s[1], kind: "suit-" + code.slice(-1)};
  }

  function tile(code, extra) {
    const p = tileParts(code);
    return el("span", {class: "tile " + p.kind + (extra ? " " + extra : ""), dataset: {tile: code},
                       title: p.name + " (" + code + ")"}, p.text);
  }

  function tiles(list, count) {
    if (list === null || list === undefined) {
      return el("span", {class: "tiles hidden", title: "hidden from this token"},
                el("span", {class: "tile back"}, "▯"), " × " + (count ?? "?"));
    }
    if (!list.length) return el("span", {class: "tiles empty"}, "—");
    return el("span", {class: "tiles"}, list.map(code => tile(code)));
  }

  const SUIT_OF_VOID = {m: "萬 characters", p: "筒 dots", s: "条 bamboo"};

  function suitSymbol(letter) { return SUITS[letter] || letter; }

  return {card, cards, cardText, suitSymbol, shengjiTrump, guandanMarks, tile, tiles, tileParts,
          SUIT_OF_VOID, isJoker, rank, suit};
})();
