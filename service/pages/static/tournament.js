/* The tournament: what it is, its entrants, and each match with a link to the replay of each
   of its hands. */
"use strict";

Paiju.run(async () => {
  const {el, fill, byId, need, tournament, teamName, replayUrl, pageUrl, status, short} = Paiju;
  const t = await tournament();
  fill(byId("title"), t.name + " ", el("span", {class: "badge"}, t.game), " ",
       el("span", {class: "badge"}, t.format));
  document.title = t.name;
  fill(byId("about"), el("dl", {class: "kv"},
    [["id", t.id], ["game", t.game], ["format", t.format], ["date", t.date], ["venue", t.venue],
     ["position", t.position]].filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))])));
  fill(byId("pages"), Paiju.pagesOf(t.format).map(p => el("a", {href: p.href, dataset: {page: p.page}}, p.label)));
  fill(byId("teams"), Paiju.table(t.teams || [], ["team_id", "name", "players", "organisation", "withdrawn"]));
  const {matches} = await need("matches");
  const hands = m => {
    const played = m.hands_played || 0;
    const count = m.status === "completed" ? played : played + 1;
    return [...Array(Math.max(count, 0)).keys()].map(i => i + 1);
  };
  fill(byId("matches"), matches.length ? Paiju.table(matches, ["match_id", "round", "teams", "status", "winner", "hands"],
    (key, value, m) => {
      if (key === "teams") return Object.entries(m.teams).map(([side, id]) => side + ": " + teamName(t, id)).join(" · ");
      if (key === "winner") return m.winner === null || m.winner === undefined ? "—"
        : teamName(t, m.teams[m.winner] ?? m.winner);
      if (key === "hands") {
        return el("span", {class: "hands"}, hands(m).map(n => el("a", {class: "hand-link", href: replayUrl(m.match_id, n)},
                                                                  "hand " + n)));
      }
      return undefined;
    }) : el("p", {class: "quiet"}, "No match has started."));
  status("");
});
