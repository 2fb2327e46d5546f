/* The tournament: what it is, its entrants (in name order, as the reader's language sorts
   names), and each match with a link to the replay of each of its hands. */
"use strict";

Paiju.run(async () => {
  const {_, term, when, byName, el, fill, byId, need, tournament, teamName, replayUrl, status} = Paiju;
  const name = text => el("bdi", {class: "name", dir: "auto"}, text);
  /* A translated sentence with nodes in its blanks: put(_("{side}: {team}"), {side, team}). */
  const put = (text, parts) => text.split(/(\{\w+\})/).filter(Boolean).map(piece => {
    const blank = /^\{(\w+)\}$/.exec(piece);
    return blank && blank[1] in parts ? parts[blank[1]] : piece;
  });
  const joined = items => items.flatMap((item, i) => i ? [_(", "), item] : [item]);
  /* The tournament's date: a calendar day (2026-05-01) in the reader's words, anything else as
     it was written. */
  const day = text => /^\d{4}-\d{2}-\d{2}$/.test(text)
    ? when(text + "T00:00:00Z", {dateStyle: "long", timeZone: "UTC"}) : String(text);

  const t = await tournament();
  fill(byId("title"), name(t.name), " ", el("span", {class: "badge", dataset: {game: t.game}}, term("game", t.game)), " ",
       el("span", {class: "badge", dataset: {format: t.format}}, term("format", t.format)));
  document.title = t.name;
  const facts = [[_("id"), t.id], [_("game"), t.game, term("game", t.game)],
                 [_("format"), t.format, term("format", t.format)], [_("date"), t.date, t.date && day(t.date)],
                 [_("venue"), t.venue, t.venue && name(t.venue)], [_("position"), t.position]];
  fill(byId("about"), el("dl", {class: "kv"},
    facts.filter(([, v]) => v !== null && v !== undefined)
      .map(([label, v, shown]) => [el("dt", {}, label), el("dd", {}, shown === undefined ? String(v) : shown)])));
  fill(byId("pages"), Paiju.pagesOf(t.format).map(p => el("a", {href: p.href, dataset: {page: p.page}}, p.label)));
  const teams = [...(t.teams || [])].sort((a, b) => byName(a.name || a.team_id, b.name || b.team_id) ||
                                                    byName(a.team_id, b.team_id));
  fill(byId("teams"), Paiju.table(teams,
    [["team_id", _("team id")], ["name", _("name")], ["players", _("players")],
     ["organisation", _("organisation")], ["withdrawn", _("withdrawn")]],
    (key, value) => {
      if ((key === "name" || key === "organisation") && value) return name(value);
      if (key === "players" && Array.isArray(value)) return joined(value.map(name));
      return undefined;
    }));
  const {matches} = await need("matches");
  const hands = m => {
    const played = m.hands_played || 0;
    const count = m.status === "completed" ? played : played + 1;
    return [...Array(Math.max(count, 0)).keys()].map(i => i + 1);
  };
  const STATUS = {playing: _("playing"), completed: _("completed"), awaiting_lots: _("awaiting lots"),
                  rolling: _("rolling for seats")};
  fill(byId("matches"), matches.length ? Paiju.table(matches,
    [["match_id", _("match id")], ["round", _("round")], ["teams", _("teams")], ["status", _("status")],
     ["winner", _("winner")], ["hands", _("hands")]],
    (key, value, m) => {
      if (key === "teams") {
        return Object.entries(m.teams).map(([side, id], i) => [i ? " · " : "",
          put(_("{side}: {team}"), {side, team: name(teamName(t, id))})]);
      }
      if (key === "status") return STATUS[value] || value;
      if (key === "winner") return m.winner === null || m.winner === undefined ? "—"
        : name(teamName(t, m.teams[m.winner] ?? m.winner));
      if (key === "hands") {
        return el("span", {class: "hands"}, hands(m).map(n => el("a", {class: "hand-link", href: replayUrl(m.match_id, n)},
                                                                  _("hand {n}", {n}))));
      }
      return undefined;
    }) : el("p", {class: "quiet"}, _("No match has started.")));
  status("");
});
