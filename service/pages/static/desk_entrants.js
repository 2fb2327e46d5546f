/* The desk's entrants of a tournament:
   - a CSV file of entrants (POST …/entrants, text/csv): every row registered at once, or none —
     then each fault with its row and column in a table;
   - one entrant registered (TeamRegistered), withdrawn (TeamWithdrawn), or corrected: the log
     has no event that edits an entrant, so a correction withdraws it and registers the
     corrected entrant under a new id, both in one batch (all or nothing);
   - the check-in list (TeamCheckedIn, T-2.6): one tap per team, for a knockout whose setting
     checkIn asks for it.
   Every action is posted through the API, which judges it; its refusal is shown beside the
   field it names. Each action's events get their ids once (PaijuDesk.postEvents), so a double
   click stores them once. */
"use strict";

const DeskEntrants = (() => {
  const {_, term, el, fill, byId, need, status, table} = Paiju;
  const Desk = PaijuDesk;
  const tid = Paiju.tid;
  const api = "/v1/tournaments/" + encodeURIComponent(tid);
  const stream = "tournament-" + tid;
  const SIZES = JSON.parse(byId("desk-sizes").textContent);
  const name = text => el("bdi", {class: "name", dir: "auto"}, text);
  let shown = null;  // the tournament as last read
  let correcting = null;  // the team the entrant form corrects, or null: a new entrant

  async function refresh() {
    shown = await need("");
    render(shown);
  }

  function render(t) {
    fill(byId("about"), el("p", {}, name(t.name), " · ", term("game", t.game), " · ",
                           term("format", t.format), " · ", el("code", {}, t.id)));
    byId("csv-columns").textContent = _("Columns: {columns}", {columns: columns(t).join(", ")});
    renderCheckIn(t);
    renderTeams(t);
    if (!byId("entrant-fields").childElementCount) entrantForm(t, null);
  }

  function columns(t) {
    const most = Math.max(...SIZES[t.game]);
    const players = Array.from({length: most}, (x, i) => "player" + (i + 1));
    return ["team_id", "name", ...players, ...players.map(p => p + "_id"), "organisation", "leader"];
  }

  function players(team) {
    return team.players.map((p, i) => [i ? ", " : "", name(p)]);
  }

  // --- the check-in list ----------------------------------------------------------------------
  function checkInMode(t) {
    return t.format === "knockout" ? (t.settings.checkIn || "off") : null;
  }

  function renderCheckIn(t) {
    const mode = checkInMode(t), box = byId("check-in");
    if (!mode || mode === "off") {
      fill(box, el("p", {class: "quiet"}, t.format === "knockout"
        ? _("No check-in: every registered team is drawn (the knockout's setting checkIn is off, T-2.6).")
        : _("A {format} tournament has no check-in (T-2.6).", {format: term("format", t.format)})));
      return;
    }
    const teams = t.teams.filter(x => !x.withdrawn);
    const done = teams.filter(x => x.checked_in).length;
    const form = el("form", {class: "desk-form check-in", novalidate: true},
      el("p", {class: "count", dataset: {checked: done, of: teams.length}},
         _("{done} of {all} teams checked in", {done, all: teams.length})),
      el("ul", {class: "check-list"}, teams.map(team => el("li", {dataset: {team: team.team_id}},
        team.checked_in
          ? el("span", {class: "badge checked-in"}, _("✓ checked in"))
          : el("button", {type: "button", class: "tap", dataset: {act: "check-in"},
                          onclick: event => checkIn(event.currentTarget, team)}, _("Check in")),
        " ", name(team.name), " ", el("span", {class: "quiet"}, "(", team.team_id, ")")))),
      el("p", {class: "form-error", role: "alert"}));
    form.addEventListener("submit", event => event.preventDefault());
    fill(box, form);
  }

  async function checkIn(button, team) {
    const form = button.form;
    await act(form, button, [{type: "TeamCheckedIn", data: {team_id: team.team_id}}]);
  }

  // --- the entrants ---------------------------------------------------------------------------
  function renderTeams(t) {
    if (!t.teams.length) {
      fill(byId("teams"), el("p", {class: "quiet"}, _("No entrant yet.")));
      return;
    }
    const rows = t.teams.map(x => ({...x, state: x.withdrawn ? _("withdrawn") : x.checked_in ? _("checked in") : "",
                                    actions: null}));
    const grid = table(rows, [["team_id", _("team id")], ["name", _("name")], ["players", _("players")],
                              ["organisation", _("organisation")], ["leader", _("team leader")],
                              ["state", _("state")], ["actions", ""]],
      (key, value, row) => {
        if (key === "name" || key === "leader" || key === "organisation") return value ? name(value) : "—";
        if (key === "players") return players(row);
        if (key === "actions") return row.withdrawn ? "" : actions(t, row);
        return undefined;
      });
    for (const [i, line] of [...grid.tBodies[0].rows].entries()) line.dataset.team = t.teams[i].team_id;
    const form = el("form", {class: "desk-form", novalidate: true}, grid,
                    el("p", {class: "form-error", role: "alert"}));
    form.addEventListener("submit", event => event.preventDefault());
    fill(byId("teams"), form);
  }

  function actions(t, team) {
    return [
      el("button", {type: "button", dataset: {act: "correct"}, onclick: () => entrantForm(t, team)},
         _("Correct")), " ",
      el("button", {type: "button", dataset: {act: "withdraw"}, onclick: event => withdraw(event.currentTarget, team)},
         _("Withdraw"))];
  }

  async function withdraw(button, team) {
    if (!confirm(_("Withdraw {team}? It stays in the log as withdrawn.", {team: team.name}))) return;
    await act(button.form, button, [{type: "TeamWithdrawn", data: {team_id: team.team_id}}]);
  }

  // --- one entrant: registered, or corrected --------------------------------------------------
  function field(key, label, value, extra) {
    const id = "e-" + key.replace(/[^A-Za-z0-9]+/g, "-");
    return el("div", {class: "field"},
      el("label", {for: id}, label),
      el("input", {id, dataset: {field: key}, value: value || "", dir: "auto", spellcheck: "false",
                   ...(extra || {})}),
      el("span", {class: "field-error", role: "alert"}));
  }

  /* The entrant form: empty for a new entrant, or filled with `team` to correct it. */
  function entrantForm(t, team) {
    correcting = team;
    const most = Math.max(...SIZES[t.game]);
    const given = team ? team.player_ids || [] : [];
    const derived = team ? given.every((pid, i) => pid === team.team_id + "." + (i + 1)) : true;
    fill(byId("entrant-fields"),
      field("team_id", _("Team id"), team ? newId(t, team.team_id) : ""),
      field("name", _("Name"), team && team.name),
      Array.from({length: most}, (_x, i) => field("players/" + i, _("Player {n}", {n: i + 1}),
                                                  team && team.players[i])),
      Array.from({length: most}, (_x, i) => field("player_ids/" + i, _("Player {n}'s id (optional)", {n: i + 1}),
                                                  !derived ? given[i] : "")),
      field("organisation", _("Organisation (optional)"), team && team.organisation),
      field("leader", _("Leader (optional)"), team && team.leader));
    byId("entrant-heading").textContent = team ? _("Correct {team}", {team: team.name}) : _("One entrant");
    byId("entrant-mode").textContent = team
      ? _("No event edits an entrant: the correction withdraws {old} and registers the corrected entrant under a new id, both at once; the withdrawn entry stays in the log.", {old: team.team_id})
      : _("Registers one entrant (TeamRegistered).");
    byId("entrant-save").textContent = team ? _("Withdraw and register corrected") : _("Register");
    byId("entrant-cancel").hidden = !team;
    Desk.clearProblem(byId("entrant-form"));
    if (team) byId("entrant-form").scrollIntoView();
  }

  /* A new id for a corrected entrant: its id with the first -2, -3 … no entrant has. */
  function newId(t, old) {
    const taken = new Set(t.teams.map(x => x.team_id));
    const stem = old.replace(/-\d+$/, "");
    for (let n = 2; ; n++) if (!taken.has(stem + "-" + n)) return stem + "-" + n;
  }

  function entrantData() {
    const data = {players: [], player_ids: []};
    for (const input of byId("entrant-fields").querySelectorAll("input[data-field]")) {
      const [key, index] = input.dataset.field.split("/"), value = input.value.trim();
      if (index !== undefined) data[key][Number(index)] = value;
      else if (value) data[key] = value;
    }
    // the players given, in order; ids only when some is given (one per player, T-1.6)
    const count = data.players.reduce((n, p, i) => p ? i + 1 : n, 0);
    data.players = data.players.slice(0, count);
    if (data.player_ids.some(Boolean)) data.player_ids = data.player_ids.slice(0, Math.max(count, 1));
    else delete data.player_ids;
    return data;
  }

  async function saveEntrant(event) {
    event.preventDefault();
    const form = byId("entrant-form");
    const events = [];
    if (correcting) events.push({type: "TeamWithdrawn", data: {team_id: correcting.team_id}});
    events.push({type: "TeamRegistered", data: entrantData()});
    // each input names the field of the registration's data, in the batch it is posted in
    const prefix = "/events/" + (events.length - 1) + "/data/";
    for (const input of form.querySelectorAll("input[data-field]")) {
      input.dataset.pointer = prefix + input.dataset.field;
    }
    if (await act(form, byId("entrant-save"), events)) entrantForm(shown, null);
  }

  // --- the CSV file ---------------------------------------------------------------------------
  async function upload(event) {
    event.preventDefault();
    const form = byId("csv-form"), file = byId("csv-file").files[0];
    Desk.clearProblem(form);
    fill(byId("csv-faults"));
    byId("csv-result").textContent = "";
    if (!file) {
      Desk.showProblem(form, {detail: _("Choose a CSV file first."), path: "/file"});
      return;
    }
    const answer = await Desk.busy(byId("csv-upload"), Desk.send("POST", api + "/entrants", file,
                                                                 {contentType: "text/csv; charset=utf-8"}));
    if (answer.status === 201) {
      byId("csv-result").textContent = _("{count} entrants registered.", {count: answer.body.registered});
      form.reset();
      await refresh();
      return;
    }
    const problem = answer.body || {detail: "HTTP " + answer.status};
    Desk.showProblem(form, {...problem, errors: []});  // the faults go in their table
    if (problem.errors && problem.errors.length) showFaults(problem.errors);
  }

  function showFaults(errors) {
    const rows = errors.map(e => ({row: e.row, column: e.column, message: e.message, rule: e.rule}));
    const grid = table(rows, [["row", _("row")], ["column", _("column")], ["message", _("fault")],
                              ["rule", _("rule")]]);
    grid.classList.add("faults");
    fill(byId("csv-faults"), grid);
  }

  // --- acting through the API -----------------------------------------------------------------
  /* Posts the events of one action (in one batch: all or none) with the button busy; a
     refusal is shown beside the field it names, else the page is read again. True when
     stored. */
  async function act(form, button, events) {
    Desk.clearProblem(form);
    const answer = await Desk.busy(button, Desk.postEvents(tid, events.map(e => ({stream, ...e}))));
    if (answer.status >= 400) {
      Desk.showProblem(form, answer.body || {detail: "HTTP " + answer.status});
      return false;
    }
    await refresh();
    return true;
  }

  Paiju.run(async () => {
    byId("csv-form").addEventListener("submit", upload);
    byId("entrant-form").addEventListener("submit", saveEntrant);
    byId("entrant-cancel").addEventListener("click", () => entrantForm(shown, null));
    await refresh();
    status("");
  });
  return {refresh};
})();
