/* Groups of four (GET …/groups, as of #at=P when given): each stage's tables, their seats,
   coins and places, the lots, who qualified; each table links to the replay of its hands. */
"use strict";

Paiju.run(async () => {
  await showGroups();
  Paiju.redrawLive(null, showGroups);  // each table's coins and places as they are played
});

async function showGroups() {
  const {_, term, el, fill, byId, need, tournament, teamName, replayUrl, status, at, short} = Paiju;
  const name = text => el("bdi", {class: "name", dir: "auto"}, text);
  /* A translated sentence with nodes in its blanks: put(_("Qualified: {teams}"), {teams: nodes}). */
  const put = (text, parts) => text.split(/(\{\w+\})/).filter(Boolean).map(piece => {
    const blank = /^\{(\w+)\}$/.exec(piece);
    return blank && blank[1] in parts ? parts[blank[1]] : piece;
  });
  const joined = items => items.flatMap((item, i) => i ? [_(", "), item] : [item]);
  const t = await tournament();
  const view = await need("groups", {at: at()});
  fill(byId("title"), at() ? put(_("Groups · {name} (as of position {position})"), {name: name(t.name), position: at()})
    : put(_("Groups · {name}"), {name: name(t.name)}));
  const root = byId("groups");
  if (!view.stages || !view.stages.length) {
    fill(root, el("p", {class: "quiet"}, t.format === "groups" ? _("No stage has been drawn yet.")
      : _("This tournament is not played in groups (format {format}).", {format: term("format", t.format)})));
    status("");
    return;
  }
  const hands = n => n === 1 ? _("{n} hand", {n}) : _("{n} hands", {n});
  const table = tb => el("article", {class: "match-box", dataset: {match: tb.match_id}},
    el("header", {}, tb.started ? el("a", {href: replayUrl(tb.match_id, 1)}, tb.match_id) : tb.match_id,
       el("span", {}, (tb.completed ? _("completed") : tb.started ? _("playing") : _("not started")) +
          (tb.hands_played ? " · " + hands(tb.hands_played) : ""))),
    Paiju.table(tb.seats, [["seat", _("seat")], ["team", _("team")], ["coins", _("coins")], ["place", _("place")],
                           ["tied", _("tied")]],
                (key, value) => key === "team" ? name(teamName(t, value)) : undefined));
  const teams = list => Array.isArray(list) ? joined(list.map(x => name(teamName(t, x)))) : short(list);
  fill(root, view.stages.map(stage => el("section", {class: "stage", dataset: {stage: stage.stage}},
    el("h2", {}, stage.final ? _("Stage {n} (final)", {n: stage.stage}) : _("Stage {n}", {n: stage.stage}),
       stage.complete ? " · " + _("complete") : ""),
    el("div", {class: "tables"}, stage.tables.map(table)),
    stage.qualified ? el("p", {}, put(_("Qualified: {teams}"), {teams: teams(stage.qualified)})) : null,
    stage.awaiting_lots ? el("p", {class: "quiet"}, _("Awaiting lots: {reason}", {reason: short(stage.awaiting_lots)})) : null,
    stage.lots && stage.lots.length ? el("p", {class: "quiet"}, _("Lots: {lots}", {lots: short(stage.lots)})) : null)),
    view.next_stage ? el("p", {}, _("Next stage to draw: {stage}", {stage: view.next_stage})) : null);
  status("");
}
