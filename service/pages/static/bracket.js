/* The knockout bracket (GET …/bracket, as of #at=P when given): each round's matches, who won,
   the byes and the champion; each match links to the replay of its hands. */
"use strict";

Paiju.run(async () => {
  const {el, fill, byId, need, get, tournament, teamName, replayUrl, pageUrl, status, at} = Paiju;
  const t = await tournament();
  const bracket = await need("bracket", {at: at()});
  fill(byId("title"), "Bracket · " + t.name, at() ? " (as of position " + at() + ")" : "");
  const root = byId("bracket");
  if (!bracket.drawn) {
    fill(root, el("p", {}, t.format === "knockout" ? "No round has been drawn yet."
      : "This tournament is not a knockout (format " + t.format + "): see ",
      t.format === "knockout" ? null : el("a", {href: pageUrl(t.format === "groups" ? "groups" : "standings")},
                                           t.format === "groups" ? "the groups" : "the standings"), "."));
    status("");
    return;
  }
  const started = new Set(((await get("matches")).body || {matches: []}).matches.map(m => m.match_id));
  const box = m => el("article", {class: "match-box", dataset: {match: m.match_id}},
    el("header", {}, el("span", {}, started.has(m.match_id)
        ? el("a", {href: replayUrl(m.match_id, 1)}, m.match_id) : m.match_id),
       el("span", {}, m.kind === "third_place" ? "third place" : ""),
       m.forfeit ? el("span", {}, "forfeit: " + Paiju.short(m.forfeit)) : null),
    m.teams.map(team => el("div", {class: "team" + (m.winner === team ? " winner" : ""), dataset: {team}},
                           teamName(t, team))));
  fill(root,
    bracket.champion ? el("p", {class: "champion"}, "Champion: " + teamName(t, bracket.champion)) : null,
    el("div", {class: "bracket"}, bracket.rounds.map(round => el("section", {class: "round", dataset: {round: round.round}},
      el("h2", {}, "Round " + round.round),
      round.matches.map(box),
      round.byes && round.byes.length ? el("p", {class: "quiet"}, "Byes: " + round.byes.map(b => teamName(t, b)).join(", ")) : null))),
    el("p", {class: "quiet"},
       bracket.in_play && bracket.in_play.length ? "Still in play: " + bracket.in_play.map(x => teamName(t, x)).join(", ") + ". " : "",
       bracket.next_round ? "Next round to draw: " + bracket.next_round + "." : ""));
  status("");
});
