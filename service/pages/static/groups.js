/* Groups of four (GET …/groups, as of #at=P when given): each stage's tables, their seats,
   coins and places, the lots, who qualified; each table links to the replay of its hands. */
"use strict";

Paiju.run(async () => {
  await showGroups();
  Paiju.redrawLive(null, showGroups);  // each table's coins and places as they are played
});

async function showGroups() {
  const {el, fill, byId, need, tournament, teamName, replayUrl, status, at, short} = Paiju;
  const t = await tournament();
  const view = await need("groups", {at: at()});
  fill(byId("title"), "Groups · " + t.name, at() ? " (as of position " + at() + ")" : "");
  const root = byId("groups");
  if (!view.stages || !view.stages.length) {
    fill(root, el("p", {class: "quiet"}, t.format === "groups" ? "No stage has been drawn yet."
      : "This tournament is not played in groups (format " + t.format + ")."));
    status("");
    return;
  }
  const table = tb => el("article", {class: "match-box", dataset: {match: tb.match_id}},
    el("header", {}, tb.started ? el("a", {href: replayUrl(tb.match_id, 1)}, tb.match_id) : tb.match_id,
       el("span", {}, (tb.completed ? "completed" : tb.started ? "playing" : "not started") +
          (tb.hands_played ? " · " + tb.hands_played + " hands" : ""))),
    Paiju.table(tb.seats, ["seat", "team", "coins", "place", "tied"],
                (key, value) => key === "team" ? teamName(t, value) : undefined));
  fill(root, view.stages.map(stage => el("section", {class: "stage", dataset: {stage: stage.stage}},
    el("h2", {}, "Stage " + stage.stage + (stage.final ? " (final)" : "") + (stage.complete ? " · complete" : "")),
    el("div", {class: "tables"}, stage.tables.map(table)),
    stage.qualified ? el("p", {}, "Qualified: " + short(stage.qualified.map ? stage.qualified.map(x => teamName(t, x)) : stage.qualified)) : null,
    stage.awaiting_lots ? el("p", {class: "quiet"}, "Awaiting lots: " + short(stage.awaiting_lots)) : null,
    stage.lots && stage.lots.length ? el("p", {class: "quiet"}, "Lots: " + short(stage.lots)) : null)),
    view.next_stage ? el("p", {}, "Next stage to draw: " + view.next_stage) : null);
  status("");
}
