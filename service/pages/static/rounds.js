/* The team event's rounds (GET …/rounds, as of #at=P when given; T-6.4, T-10.2): each round's
   meetings of two teams, the two tables of each (pair 1 and pair 2 of both teams) with their
   players, and once a table is played its levels, match points and level differences; the bye,
   a manual pairing's reason and warnings; then the next round, or why it cannot be paired.

   `Rounds.load()` reads, `Rounds.render(data)` draws: a live update can call them again. */
"use strict";

const Rounds = (() => {
  const {_, term, el, fill, byId, need, tournament, teamName, replayUrl, pageUrl, status, at} = Paiju;
  const name = text => el("bdi", {class: "name", dir: "auto"}, text);
  /* A translated sentence with nodes in its blanks: put(_("Bye: {team}"), {team: node}). */
  const put = (text, parts) => text.split(/(\{\w+\})/).filter(Boolean).map(piece => {
    const blank = /^\{(\w+)\}$/.exec(piece);
    return blank && blank[1] in parts ? parts[blank[1]] : piece;
  });
  const joined = (items, separator) => items.flatMap((item, i) => i ? [separator || _(", "), item] : [item]);
  const versus = (t, teams) => teams.map(x => name(teamName(t, x)))
    .reduce((a, b) => a === null ? b : put(_("{a} v {b}"), {a, b}), null) || "—";
  /* How the next round is paired (setting pairingMethod, T-6.4). */
  const METHODS = {nearest: _("nearest"), topDown: _("topDown")};

  async function load() {
    const [t, view] = await Promise.all([tournament(), need("rounds", {at: at()})]);
    return {t, view};
  }

  function players(table, side) {
    return joined((table.players[side] || []).map(name), "、");
  }

  function tableState(table) {
    if (table.completed) return _("played");
    return table.started ? "● " + _("in play") : _("not started");
  }

  function resultText(table) {
    const r = table.result;
    if (!r) return "—";
    const levels = _("levels {a} : {b}", {a: r.levels.A, b: r.levels.B});
    const by = r.forfeited || [];
    if (!by.length) return levels;
    return levels + " · " + (by.length === 1 ? _("forfeited by side {side}", {side: by[0]})
      : _("forfeited by side {a} and {b}", {a: by[0], b: by[1]}));
  }

  function won(r, side) {
    return r && r.winner === side ? [" ", el("span", {title: _("winner")}, "✓")] : "";
  }

  function tableRow(t, meeting, table) {
    const r = table.result;
    const [a, b] = meeting.teams;
    const match = table.started ? el("a", {href: replayUrl(table.match_id, 1)}, table.match_id) : table.match_id;
    return el("tr", {dataset: {match: table.match_id}, class: table.started && !table.completed ? "in-play" : null},
      el("td", {dataset: {col: "table"}}, match),
      el("td", {dataset: {col: "pair"}}, table.pair),
      el("td", {dataset: {col: "A"}}, el("strong", {}, name(teamName(t, a))), " ", players(table, "A"), won(r, "A")),
      el("td", {dataset: {col: "B"}}, el("strong", {}, name(teamName(t, b))), " ", players(table, "B"), won(r, "B")),
      el("td", {dataset: {col: "status"}}, tableState(table)),
      el("td", {dataset: {col: "result"}}, resultText(table)),
      el("td", {dataset: {col: "points"}}, r ? r.points.A + " : " + r.points.B : "—"),
      el("td", {dataset: {col: "level_difference"}}, r ? signed(r.level_difference.A) + " : " +
         signed(r.level_difference.B) : "—"));
  }

  function signed(n) {
    return n > 0 ? "+" + n : String(n);
  }

  function roundSection(t, round) {
    const head = [_("table"), _("pair"), term("side", "A"), term("side", "B"), _("status"), _("result"),
                  _("match points"), _("level difference")];
    return el("section", {class: "round-block", dataset: {round: round.round}},
      el("h2", {}, _("Round {n}", {n: round.round}), " ",
         el("span", {class: "badge " + (round.complete ? "resolved" : "open")}, round.complete ? _("complete") : _("in progress")),
         round.manual ? el("span", {class: "badge"}, _("paired by the referee")) : null),
      round.reason ? el("p", {class: "quiet"}, _("Reason: {reason}", {reason: round.reason})) : null,
      (round.warnings || []).length ? el("ul", {class: "notes"}, round.warnings.map(w => el("li", {class: "issue"},
        "⚠ " + (typeof w === "string" ? w : Paiju.short(w))))) : null,
      el("table", {class: "grid rounds"},
         el("thead", {}, el("tr", {}, head.map(h => el("th", {scope: "col"}, h)))),
         round.meetings.map(meeting => el("tbody", {dataset: {meeting: meeting.match_id}},
           meeting.tables.map(table => tableRow(t, meeting, table))))),
      round.bye ? el("p", {class: "bye"}, put(_("Bye: {team}"), {team: name(teamName(t, round.bye))})) : null);
  }

  function nextText(t, next) {
    if (!next) return null;
    const what = next.method === "lots" ? _("Next: round {round} (drawn by lots)", {round: next.round})
      : _("Next: round {round} (paired by {method})", {round: next.round, method: METHODS[next.method] || next.method});
    if (!next.pairable) {
      return el("p", {class: "next"}, _("{next} cannot be paired now — {rule}: {problem}", {
        next: what, rule: next.rule || "", problem: next.problem || ""}));
    }
    if (!next.pairing) {
      return el("p", {class: "next"}, put(_("{next}: {teams}."), {
        next: what, teams: joined(next.in_play.map(x => name(teamName(t, x))))}));
    }
    const byes = next.pairing.byes || [];
    const lines = next.pairing.matches.map(m => versus(t, m.teams || []))
      .concat(byes.length ? [put(_("bye {teams}"), {teams: joined(byes.map(x => name(teamName(t, x))))})] : []);
    return el("p", {class: "next"}, put(_("{next}: {teams}."), {next: what, teams: joined(lines, _("; "))}));
  }

  function render({t, view}) {
    fill(byId("title"), at() ? put(_("Rounds · {name} (as of position {position})"), {name: name(t.name), position: at()})
      : put(_("Rounds · {name}"), {name: name(t.name)}));
    const root = byId("rounds");
    if (view.format !== "swiss-teams") {
      fill(root, el("p", {}, put(_("This tournament is not a team event (format {format}): see {page}."), {
        format: term("format", t.format), page: el("a", {href: pageUrl("standings")}, _("the standings"))})));
      return;
    }
    fill(root,
      view.rounds.length ? view.rounds.map(round => roundSection(t, round)) : el("p", {class: "quiet"}, _("No round has been paired yet.")),
      view.ended ? el("p", {class: "ended"}, _("Ended after round {round} ({rule}): {reason}", {
        round: view.ended.after_round, rule: view.ended.rule, reason: view.ended.reason})) : nextText(t, view.next),
      (view.withdrawn || []).length ? el("p", {class: "quiet"}, put(_("Withdrawn: {teams}"), {
        teams: joined(view.withdrawn.map(x => name(teamName(t, x))))})) : null);
  }

  Paiju.run(async () => {
    render(await load());
    status("");
    Paiju.redrawLive(null, async () => render(await load()));  // follows the tournament live
  });
  return {load, render};
})();
