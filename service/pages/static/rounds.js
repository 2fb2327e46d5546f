/* The team event's rounds (GET …/rounds, as of #at=P when given; T-6.4, T-10.2): each round's
   meetings of two teams, the two tables of each (pair 1 and pair 2 of both teams) with their
   players, and once a table is played its levels, match points and level differences; the bye,
   a manual pairing's reason and warnings; then the next round, or why it cannot be paired.

   `Rounds.load()` reads, `Rounds.render(data)` draws: a live update can call them again. */
"use strict";

const Rounds = (() => {
  const {el, fill, byId, need, tournament, teamName, replayUrl, pageUrl, status, at} = Paiju;

  async function load() {
    const [t, view] = await Promise.all([tournament(), need("rounds", {at: at()})]);
    return {t, view};
  }

  function players(table, side) {
    return (table.players[side] || []).join("、");
  }

  function tableState(table) {
    if (table.completed) return "played";
    return table.started ? "● in play" : "not started";
  }

  function resultText(table) {
    const r = table.result;
    if (!r) return "—";
    const forfeit = (r.forfeited || []).length ? " · forfeited by side " + r.forfeited.join(" and ") : "";
    return "levels " + r.levels.A + " : " + r.levels.B + forfeit;
  }

  function tableRow(t, meeting, table) {
    const r = table.result;
    const [a, b] = meeting.teams;
    const match = table.started ? el("a", {href: replayUrl(table.match_id, 1)}, table.match_id) : table.match_id;
    return el("tr", {dataset: {match: table.match_id}, class: table.started && !table.completed ? "in-play" : null},
      el("td", {dataset: {col: "table"}}, match),
      el("td", {dataset: {col: "pair"}}, table.pair),
      el("td", {dataset: {col: "A"}}, el("strong", {}, teamName(t, a)), " ", players(table, "A"),
         r && r.winner === "A" ? " ✓" : ""),
      el("td", {dataset: {col: "B"}}, el("strong", {}, teamName(t, b)), " ", players(table, "B"),
         r && r.winner === "B" ? " ✓" : ""),
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
    const head = ["table", "pair", "side A", "side B", "status", "result", "points", "level difference"];
    return el("section", {class: "round-block", dataset: {round: round.round}},
      el("h2", {}, "Round " + round.round, " ",
         el("span", {class: "badge " + (round.complete ? "resolved" : "open")}, round.complete ? "complete" : "in progress"),
         round.manual ? el("span", {class: "badge"}, "paired by the referee") : null),
      round.reason ? el("p", {class: "quiet"}, "Reason: " + round.reason) : null,
      (round.warnings || []).length ? el("ul", {class: "notes"}, round.warnings.map(w => el("li", {class: "issue"},
        "⚠ " + (typeof w === "string" ? w : Paiju.short(w))))) : null,
      el("table", {class: "grid rounds"},
         el("thead", {}, el("tr", {}, head.map(h => el("th", {scope: "col"}, h)))),
         round.meetings.map(meeting => el("tbody", {dataset: {meeting: meeting.match_id}},
           meeting.tables.map(table => tableRow(t, meeting, table))))),
      round.bye ? el("p", {class: "bye"}, "Bye: " + teamName(t, round.bye)) : null);
  }

  function nextText(t, next) {
    if (!next) return null;
    const what = "Next: round " + next.round + " (" + (next.method === "lots" ? "drawn by lots" : "paired by " + next.method) + ")";
    if (!next.pairable) return el("p", {class: "next"}, what + " cannot be paired now — " + (next.rule || "") + ": " + (next.problem || ""));
    if (!next.pairing) return el("p", {class: "next"}, what + ": " + next.in_play.map(x => teamName(t, x)).join(", ") + ".");
    return el("p", {class: "next"}, what + ": ", next.pairing.matches.map((m, i) => [i ? "; " : "",
      (m.teams || []).map(x => teamName(t, x)).join(" v ")]), next.pairing.byes && next.pairing.byes.length
      ? "; bye " + next.pairing.byes.map(x => teamName(t, x)).join(", ") : "", ".");
  }

  function render({t, view}) {
    fill(byId("title"), "Rounds · " + t.name, at() ? " (as of position " + at() + ")" : "");
    const root = byId("rounds");
    if (view.format !== "swiss-teams") {
      fill(root, el("p", {}, "This tournament is not a team event (format " + t.format + "): see ",
                    el("a", {href: pageUrl("standings")}, "the standings"), "."));
      return;
    }
    fill(root,
      view.rounds.length ? view.rounds.map(round => roundSection(t, round)) : el("p", {class: "quiet"}, "No round has been paired yet."),
      view.ended ? el("p", {class: "ended"}, "Ended after round " + view.ended.after_round + " (" + view.ended.rule + "): " + view.ended.reason) : nextText(t, view.next),
      (view.withdrawn || []).length ? el("p", {class: "quiet"}, "Withdrawn: " + view.withdrawn.map(x => teamName(t, x)).join(", ")) : null);
  }

  Paiju.run(async () => {
    render(await load());
    status("");
    Paiju.redrawLive(null, async () => render(await load()));  // follows the tournament live
  });
  return {load, render};
})();
