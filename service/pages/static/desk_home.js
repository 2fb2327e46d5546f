/* The desk's home (/desk/): who is signed in (role, tournament, until when) with the sign-out
   button; the desk's pages and the public pages of the session's tournament (every tournament's
   for an admin), with "create a tournament" for the roles that may; and, for an organiser or an
   admin, the form that issues sign-in codes for referees, the committee, tables and players
   (POST …/sign-in-codes), each shown with its link and when it expires. */
"use strict";

const DeskHome = (() => {
  const {_, el, fill, byId, get, everyPage, term, when, pagesOf, pageUrl, status} = Paiju;
  const bdi = text => el("bdi", {dir: "auto"}, text);
  const CODE_ROLES = ["referee", "committee", "table", "player", "organiser"];
  const ISSUERS = ["admin", "organiser"];
  const deskUrl = (tid, rest) => "/desk/t/" + encodeURIComponent(tid) + "/" + rest;
  const deskPages = () => [["entrants", _("Entrants")], ["rounds", _("Rounds")],
                           ["print/pairings", _("Pairing table")], ["print/bulletin", _("Results bulletin")]];

  /* The session's tournament (none yet: an organiser's still to be created), or every one. */
  async function tournaments(open) {
    if (open.tournament_id) {
      const r = await get("/v1/tournaments/" + encodeURIComponent(open.tournament_id));
      return r.status === 200 ? [r.body] : [];
    }
    return everyPage("/v1/tournaments", "tournaments", "tournaments");
  }

  function drawWho(open) {
    const row = (field, label, value) => [el("dt", {}, label), el("dd", {dataset: {field}}, value)];
    fill(byId("who"), el("h2", {}, _("Signed in")), el("dl", {class: "kv"},
      row("actor", _("Who"), bdi(open.actor)),
      row("role", _("Role"), PaijuDesk.roleWord(open.role)),
      row("tournament", _("Tournament"), open.tournament_id ? bdi(open.tournament_id) : _("every tournament")),
      open.match_id ? row("match", _("Match"), [bdi(open.match_id), open.seat === null || open.seat === undefined
        ? [] : [" · ", _("seat {seat}", {seat: open.seat})]]) : [],
      row("until", _("Until"), when(open.expires_at))));
    byId("who").dataset.role = open.role;
  }

  function tournamentLinks(t) {
    const links = [...deskPages().map(([rest, label]) => ({href: deskUrl(t.id, rest), label, kind: "desk", page: rest})),
                   {href: pageUrl("", t.id), label: _("Tournament"), kind: "public", page: "tournament"},
                   ...pagesOf(t.format, t.id).map(p => ({...p, kind: "public"}))];
    return el("div", {class: "desk-tournament", dataset: {tournament: t.id}},
      el("h3", {}, bdi(t.name), " ", el("span", {class: "quiet"}, term("game", t.game), " · ", term("format", t.format))),
      el("p", {class: "links"}, el("span", {class: "quiet"}, _("Desk:")), " ",
         links.filter(l => l.kind === "desk").map(l => el("a", {href: l.href, dataset: {page: l.page}}, l.label))),
      el("p", {class: "links"}, el("span", {class: "quiet"}, _("Public pages:")), " ",
         links.filter(l => l.kind === "public").map(l => el("a", {href: l.href, dataset: {page: l.page}}, l.label))));
  }

  function drawLinks(open, list) {
    fill(byId("links"), el("h2", {}, _("Pages")),
      ISSUERS.includes(open.role) ? el("p", {}, el("a", {href: "/desk/new", id: "desk-new-link"}, _("Create a tournament"))) : [],
      list.length ? list.map(tournamentLinks) : el("p", {class: "quiet"}, _("No tournament yet.")));
  }

  // --- sign-in codes --------------------------------------------------------------------------
  function showRoleFields(role) {
    for (const field of byId("code-form").querySelectorAll("[data-for-roles]")) {
      field.hidden = !field.dataset.forRoles.split(" ").includes(role);
    }
  }

  function codeBody() {
    const role = byId("code-role").value;
    const body = {role, minutes: Number(byId("code-minutes").value)};
    const name = byId("code-name").value.trim(), match = byId("code-match").value.trim();
    if (name) body.name = name;
    if (["table", "player"].includes(role) && match) body.match_id = match;
    if (role === "player") body.seat = Number(byId("code-seat").value);
    return body;
  }

  function drawIssued(issued) {
    const who = [PaijuDesk.roleWord(issued.role), issued.name ? [" · ", bdi(issued.name)] : [],
                 issued.match_id ? [" · ", bdi(issued.match_id)] : [],
                 issued.seat !== null && issued.seat !== undefined ? [" · ", _("seat {seat}", {seat: issued.seat})] : []];
    byId("issued").prepend(el("div", {class: "issued-code", dataset: {code: issued.code, role: issued.role}},
      el("p", {class: "issued-who"}, who),
      el("p", {class: "code", dataset: {field: "code"}}, issued.code),
      el("p", {}, el("span", {class: "quiet"}, _("Link:")), " ", el("code", {class: "link", dataset: {field: "link"}}, issued.link)),
      el("p", {class: "quiet", dataset: {field: "expires"}}, _("Works once, until {when}", {when: when(issued.expires_at)}))));
  }

  function codeForm(open, list) {
    if (!ISSUERS.includes(open.role)) return;
    const form = byId("code-form"), roles = byId("code-role"), button = byId("code-issue");
    fill(roles, CODE_ROLES.map(role => el("option", {value: role}, PaijuDesk.roleWord(role))));
    const choose = byId("code-tournament");
    fill(choose, list.map(t => el("option", {value: t.id}, t.name)));
    byId("code-tournament-field").hidden = Boolean(open.tournament_id);
    roles.addEventListener("change", () => showRoleFields(roles.value));
    showRoleFields(roles.value);
    form.addEventListener("submit", event => {
      event.preventDefault();
      const tid = open.tournament_id || choose.value;
      PaijuDesk.busy(button, async () => {
        const r = await PaijuDesk.send("POST", "/v1/tournaments/" + encodeURIComponent(tid) + "/sign-in-codes", codeBody());
        if (r.status === 201) {
          PaijuDesk.clearProblem(form);
          drawIssued(r.body);
        } else {
          PaijuDesk.showProblem(form, r.body);
        }
      });
    });
    byId("codes").hidden = !(open.tournament_id || list.length);
  }

  Paiju.run(async () => {
    const open = await PaijuDesk.session();
    if (!open) {  // the session ended since the page was sent
      location.assign("/desk/signin?next=" + encodeURIComponent("/desk/"));
      return;
    }
    drawWho(open);
    const list = await tournaments(open);
    drawLinks(open, list);
    codeForm(open, list);
    status("");
  });
  return {tournaments};
})();
