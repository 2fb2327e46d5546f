/* The knockout bracket (GET …/bracket, as of #at=P when given): each round's matches with their
   status (in play, decided), each team's level so far and who won, the byes and the champion;
   lines drawn from each match (or bye) to the match of the next round its team went on to (a
   third-place match's, dashed, from the semi-finals its teams lost). Each started match links
   to the replay of its hands.

   `Bracket.load()` reads, `Bracket.render(data)` draws: a live update can call them again. */
"use strict";

const Bracket = (() => {
  const {el, fill, byId, need, tournament, teamName, replayUrl, pageUrl, status, at} = Paiju;
  const SVG = "http://www.w3.org/2000/svg";

  async function load() {
    const [t, bracket] = await Promise.all([tournament(), need("bracket", {at: at()})]);
    return {t, bracket};
  }

  const STATUS = {drawn: "not started", in_play: "in play", decided: "decided"};

  function teamLine(t, m, team) {
    const level = m.score && m.score.levels ? m.score.levels[team] : undefined;
    return el("div", {class: "team" + (m.winner === team ? " winner" : ""), dataset: {team}},
              el("span", {class: "name"}, teamName(t, team)),
              level !== undefined ? el("span", {class: "level", title: "level"}, "level " + level) : null);
  }

  function matchBox(t, m) {
    const label = m.started ? el("a", {href: replayUrl(m.match_id, 1)}, m.match_id) : m.match_id;
    const hands = m.score && m.score.hands_played ? m.score.hands_played + (m.score.hands_played === 1 ? " hand" : " hands") : null;
    return el("article", {class: "match-box " + m.status.replace("_", "-"),
                          dataset: {match: m.match_id, status: m.status}},
      el("header", {},
         el("span", {}, label, m.kind === "third_place" ? " · third place" : ""),
         el("span", {class: "match-status"}, m.status === "in_play" ? "● in play" : STATUS[m.status] || m.status,
            hands ? " · " + hands : "")),
      m.teams.map(team => teamLine(t, m, team)),
      m.forfeit ? el("div", {class: "forfeit"}, "forfeited by " + teamName(t, m.forfeit)) : null);
  }

  function render({t, bracket}) {
    fill(byId("title"), "Bracket · " + t.name, at() ? " (as of position " + at() + ")" : "");
    const root = byId("bracket");
    if (!bracket.drawn) {
      fill(root, el("p", {}, t.format === "knockout" ? "No round has been drawn yet."
        : "This tournament is not a knockout (format " + t.format + "): see ",
        t.format === "knockout" ? null : el("a", {href: pageUrl(t.format === "groups" ? "groups" : "standings")},
                                             t.format === "groups" ? "the groups" : "the standings"), "."));
      return;
    }
    const byId_ = Object.fromEntries(bracket.rounds.flatMap(r => r.matches).map(m => [m.match_id, m]));
    const playing = (bracket.matches_in_play || []).map(id => byId_[id]).filter(Boolean);
    const tree = el("div", {class: "bracket"}, bracket.rounds.map(round => el("section", {
        class: "round", dataset: {round: round.round}},
      el("h2", {}, "Round " + round.round),
      el("div", {class: "round-matches"},
         round.matches.map(m => matchBox(t, m)),
         (round.byes || []).map(team => el("div", {class: "bye", dataset: {bye: team, round: round.round}},
                                           "bye: " + teamName(t, team)))))));
    fill(root,
      bracket.champion ? el("p", {class: "champion"}, "Champion: " + teamName(t, bracket.champion)) : null,
      playing.length ? el("p", {class: "in-play-line"}, "In play: ", playing.map((m, i) => [i ? ", " : "",
        el("strong", {}, m.match_id), " (" + m.teams.map(x => teamName(t, x)).join(" v ") + ")"])) : null,
      tree,
      el("p", {class: "quiet"},
         !bracket.champion && bracket.in_play && bracket.in_play.length
           ? "Still in: " + bracket.in_play.map(x => teamName(t, x)).join(", ") + ". " : "",
         bracket.next_round ? "Next round to draw: " + bracket.next_round + "." : ""));
    drawLines(tree, bracket);
  }

  /* Where each team of a round's match came from in the round before: the match it won (or,
     for a third-place match, lost) or its bye. */
  function links(bracket) {
    const found = [];
    bracket.rounds.forEach((round, i) => {
      const before = bracket.rounds[i - 1];
      if (!before) return;
      for (const m of round.matches) {
        for (const team of m.teams) {
          const third = m.kind === "third_place";
          const from = before.matches.find(x => x.kind === "main" && (third
            ? x.winner !== null && x.winner !== team && x.teams.includes(team) : x.winner === team));
          if (from) found.push({from: "[data-match='" + from.match_id + "']", to: m.match_id, team, third});
          else if ((before.byes || []).includes(team)) {
            found.push({from: "[data-bye='" + team + "'][data-round='" + before.round + "']", to: m.match_id, team, third});
          }
        }
      }
    });
    return found;
  }

  function drawLines(tree, bracket) {
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "lines");
    svg.setAttribute("aria-hidden", "true");
    tree.prepend(svg);
    const place = () => {
      const box = tree.getBoundingClientRect();
      svg.setAttribute("width", tree.scrollWidth);
      svg.setAttribute("height", tree.scrollHeight);
      svg.replaceChildren();
      for (const link of links(bracket)) {
        const from = tree.querySelector(link.from);
        const to = tree.querySelector("[data-match='" + link.to + "'] [data-team='" + link.team + "']");
        if (!from || !to) continue;
        const a = from.getBoundingClientRect(), b = to.getBoundingClientRect();
        const x1 = a.right - box.left + tree.scrollLeft, y1 = a.top + a.height / 2 - box.top;
        const x2 = b.left - box.left + tree.scrollLeft, y2 = b.top + b.height / 2 - box.top;
        const mid = (x1 + x2) / 2;
        const path = document.createElementNS(SVG, "path");
        path.setAttribute("d", `M${x1},${y1} H${mid} V${y2} H${x2}`);
        path.setAttribute("class", "line" + (link.third ? " third" : ""));
        path.dataset.to = link.to;
        path.dataset.team = link.team;
        svg.append(path);
      }
    };
    place();
    window.addEventListener("resize", place);
  }

  Paiju.run(async () => {
    render(await load());
    status("");
    Paiju.redrawLive(null, async () => render(await load()));  // follows the tournament live
  });
  return {load, render};
})();
