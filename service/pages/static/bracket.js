/* The knockout bracket (GET …/bracket, as of #at=P when given): each round's matches with their
   status (in play, decided), each team's level so far and who won, the byes and the champion;
   lines drawn from each match (or bye) to the match of the next round its team went on to (a
   third-place match's, dashed, from the semi-finals its teams lost). Each started match links
   to the replay of its hands.

   `Bracket.load()` reads, `Bracket.render(data)` draws: a live update can call them again. */
"use strict";

const Bracket = (() => {
  const {_, term, el, fill, byId, need, tournament, teamName, replayUrl, pageUrl, status, at} = Paiju;
  const SVG = "http://www.w3.org/2000/svg";
  const name = text => el("bdi", {class: "name", dir: "auto"}, text);
  /* A translated sentence with nodes in its blanks: put(_("Champion: {team}"), {team: node}). */
  const put = (text, parts) => text.split(/(\{\w+\})/).filter(Boolean).map(piece => {
    const blank = /^\{(\w+)\}$/.exec(piece);
    return blank && blank[1] in parts ? parts[blank[1]] : piece;
  });
  const joined = items => items.flatMap((item, i) => i ? [_(", "), item] : [item]);
  const versus = (t, teams) => teams.map(x => name(teamName(t, x)))
    .reduce((a, b) => a === null ? b : put(_("{a} v {b}"), {a, b}), null) || "—";

  async function load() {
    const [t, bracket] = await Promise.all([tournament(), need("bracket", {at: at()})]);
    return {t, bracket};
  }

  const STATUS = {drawn: _("not started"), in_play: _("in play"), decided: _("decided")};

  function teamLine(t, m, team) {
    const level = m.score && m.score.levels ? m.score.levels[team] : undefined;
    return el("div", {class: "team" + (m.winner === team ? " winner" : ""), dataset: {team}},
              name(teamName(t, team)),
              level !== undefined ? el("span", {class: "level", title: _("level")}, _("level {level}", {level})) : null);
  }

  function matchBox(t, m) {
    const label = m.started ? el("a", {href: replayUrl(m.match_id, 1)}, m.match_id) : m.match_id;
    const played = m.score && m.score.hands_played;
    const hands = played ? (played === 1 ? _("{n} hand", {n: played}) : _("{n} hands", {n: played})) : null;
    return el("article", {class: "match-box " + m.status.replace("_", "-"),
                          dataset: {match: m.match_id, status: m.status}},
      el("header", {},
         el("span", {}, label, m.kind === "third_place" ? " · " + _("third place") : ""),
         el("span", {class: "match-status"}, m.status === "in_play" ? "● " + _("in play") : STATUS[m.status] || m.status,
            hands ? " · " + hands : "")),
      m.teams.map(team => teamLine(t, m, team)),
      m.forfeit ? el("div", {class: "forfeit"}, put(_("forfeited by {team}"), {team: name(teamName(t, m.forfeit))})) : null);
  }

  function render({t, bracket}) {
    fill(byId("title"), at() ? put(_("Bracket · {name} (as of position {position})"), {name: name(t.name), position: at()})
      : put(_("Bracket · {name}"), {name: name(t.name)}));
    const root = byId("bracket");
    if (!bracket.drawn) {
      fill(root, el("p", {}, t.format === "knockout" ? _("No round has been drawn yet.")
        : put(_("This tournament is not a knockout (format {format}): see {page}."), {
          format: term("format", t.format),
          page: el("a", {href: pageUrl(t.format === "groups" ? "groups" : "standings")},
                   t.format === "groups" ? _("the groups") : _("the standings"))})));
      return;
    }
    const byId_ = Object.fromEntries(bracket.rounds.flatMap(r => r.matches).map(m => [m.match_id, m]));
    const playing = (bracket.matches_in_play || []).map(id => byId_[id]).filter(Boolean);
    const tree = el("div", {class: "bracket"}, bracket.rounds.map(round => el("section", {
        class: "round", dataset: {round: round.round}},
      el("h2", {}, _("Round {n}", {n: round.round})),
      el("div", {class: "round-matches"},
         round.matches.map(m => matchBox(t, m)),
         (round.byes || []).map(team => el("div", {class: "bye", dataset: {bye: team, round: round.round}},
                                           put(_("bye: {team}"), {team: name(teamName(t, team))})))))));
    const stillIn = !bracket.champion && bracket.in_play && bracket.in_play.length;
    fill(root,
      bracket.champion ? el("p", {class: "champion"}, put(_("Champion: {team}"), {team: name(teamName(t, bracket.champion))})) : null,
      playing.length ? el("p", {class: "in-play-line"}, put(_("In play: {matches}"), {matches: joined(playing.map(m =>
        put(_("{match} ({teams})"), {match: el("strong", {}, m.match_id), teams: versus(t, m.teams)})))})) : null,
      tree,
      el("p", {class: "quiet"},
         stillIn ? [put(_("Still in: {teams}."), {teams: joined(bracket.in_play.map(x => name(teamName(t, x))))}), " "] : "",
         bracket.next_round ? _("Next round to draw: {round}.", {round: bracket.next_round}) : ""));
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
