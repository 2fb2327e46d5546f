/* The desk's new tournament: the game, its format (T-1.1: the formats each game is played in),
   and every setting of the format and of the game's matches, each with its default and the
   rules it comes from — the tables the server checks settings with, sent as the page's data
   (service/settings_tables.py). Submitting posts POST /v1/tournaments (TournamentCreated); only
   the settings changed from their defaults are sent (an omitted key takes its default), and the
   server judges everything: its refusal is shown beside the field it names. */
"use strict";

const DeskNew = (() => {
  const {_, term, el, fill, byId, status} = Paiju;
  const Desk = PaijuDesk;
  const CHOICES = JSON.parse(byId("desk-choices").textContent);
  const form = byId("new-tournament");
  // The id of the tournament being created, kept until it is created: a second post of the
  // same creation is refused as a tournament that exists, never made twice.
  let pendingId = null;

  // An organiser signed in for a tournament still to be created may create that one only: its
  // id is given (an admin's session names none, and the box stays empty)
  Desk.session().then(open => {
    const box = byId("f-id");
    if (open && open.role === "organiser" && open.tournament_id && !box.value) {
      box.value = open.tournament_id;
    }
  });

  // --- the settings as fields -----------------------------------------------------------------
  function shown(value, setting) {
    if (value === null || value === undefined) return setting.nullable ? _("no limit") : _("none");
    if (typeof value === "boolean") return value ? _("yes") : _("no");
    if (typeof value === "object") return JSON.stringify(value);
    return String(value);
  }

  function widget(setting, id, value) {
    const attrs = {id, dataset: {key: setting.key, kind: setting.kind}};
    if (setting.kind === "choice") {
      return el("select", attrs, setting.values.map(v =>
        el("option", {value: v, selected: v === value}, v)));
    }
    if (setting.kind === "flag") return el("input", {...attrs, type: "checkbox", checked: value === true});
    if (setting.kind === "whole" || setting.kind === "positive") {
      const [low, high] = setting.bounds || [1, null];
      return el("input", {...attrs, type: "number", step: 1, min: low, max: high, inputmode: "numeric",
                          value: value === null ? "" : value,
                          placeholder: value === null ? shown(null, setting) : null});
    }
    if (setting.kind === "seeding") {
      return el("input", {...attrs, spellcheck: "false",
                          placeholder: _("team ids, best first, separated by commas")});
    }
    return el("input", {...attrs, spellcheck: "false", value: JSON.stringify(value)});
  }

  /* The rules of a setting, each ID with the name of its section in the reader's language. */
  function rulesOf(rules) {
    return el("span", {class: "rules", dataset: {rules: rules.join(" ")}},
      rules.length ? rules.map((rule, i) => [i ? ", " : "", el("span", {class: "rule"}, rule),
                                             CHOICES.titles[rule] ? " " + CHOICES.titles[rule] : ""])
                   : _("no rule named"));
  }

  function settingRow(setting, pointer, value) {
    const id = "s" + pointer.replace(/[^A-Za-z0-9]+/g, "-");
    const input = widget(setting, id, value);
    input.dataset.pointer = pointer;
    input.dataset.default = JSON.stringify(value === undefined ? null : value);
    return el("div", {class: "field setting", dataset: {setting: setting.key}},
      el("label", {for: id}, el("code", {}, setting.key)),
      input,
      el("span", {class: "field-error", role: "alert"}),
      el("span", {class: "about"},
         el("span", {class: "default"}, _("default: {value}", {value: shown(value, setting)})),
         " · ", rulesOf(setting.rules)));
  }

  function tournamentRows(game, format) {
    const table = CHOICES.formats[format];
    const own = format === "groups" ? CHOICES.group_defaults[game] || {} : {};
    if (!table) return [el("p", {class: "quiet"}, _("This format takes no tournament settings."))];
    return table.settings.filter(s => s.kind !== "match").map(s =>
      settingRow(s, "/settings/" + s.key, s.key in own ? own[s.key] : s.default));
  }

  function matchRows(game, format) {
    const table = CHOICES.matches[game];
    if (!table) return [el("p", {class: "quiet"}, _("A result-only game: the referee records each match's result, no match settings."))];
    const fixed = CHOICES.fixed[format] || [];
    return table.settings.filter(s => !fixed.includes(s.key)).map(s =>
      settingRow(s, "/settings/match/" + s.key, s.default));
  }

  // --- the game and the format ----------------------------------------------------------------
  function gameLabel(game) {
    const info = CHOICES.games[game];
    return term("game", game) + " (" + game + ")" + (info.result_only ? " — " + _("result only") : "");
  }

  function formatLabel(format, game) {
    return format === "groups" && game === "MJO" ? _("Coin sessions (tables of four)") : term("format", format);
  }

  function showFormats() {
    const game = byId("f-game").value, select = byId("f-format"), was = select.value;
    const formats = CHOICES.games[game].formats;
    fill(select, formats.map(f => el("option", {value: f, selected: f === was}, formatLabel(f, game))));
    showSettings();
  }

  function showSettings() {
    const game = byId("f-game").value, format = byId("f-format").value;
    fill(byId("format-rows"), tournamentRows(game, format));
    fill(byId("match-rows"), matchRows(game, format));
  }

  // --- what is sent ---------------------------------------------------------------------------
  /* A field's value as the API takes it; undefined: leave the key out (its default). What the
     reader typed is sent as it is when it is not a number or JSON: the server says why not. */
  function valueOf(input) {
    const kind = input.dataset.kind, text = input.value.trim();
    const fallback = JSON.parse(input.dataset.default);
    if (kind === "flag") return input.checked;
    if (kind === "choice") return input.value;
    if (kind === "whole" || kind === "positive") {
      if (text === "") return fallback === null ? undefined : null;
      const number = Number(text);
      return Number.isFinite(number) ? number : text;
    }
    if (kind === "seeding") {
      const seeds = text.split(/[\s,，、]+/).filter(Boolean);
      return seeds.length ? {seeds} : undefined;
    }
    try { return JSON.parse(text); } catch (e) { return text; }
  }

  function settings() {
    const out = {}, match = {};
    for (const input of form.querySelectorAll(".setting [data-pointer]")) {
      const value = valueOf(input);
      if (value === undefined || JSON.stringify(value) === input.dataset.default) continue;
      const [, , second, third] = input.dataset.pointer.split("/");
      if (second === "match") match[third] = value;
      else out[second] = value;
    }
    return Object.keys(match).length ? {...out, match} : out;
  }

  function body() {
    const data = {name: byId("f-name").value.trim(), game: byId("f-game").value,
                  format: byId("f-format").value, settings: settings()};
    for (const [key, id] of [["date", "f-date"], ["venue", "f-venue"], ["time_zone", "f-time-zone"]]) {
      const value = byId(id).value.trim();
      if (value) data[key] = value;
    }
    const given = byId("f-id").value.trim();
    pendingId = given || pendingId || Desk.newId();
    data.tournament_id = pendingId;
    return data;
  }

  // --- the answer -----------------------------------------------------------------------------
  /* A rule's refusal of a setting names the rule, and the setting's key in its words, not a
     pointer: the field of the setting the refusal names first is the one it is shown beside. */
  function located(problem) {
    if (!problem || problem.status !== 422 || (problem.path && problem.path !== "/") ||
        !problem.detail) return problem;
    let best = null;
    for (const input of form.querySelectorAll(".setting [data-key]")) {
      const found = new RegExp("(^|[^A-Za-z0-9_])" + input.dataset.key + "(?![A-Za-z0-9_])")
        .exec(problem.detail);
      if (found && (!best || found.index < best.at)) best = {at: found.index, pointer: input.dataset.pointer};
    }
    return best ? {...problem, path: best.pointer} : problem;
  }

  function created(t) {
    pendingId = null;
    byId("f-id").value = "";
    const section = byId("created");
    const here = "/desk/t/" + encodeURIComponent(t.id);
    fill(section,
      el("h2", {}, _("Created")),
      el("p", {}, el("bdi", {class: "name", dir: "auto"}, t.name), " · ", term("game", t.game), " · ",
         formatLabel(t.format, t.game), " · ", el("code", {dataset: {created: t.id}}, t.id)),
      el("p", {class: "links"},
         el("a", {href: here + "/entrants", dataset: {page: "entrants"}}, _("Entrants and check-in")),
         el("a", {href: here + "/rounds", dataset: {page: "rounds"}}, _("Rounds")),
         el("a", {href: Paiju.pageUrl("", t.id), dataset: {page: "tournament"}}, _("Tournament page"))));
    section.hidden = false;
    section.scrollIntoView();
  }

  let sending = false;
  async function submit(event) {
    event.preventDefault();
    if (sending) return;  // one creation at a time: a second click or Enter waits for the first
    sending = true;
    try {
      Desk.clearProblem(form);
      byId("created").hidden = true;
      const answer = await Desk.busy(byId("create"), Desk.send("POST", "/v1/tournaments", body()));
      if (answer.status === 201) created(answer.body);
      else Desk.showProblem(form, located(answer.body || {detail: "HTTP " + answer.status}));
    } finally {
      sending = false;
    }
  }

  Paiju.run(() => {
    fill(byId("f-game"), Object.keys(CHOICES.games).map(g => el("option", {value: g}, gameLabel(g))));
    byId("f-game").addEventListener("change", showFormats);
    byId("f-format").addEventListener("change", showSettings);
    form.addEventListener("submit", submit);
    showFormats();
    status("");
  });
  return {settings, body, located};
})();
