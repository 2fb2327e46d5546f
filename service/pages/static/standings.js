/* The standings (GET …/standings, as of #at=P when given): one row per entrant, the columns the
   format gives (a knockout's rounds, the coins of groups of four, a team event's scores, each
   pair's results round by round); columns that say nothing for any row are left out. A
   knockout's place still open is its band ("5–8", T-10.1).
   `Standings.load()` reads, `Standings.render(data)` draws: a live update can call them again. */
"use strict";

const Standings = (() => {
  const {_, el, fill, byId, need, tournament, teamName, status, at, short} = Paiju;
  const name = text => el("bdi", {class: "name", dir: "auto"}, text);
  /* A translated sentence with nodes in its blanks: put(_("Champion: {team}"), {team: node}). */
  const put = (text, parts) => text.split(/(\{\w+\})/).filter(Boolean).map(piece => {
    const blank = /^\{(\w+)\}$/.exec(piece);
    return blank && blank[1] in parts ? parts[blank[1]] : piece;
  });
  const joined = items => items.flatMap((item, i) => i ? [_(", "), item] : [item]);

  /* The heading of each column the formats' standings have (projections/brackets.py, groups.py,
     team_event.py); a key not listed here is headed by itself. */
  const LABELS = {
    place: _("place"), team: _("team"), name: _("name"), leader: _("team leader"),
    eliminated_in: _("eliminated in"), withdrawn: _("withdrawn"), stage: _("stage"),
    coins: _("coins"), table: _("table"), table_place: _("table place"), tied: _("tied"),
    tiebreak_results: _("tiebreak results"), prize: _("prize"), score: _("score"),
    tie_break_1: _("tie break 1"), tie_break_2: _("tie break 2"), pairs: _("pairs"), byes: _("byes"),
    forfeits: _("forfeits"), disqualified: _("disqualified"), excluded: _("excluded"),
    excluded_after_round: _("excluded after round")};
  const column = key => [key, LABELS[key] || key.replaceAll("_", " ")];

  /* A pair's outcome at a table of the team event (rules/swiss/scoring.py). */
  const OUTCOMES = {win: _("win"), draw: _("draw"), loss: _("loss"), forfeitWin: _("forfeitWin"),
                    forfeitLoss: _("forfeitLoss"), pending: _("pending")};

  async function load() {
    const [t, view] = await Promise.all([tournament(), need("standings", {at: at()})]);
    return {t, view};
  }

  function render({t, view}) {
    fill(byId("title"), at() ? put(_("Standings · {name} (as of position {position})"), {name: name(t.name), position: at()})
      : put(_("Standings · {name}"), {name: name(t.name)}),
         " ", el("span", {class: "badge " + (view.final ? "resolved" : "open")}, view.final ? _("final") : _("provisional")));
    const rows = view.ranking || [];
    // the columns that order the ranking first (groups: stage, final balance, table place — T-8.3)
    const first = ["place", "team", "name", ...(view.ranked_by || [])];
    // a knockout's band of places still open (T-10.1): shown as the place, not beside it
    const hidden = ["places"];
    const empty = v => v === null || v === undefined || v === false || (Array.isArray(v) && !v.length);
    const rest = [...new Set(rows.flatMap(Object.keys))]
      .filter(k => !first.includes(k) && !hidden.includes(k) && rows.some(r => !empty(r[k])));
    const roundLine = r => el("li", {},
      r.outcome === "bye" ? _("round {round}: bye", {round: r.round})
        : put(_("round {round}: {outcome} v {opponent}"), {round: r.round, outcome: OUTCOMES[r.outcome] || r.outcome,
                                                          opponent: name(teamName(t, r.opponent))}),
      r.levels ? " (" + r.levels.join(" : ") + ")" : "", r.match_id ? " · " + r.match_id : "");
    const pair = p => el("div", {class: "pair"}, el("strong", {}, _("pair {pair}", {pair: p.pair})), " ",
      joined((p.players || []).map(name)), " · ", _("{points} pts", {points: p.points}),
      " · ", _("level difference {difference}", {difference: p.level_difference}),
      el("ul", {}, (p.rounds || []).map(roundLine)));
    const roundAndPair = x => _("round {round}, pair {pair}", {round: x.round, pair: x.pair});
    const render = (key, value, row) => {
      if (key === "place" && row.places && row.places[0] !== row.places[1]) {
        const [best, worst] = row.places;
        return el("span", {class: "place-range", title: view.final
          ? _("places {best} to {worst}, shared", {best, worst})
          : _("places {best} to {worst}, not yet decided", {best, worst})}, best + "–" + worst);
      }
      if (key === "team") return name(teamName(t, value));
      if ((key === "name" || key === "leader") && value) return name(value);
      // why a team is not ranked (T-6.7 a second forfeit, SJ3-11.9 a disqualification)
      if (key === "excluded" && value && value.rule) return value.rule + " · " + value.reason;
      if (key === "pairs" && Array.isArray(value)) return el("div", {}, value.map(pair));
      if (key === "forfeits" && Array.isArray(value) && value.length) return value.map(roundAndPair).join(" · ");
      if (key === "disqualified" && value && value.round !== undefined) return roundAndPair(value);
      return undefined;
    };
    fill(byId("standings"),
      view.champion ? el("p", {class: "champion"}, put(_("Champion: {team}"), {team: name(teamName(t, view.champion))})) : null,
      rows.length ? Paiju.table(rows, first.filter(k => rows.some(r => k in r)).concat(rest).map(column), render)
        : el("p", {class: "quiet"}, _("No ranking yet.")),
      view.ended ? el("p", {class: "ended"}, _("Ended after round {round} ({rule}): {reason}", {
        round: view.ended.after_round, rule: view.ended.rule, reason: view.ended.reason})) : null,
      view.excluded && view.excluded.length ? [el("h2", {}, _("Not ranked")),
        Paiju.table(view.excluded, ["team", "name", "excluded", "score", "forfeits", "withdrawn"].map(column), render)] : null,
      view.lots && view.lots.length ? el("p", {class: "quiet"}, _("Lots: {lots}", {lots: short(view.lots)})) : null);
  }

  Paiju.run(async () => {
    render(await load());
    status("");
    Paiju.redrawLive(null, async () => render(await load()));  // follows the tournament live
  });
  return {load, render};
})();
