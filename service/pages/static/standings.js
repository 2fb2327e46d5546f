/* The standings (GET …/standings, as of #at=P when given): one row per entrant, the columns the
   format gives (a knockout's rounds, the coins of groups of four, a team event's scores, each
   pair's results round by round); columns that say nothing for any row are left out. A
   knockout's place still open is its band ("5–8", T-10.1).
   `Standings.load()` reads, `Standings.render(data)` draws: a live update can call them again. */
"use strict";

const Standings = (() => {
  const {el, fill, byId, need, tournament, teamName, status, at, short} = Paiju;

  async function load() {
    const [t, view] = await Promise.all([tournament(), need("standings", {at: at()})]);
    return {t, view};
  }

  function render({t, view}) {
    fill(byId("title"), "Standings · " + t.name, at() ? " (as of position " + at() + ")" : "",
         " ", el("span", {class: "badge " + (view.final ? "resolved" : "open")}, view.final ? "final" : "provisional"));
    const rows = view.ranking || [];
    // the columns that order the ranking first (groups: stage, final balance, table place — T-8.3)
    const first = ["place", "team", "name", ...(view.ranked_by || [])];
    // a knockout's band of places still open (T-10.1): shown as the place, not beside it
    const hidden = ["places"];
    const empty = v => v === null || v === undefined || v === false || (Array.isArray(v) && !v.length);
    const rest = [...new Set(rows.flatMap(Object.keys))]
      .filter(k => !first.includes(k) && !hidden.includes(k) && rows.some(r => !empty(r[k])));
    const pair = p => el("div", {class: "pair"}, el("strong", {}, "pair " + p.pair), " ",
      (p.players || []).join(", "), " · " + p.points + " pts · level difference " + p.level_difference,
      el("ul", {}, (p.rounds || []).map(r => el("li", {}, "round " + r.round + ": " + r.outcome + " v " +
        teamName(t, r.opponent) + (r.levels ? " (" + r.levels.join(" : ") + ")" : "") +
        (r.match_id ? " · " + r.match_id : "")))));
    const render = (key, value, row) => {
      if (key === "place" && row.places && row.places[0] !== row.places[1]) {
        return el("span", {class: "place-range", title: "places " + row.places[0] + " to " + row.places[1] +
                           (view.final ? ", shared" : ", not yet decided")}, row.places[0] + "–" + row.places[1]);
      }
      if (key === "team") return teamName(t, value);
      // why a team is not ranked (T-6.7 a second forfeit, SJ3-11.9 a disqualification)
      if (key === "excluded" && value && value.rule) return value.rule + " · " + value.reason;
      if (key === "pairs" && Array.isArray(value)) return el("div", {}, value.map(pair));
      return undefined;
    };
    fill(byId("standings"),
      view.champion ? el("p", {class: "champion"}, "Champion: " + teamName(t, view.champion)) : null,
      rows.length ? Paiju.table(rows, first.filter(k => rows.some(r => k in r)).concat(rest), render)
        : el("p", {class: "quiet"}, "No ranking yet."),
      view.ended ? el("p", {class: "ended"}, "Ended after round " + view.ended.after_round + " (" +
        view.ended.rule + "): " + view.ended.reason) : null,
      view.excluded && view.excluded.length ? [el("h2", {}, "Not ranked"),
        Paiju.table(view.excluded, ["team", "name", "excluded", "score", "forfeits", "withdrawn"], render)] : null,
      view.lots && view.lots.length ? el("p", {class: "quiet"}, "Lots: " + short(view.lots)) : null);
  }

  Paiju.run(async () => {
    render(await load());
    status("");
    Paiju.redrawLive(null, async () => render(await load()));  // follows the tournament live
  });
  return {load, render};
})();
