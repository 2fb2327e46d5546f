/* The home page: every tournament not archived (GET /v1/tournaments, page after page), with its
   game, its format and links to the pages that format has; one that paiju simulate made is
   labelled "simulation" (its `simulated` mark, T-1.7). The game and the format are named as the
   glossary names them in the reader's language (rules/glossary.py); their codes stay in
   data-game and data-format. */
"use strict";

const Home = (() => {
  const {_, term, el, fill, byId, everyPage, pagesOf, pageUrl, status} = Paiju;
  const name = text => el("bdi", {class: "name", dir: "auto"}, text);

  /* Every listed tournament, in order of creation (the API leaves the archived out). */
  function load() {
    return everyPage("/v1/tournaments", "tournaments", "tournaments");
  }

  function render(tournaments) {
    const rows = tournaments.map(t => el("tr", {dataset: {tournament: t.id}},
      el("td", {dataset: {col: "name"}}, el("a", {href: pageUrl("", t.id)}, name(t.name)),
         t.simulated ? [" ", el("span", {class: "badge simulated", dataset: {mark: "simulated"}}, _("simulation"))] : []),
      el("td", {dataset: {col: "game", game: t.game}}, term("game", t.game)),
      el("td", {dataset: {col: "format", format: t.format}}, term("format", t.format)),
      el("td", {dataset: {col: "pages"}, class: "links"},
         pagesOf(t.format, t.id).map(p => el("a", {href: p.href, dataset: {page: p.page}}, p.label)))));
    const heads = [_("tournament"), _("game"), _("format"), _("pages")];
    fill(byId("tournaments"), tournaments.length
      ? el("table", {class: "grid"},
           el("thead", {}, el("tr", {}, heads.map(h => el("th", {scope: "col"}, h)))),
           el("tbody", {}, rows))
      : el("p", {class: "quiet"}, _("No tournament yet.")));
  }

  Paiju.run(async () => {
    render(await load());
    status("");
  });
  return {load, render};
})();
