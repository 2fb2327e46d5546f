/* The desk's score sheet of one match (match setting recording "sheet": SJ2-18, SJ3-15, GD-14):
   the paper sheet row by row. Each stored row shows what the server made of it — the points, the
   outcome, the levels after it and who deals next (GET …/matches/<mid>/hands); the next row is
   entered below them and posted as one HandResultRecorded / GDHandResultRecorded event, whose
   id is made once for the row, so a double click stores it once. A row the rules refuse shows
   the rule in words on that row, and nothing is stored. Above the sheet: the time limit and the
   chief referee's alert, and (in a team event) the referee's count of a pair's lateness. */
"use strict";

const DeskSheet = (() => {
  const {_, term, el, fill, byId, need, tournament, teamName, status, when} = Paiju;
  const Desk = PaijuDesk;
  const tid = Paiju.tid;
  const mid = document.body.dataset.mid;
  const api = "/v1/tournaments/" + encodeURIComponent(tid);
  const matchApi = api + "/matches/" + encodeURIComponent(mid);
  const name = text => el("bdi", {class: "name", dir: "auto"}, text);
  const put = (text, parts) => text.split(/(\{\w+\})/).filter(Boolean).map(piece => {
    const blank = /^\{(\w+)\}$/.exec(piece);
    return blank && blank[1] in parts ? parts[blank[1]] : piece;
  });
  let shown = null;   // {t, match, rows, table}: what the page drew last
  let entry = null;   // the row being entered: {hand, id}, its event id made once for it

  async function allRows() {
    const rows = [];
    let path = matchApi + "/hands?limit=1000";
    while (path) {
      const page = await need(path);
      rows.push(...page.hands);
      path = page.next;
    }
    return rows;
  }

  /* The team event's table this match is (its pair, for lateness): null elsewhere. */
  async function teamTable(t) {
    if (t.format !== "swiss-teams") return null;
    const view = await need("rounds");
    for (const round of view.rounds) {
      for (const meeting of round.meetings) {
        const table = meeting.tables.find(x => x.match_id === mid);
        if (table) return {round: round.round, pair: table.pair, teams: meeting.teams};
      }
    }
    return null;
  }

  async function load() {
    const t = await tournament();
    const [match, rows, table] = await Promise.all([need(matchApi), allRows(), teamTable(t)]);
    return {t, match, rows, table};
  }

  /* Reads the sheet again and draws it only if something changed: the live echo of the row just
     recorded (or of the lateness just counted) must not redraw the entry row the scorer has
     begun to type into, which would take the focus from the box under the cursor. With
     `keepTyped` (another desk's row, the round's alert), what was typed into the entry row stays
     as it is while its hand is still the next one. */
  async function refresh(keepTyped = false) {
    const data = await load();
    if (shown && JSON.stringify(data) === JSON.stringify(shown)) return;
    const typed = keepTyped && byId("entry") ? [...byId("entry").querySelectorAll("input, select")].map(x => [x.type === "checkbox" ? x.checked : x.value]) : null;
    const before = shown && shown.match.next_hand;
    shown = data;
    render(shown);
    if (typed && shown.match.next_hand === before) restore(typed);
  }

  // --- what the sheet says ------------------------------------------------------------------------
  const seatOf = (match, seat) => match.seats.find(s => s.seat === seat);
  const sideTeam = (data, side) => name(teamName(data.t, data.match.teams[side]));

  function seatText(match, seat) {
    if (seat === null || seat === undefined) return "—";
    const s = seatOf(match, seat);
    return _("seat {seat} · {player}", {seat, player: s ? s.player : "?"});
  }

  function levelsCell(levels) {
    return el("span", {class: "levels", dataset: {a: levels.A, b: levels.B}},
              _("A {a} : B {b}", {a: levels.A, b: levels.B}));
  }

  /* SJ2-13 / SJ3-10: what a row's points gave — the dealer side up, or the deal passing. */
  function outcome(row) {
    const r = row.result;
    if (!r) return row.forfeited ? _("forfeited") : "—";
    if (r.winner === "dealer") return _("dealer side +{n}", {n: r.levels});
    if (r.levels) return _("defenders take the deal, +{n}", {n: r.levels});
    return _("defenders take the deal");
  }

  function trumpText(code) {
    if (!code) return "—";
    return code === "NT" ? _("no trump") : term("suit", code);
  }

  function header(data) {
    const {match} = data;
    const side = s => el("li", {dataset: {side: s}}, el("strong", {}, term("side", s)), " ", sideTeam(data, s), " — ",
      match.seats.filter(x => x.side === s).map(x => _("seat {seat} · {player}", {seat: x.seat, player: x.player})).join(_(", ")));
    return [el("ul", {class: "sides"}, side("A"), side("B")), el("p", {id: "now", class: "now"}, nowText(data))];
  }

  /* Where the match stands: its levels, and the next hand and its dealer; or how it ended. */
  function nowText(data) {
    const {match} = data;
    const levels = [_("Levels now:"), " ", levelsCell(match.levels)];
    if (match.status === "completed") {
      const winner = match.winner ? put(_("won by side {side} ({team})"), {side: match.winner, team: sideTeam(data, match.winner)})
        : _("drawn");
      return [el("strong", {class: "ended"}, _("Match over")), " · ", winner,
              match.reason ? " · " + (REASONS()[match.reason] || match.reason_text || match.reason) : "", " · ", levels];
    }
    if (match.status !== "playing") return [_("Status: {status}", {status: match.status}), " · ", levels];
    const dealer = match.game === "GD" ? "" : " · " + (match.next_dealer === null || match.next_dealer === undefined
      ? _("the dealer of hand {n} comes from the declarations", {n: match.next_hand})
      : _("dealer {dealer}", {dealer: seatText(match, match.next_dealer)}));
    return [levels, " · ", _("next: hand {n}", {n: match.next_hand}), dealer];
  }

  /* How a match ended (SJ2-14, SJ3-12, T-6.5, GD-11, GD-6.3). */
  const REASONS = () => ({
    target: _("a side climbed past the target level"), maxHands: _("the last hand was played: the higher level wins"),
    time: _("the time limit: the levels decided"), lots: _("lots between equal levels"), forfeit: _("forfeit"),
    disqualified: _("a side was disqualified"), game: _("played through A (GD-6.3)"),
    overtime: _("the higher level after overtime (GD-11.2)"), extraHand: _("the extra hand decided (GD-11.2)")});

  // --- the page ---------------------------------------------------------------------------------
  function render(data) {
    const {t, match} = data;
    fill(byId("title"), put(_("Score sheet · {match} · {name}"), {match: mid, name: name(t.name)}), " ",
         el("span", {class: "badge"}, term("game", match.game)));
    fill(byId("match"), header(data));
    fill(byId("time"), TimePanel.render(data));
    if (match.recording !== "sheet") {
      fill(byId("sheet"), el("p", {}, _("This match is recorded card by card, not from a score sheet: follow it on its live page."), " ",
        el("a", {href: Paiju.replayUrl(mid, Math.max(1, match.next_hand || 1)), dataset: {link: "live"}}, _("live page"))));
      return;
    }
    if (!entry || entry.hand !== match.next_hand) entry = {hand: match.next_hand, id: Desk.newId()};
    const Game = match.game === "GD" ? GDRows : SJRows;
    const open = match.status === "playing";
    fill(byId("sheet"), el("table", {class: "grid sheet", dataset: {game: match.game}},
      el("thead", {}, el("tr", {}, Game.heads(match).map(h => el("th", {scope: "col"}, h)))),
      el("tbody", {id: "rows"}, data.rows.map(row => Game.stored(data, row))),
      open ? el("tbody", {id: "entry"}, Game.entry(data, entry.hand),
                errorRow(Game.heads(match).length)) : null));
    showRefusal(byId("sheet"));
  }

  function errorRow(span) {
    return el("tr", {class: "row-error"}, el("td", {colspan: span}, el("p", {class: "form-error", role: "alert"})));
  }

  // --- entering a row ---------------------------------------------------------------------------
  /* The value of an input as the API takes it: a whole number as a number, an empty box left
     out (or null where the row needs it, so that the server names the field), any other text
     as it is (the server names it too). */
  function number(input, needed) {
    const text = input.value.trim();
    if (text === "") return needed ? null : undefined;
    return /^-?\d+$/.test(text) ? Number(text) : text;
  }

  /* Posts the row as one event with the row's own id: a second click, or the same row sent
     again, is the same event (the API answers it without storing another). */
  async function record(btn, type, data) {
    const form = byId("sheet");
    Desk.clearProblem(form);
    delete form.dataset.rule;
    entry.problem = null;
    const event = {id: entry.id, type, stream: "match-" + tid + ":" + mid, data};
    const answer = await Desk.busy(btn, Desk.postEvents(tid, event));
    if (answer.status >= 400) {
      entry.problem = answer.body || {detail: "HTTP " + answer.status};
      showRefusal(form);
      return;
    }
    status(_("Hand {n} recorded.", {n: data.hand}));
    await refresh();
    const first = byId("entry") && byId("entry").querySelector("input, select");
    if (first) first.focus();
  }

  /* The row's refusal on the row (kept across a redraw while the row is still the next one). */
  function showRefusal(form) {
    if (!entry || !entry.problem || !byId("entry")) return;
    Desk.showProblem(form, entry.problem);
    if (entry.problem.rule) form.dataset.rule = entry.problem.rule;
  }

  function recordButton(handler) {
    return el("button", {type: "button", id: "record", onclick: event => handler(event.currentTarget)}, _("Record row"));
  }

  Paiju.run(async () => {
    await refresh();
    status("");
    Paiju.redrawLive({stream: "match-" + tid + ":" + mid}, () => refresh(true));
  });

  function restore(typed) {
    const inputs = byId("entry") ? [...byId("entry").querySelectorAll("input, select")] : [];
    inputs.forEach((x, i) => {
      if (!typed[i]) return;
      if (x.type === "checkbox") x.checked = typed[i][0]; else x.value = typed[i][0];
    });
  }

  return {refresh, record, recordButton, number, seatText, levelsCell, outcome, trumpText, put, name, api, matchApi, mid};
})();

/* The rows of a Shengji sheet (SJ2, SJ3): dealer, trump, the defenders' points in tricks, the
   kitty's points and multiplier, point penalties, follow errors (SJ2: each one; SJ3: the sides
   whose renege or light signals floor the outcome), SJ2's kitty error; then what they gave. */
const SJRows = (() => {
  const {_, term, el} = Paiju;
  const D = DeskSheet;

  function heads(match) {
    return [_("hand"), _("dealer"), _("trump"), _("trick points"), _("kitty points"), _("multiplier"),
            _("penalties"), _("follow errors"), match.game === "SJ2" ? _("kitty error") : null,
            _("points"), _("outcome"), _("levels after"), _("next dealer"), ""].filter(h => h !== null);
  }

  function stored(data, row) {
    const {match} = data;
    const cell = (col, ...content) => el("td", {dataset: {col}}, content);
    return el("tr", {class: "stored", dataset: {hand: row.hand}},
      cell("hand", String(row.hand)), cell("dealer", D.seatText(match, row.dealer)), cell("trump", D.trumpText(row.trump)),
      cell("trick_points", String(row.trick_points ?? "—")), cell("kitty_points", String(row.kitty_points ?? "—")),
      cell("multiplier", String(row.multiplier ?? "—")), cell("penalties", row.penalty_points ? String(row.penalty_points) : "—"),
      cell("follow_errors", errorsText(row)), match.game === "SJ2" ? cell("kitty_error", kittyError(row) ? _("yes") : "—") : null,
      cell("points", String(row.final_points ?? row.points ?? "—")), cell("outcome", D.outcome(row)),
      cell("levels", D.levelsCell(row.levels)), cell("next_dealer", D.seatText(match, row.next_dealer)), cell("act", ""));
  }

  const kittyError = row => (row.adjustments || []).some(a => a.kind === "kitty_error");  // SJ2-12.3

  /* The sides whose follow errors changed the row's result: SJ3's floors (SJ3-11.2), SJ2's
     adjustments (SJ2-12.4), each named by its role in the hand. */
  const ERROR_ROLES = {dealer_follow_error: "dealer", defenders_follow_error: "defenders"};
  function errorsText(row) {
    const sideOf = role => role === "dealer" ? row.dealer_side : row.dealer_side === "A" ? "B" : "A";
    const roles = (row.outcome_floors || []).map(f => f.side_role)
      .concat((row.adjustments || []).map(a => ERROR_ROLES[a.kind]).filter(Boolean));
    return roles.length ? roles.map(role => term("side", sideOf(role))).join(_(", ")) : "—";
  }

  function numberBox(pointer, label, value) {
    return el("input", {type: "text", inputmode: "numeric", size: 4, "aria-label": label,
                        value: value === undefined ? null : value, dataset: {pointer}});
  }

  function seatSelect(match, chosen) {
    return el("select", {"aria-label": _("dealer"), dataset: {pointer: "/data/dealer", field: "dealer"}},
      el("option", {value: ""}, "—"),
      [0, 1, 2, 3].map(seat => el("option", {value: seat, selected: seat === chosen}, D.seatText(match, seat))));
  }

  function trumpSelect(match) {
    const codes = ["S", "H", "D", "C"].concat(match.game === "SJ2" ? ["NT"] : []);
    return el("select", {"aria-label": _("trump"), dataset: {pointer: "/data/trump", field: "trump"}},
      el("option", {value: ""}, "—"), codes.map(code => el("option", {value: code}, D.trumpText(code))));
  }

  /* Per side: SJ3 a box (the side counts once, SJ3-11.2), SJ2 the number of errors (SJ2-12.4). */
  function sidesBoxes(match) {
    return ["A", "B"].map(side => el("label", {class: "side-box"}, term("side", side), " ",
      match.game === "SJ3"
        ? el("input", {type: "checkbox", dataset: {pointer: "/data/follow_errors", field: "error-" + side}})
        : el("input", {type: "text", inputmode: "numeric", size: 2, dataset: {pointer: "/data/follow_errors", field: "error-" + side}})));
  }

  function entry(data, hand) {
    const {match} = data;
    const field = (col, ...content) => el("td", {dataset: {col}}, content, el("span", {class: "field-error"}));
    return el("tr", {class: "entry", dataset: {hand}},
      el("td", {dataset: {col: "hand"}}, String(hand)),
      field("dealer", seatSelect(match, match.next_dealer)), field("trump", trumpSelect(match)),
      field("trick_points", numberBox("/data/trick_points", _("trick points"))),
      field("kitty_points", numberBox("/data/kitty_points", _("kitty points"), "0")),
      field("multiplier", numberBox("/data/multiplier", _("multiplier"), "0")),
      field("penalties", ["A", "B"].map(side => el("label", {class: "side-box"}, term("side", side), " ",
        el("input", {type: "text", inputmode: "numeric", size: 3, dataset: {pointer: "/data/penalties", field: "penalty-" + side}})))),
      field("follow_errors", sidesBoxes(match)),
      match.game === "SJ2" ? field("kitty_error", el("input", {type: "checkbox", "aria-label": _("kitty error"),
                                                                dataset: {pointer: "/data/kitty_error", field: "kitty_error"}})) : null,
      el("td", {colspan: 4, dataset: {col: "result"}}, el("span", {class: "quiet"}, _("(the server scores the row)"))),
      el("td", {dataset: {col: "act"}}, D.recordButton(btn => D.record(btn, "HandResultRecorded", rowData(match, hand)))));
  }

  /* The event's data from the entry row. */
  function rowData(match, hand) {
    const row = document.querySelector("#entry tr.entry");
    const get = name => row.querySelector("[data-field='" + name + "']");
    const box = pointer => row.querySelector("input[data-pointer='" + pointer + "']");
    const data = {hand, trick_points: D.number(box("/data/trick_points"), true),
                  kitty_points: D.number(box("/data/kitty_points"), true),
                  multiplier: D.number(box("/data/multiplier"), true), penalties: [], follow_errors: []};
    if (get("dealer").value !== "") data.dealer = Number(get("dealer").value);
    if (get("trump").value) data.trump = get("trump").value;
    for (const side of ["A", "B"]) {
      const points = D.number(get("penalty-" + side), false);
      if (points !== undefined) data.penalties.push({side, points});
      const error = get("error-" + side);
      const count = error.type === "checkbox" ? (error.checked ? 1 : 0) : D.number(error, false) || 0;
      for (let k = 0; k < count; k++) data.follow_errors.push(side);
    }
    if (match.game === "SJ2") data.kitty_error = get("kitty_error").checked;
    return data;
  }

  return {heads, stored, entry};
})();

/* The rows of a Guandan sheet (GD-14): the going-out order, first out to last (GD-5.4), and the
   anti-tribute (GD-7.5); then the level the hand was played at, its tribute, who won it, the
   upgrade and the levels after it (GD-6). */
const GDRows = (() => {
  const {_, term, el} = Paiju;
  const D = DeskSheet;
  const PLACES = () => [_("1st out"), _("2nd out"), _("3rd out"), _("4th out")];
  const TRIBUTE = () => ({none: _("no tribute"), double: _("double tribute"), single: _("single tribute"),
                          partnerLast: _("partner last")});

  function heads() {
    return [_("hand"), ...PLACES(), _("anti-tribute"), _("level played"), _("tribute"), _("winner"), _("upgrade"),
            _("levels after"), ""];
  }

  function stored(data, row) {
    const {match} = data;
    const order = row.places.concat([0, 1, 2, 3].filter(s => !row.places.includes(s)));
    const cell = (col, ...content) => el("td", {dataset: {col}}, content);
    return el("tr", {class: "stored", dataset: {hand: row.hand}},
      cell("hand", String(row.hand)), order.map((seat, k) => cell("place-" + (k + 1), D.seatText(match, seat))),
      cell("anti_tribute", row.anti_tribute ? _("yes") : "—"),
      cell("level", row.level_team ? _("{level} (side {side})", {level: row.level, side: row.level_team}) : String(row.level)),
      cell("tribute", TRIBUTE()[row.tribute] || row.tribute), cell("winner", row.winning_team ? term("side", row.winning_team) : "—"),
      cell("upgrade", row.upgrade ? "+" + row.upgrade : "—"), cell("levels", D.levelsCell(row.levels)), cell("act", ""));
  }

  function entry(data, hand) {
    const {match} = data;
    const place = k => el("td", {dataset: {col: "place-" + (k + 1)}},
      el("select", {"aria-label": PLACES()[k], dataset: {pointer: k ? "/data/order/" + k : "/data/order", field: "place-" + (k + 1)}},
         el("option", {value: ""}, "—"), [0, 1, 2, 3].map(seat => el("option", {value: seat}, D.seatText(match, seat)))),
      el("span", {class: "field-error"}));
    return el("tr", {class: "entry", dataset: {hand}},
      el("td", {dataset: {col: "hand"}}, String(hand)), [0, 1, 2, 3].map(place),
      el("td", {dataset: {col: "anti_tribute"}}, el("input", {type: "checkbox", "aria-label": _("anti-tribute"),
                                                          dataset: {pointer: "/data/antiTribute", field: "anti"}}),
         el("span", {class: "field-error"})),
      el("td", {colspan: 5, dataset: {col: "result"}}, el("span", {class: "quiet"}, _("(the server scores the row)"))),
      el("td", {dataset: {col: "act"}}, D.recordButton(btn => D.record(btn, "GDHandResultRecorded", rowData(hand)))));
  }

  function rowData(hand) {
    const row = document.querySelector("#entry tr.entry");
    const order = [1, 2, 3, 4].map(k => row.querySelector("[data-field='place-" + k + "']").value)
      .map(v => v === "" ? null : Number(v));
    const data = {hand, order};
    if (row.querySelector("[data-field='anti']").checked) data.antiTribute = true;
    return data;
  }

  return {heads, stored, entry};
})();

/* The time limit and the chief referee's alert, as the match's game has them: SJ3-12.1 (the
   alert at minute alertAtMinute, for every table of a team event's round at once), SJ2-14.4
   (timeLimitMinutes), GD-11.2 / T-5.4 (60 minutes, then 30 more on equal levels) — each a
   TimeLimitReached, refused by the server before its minute has passed; and T-6.6 lateness. */
const TimePanel = (() => {
  const {_, term, el, when, teamName} = Paiju;
  const D = DeskSheet;

  function render(data) {
    const {match} = data;
    const reached = match.time_limit_reached;
    const said = reached ? el("p", {class: "time-called", dataset: {minute: reached}}, match.game === "GD"
      ? gdCalled(match, reached)
      : _("Time called at minute {minute}: the hand in play is finished, then the levels decide.", {minute: reached})) : null;
    const parts = match.game === "GD" ? gd(match) : match.game === "SJ3" ? sj3(data) : sj2(match);
    return [el("h2", {}, _("Time limit and alert")), said, parts, data.table && match.game === "SJ3" ? lateness(data) : null];
  }

  function form(kind, parts) {
    const f = el("form", {class: "desk-action", dataset: {action: kind}}, parts, el("p", {class: "form-error", role: "alert"}));
    f.addEventListener("submit", event => event.preventDefault());
    return f;
  }

  /* A button that posts, its refusal shown in its form, else the page read again. */
  function button(label, kind, request) {
    return el("button", {type: "button", dataset: {act: kind}, onclick: async event => {
      const btn = event.currentTarget, f = btn.form;
      PaijuDesk.clearProblem(f);
      const [path, body] = request(f);
      const answer = await PaijuDesk.busy(btn, PaijuDesk.send("POST", path, body));
      if (answer.status >= 400) PaijuDesk.showProblem(f, answer.body || {detail: "HTTP " + answer.status});
      else await D.refresh();
    }}, label);
  }

  const limitEvent = minutes => [D.api + "/events", {id: PaijuDesk.newId(), type: "TimeLimitReached",
                                                     stream: "match-" + Paiju.tid + ":" + D.mid, data: {limit_minutes: minutes}}];

  /* GD-11.2 (seed): the levels reached within the limit decide, a hand in play not counting;
     equal levels play overtime, then one more hand. */
  function gdCalled(match, minute) {
    const stage = (match.clock || {}).stage;
    const then = stage === "overtime" ? " " + _("Equal levels: overtime is played.")
      : stage === "extraHand" ? " " + _("Still equal: one more hand decides.") : "";
    return _("Time called at minute {minute} (GD-11.2): the levels reached within it decide; a hand in play does not count.", {minute}) + then;
  }

  function gd(match) {
    const c = match.clock || {};
    const about = el("p", {class: "quiet"}, _("GD-11.2 (T-5.4): after {minutes} minutes the higher level wins; equal levels play {more} minutes more, then one more hand.",
                                             {minutes: c.matchMinutes, more: c.overtimeMinutes}));
    if (match.status !== "playing" || !c.next_limit) return about;
    return [about, form("time", [el("span", {}, _("Next limit: minute {minute}, at {time}.", {minute: c.next_limit, time: when(c.next_limit_at)})), " ",
      button(_("Record the {minute}-minute limit", {minute: c.next_limit}), "time", () => limitEvent(c.next_limit))])];
  }

  function sj3(data) {
    const {match, table} = data;
    const minute = match.settings.alertAtMinute;
    const about = el("p", {class: "quiet"}, _("SJ3-12.1: at minute {minute} the chief referee alerts every table; the hand being played is finished and the match ends.", {minute}));
    if (match.status !== "playing" || match.time_limit_reached) return about;
    const call = table ? button(_("Chief referee's alert for round {n} (every table)", {n: table.round}), "alert",
                                () => [D.api + "/rounds/" + table.round + "/time", {}])
      : button(_("Chief referee's alert (minute {minute})", {minute}), "alert", () => limitEvent(minute));
    return [about, form("alert", call)];
  }

  function sj2(match) {
    const minutes = match.settings.timeLimitMinutes;
    if (!minutes) return el("p", {class: "quiet"}, _("This match has no time limit (timeLimitMinutes, SJ2-14.4)."));
    const about = el("p", {class: "quiet"}, _("SJ2-14.4: when the {minutes} minutes pass, the hand in play is finished and the levels decide.", {minutes}));
    if (match.status !== "playing" || match.time_limit_reached) return about;
    return [about, form("time", button(_("Record the time limit ({minutes} minutes)", {minutes}), "time", () => limitEvent(minutes)))];
  }

  /* T-6.6 / SJ3-11.10: the started minutes a pair was late at the round's start, counted by the
     referee; the match derives the consequence (a warning, −20 or −30 in hand 1, hand 1 or the
     round forfeited). */
  function consequence(x) {
    const said = {onTime: _("on time"), warning: _("a warning"), firstHandForfeited: _("the first hand forfeited"),
                  roundForfeited: _("the round forfeited"),
                  firstHandPoints: _("{points} points off in the first hand", {points: x.points})};
    return said[x.consequence] || x.consequence;
  }

  function lateness(data) {
    const {match, table, t} = data;
    const seen = (match.lateness || []).map(x => el("li", {}, _("side {side}: {minutes} minutes late ({rule}: {consequence})", {
      side: x.side, minutes: x.minutes, rule: x.rule, consequence: consequence(x)})));
    const teamSelect = el("select", {dataset: {pointer: "/team"}, "aria-label": _("team")},
      ["A", "B"].map(side => el("option", {value: match.teams[side]}, term("side", side) + " · " + teamName(t, match.teams[side]))));
    const minutes = el("input", {type: "text", inputmode: "numeric", size: 3, dataset: {pointer: "/minutes"}, "aria-label": _("minutes late")});
    return [el("h2", {}, _("Lateness (T-6.6)")), seen.length ? el("ul", {class: "notes"}, seen) : null,
      match.hands_played || match.status !== "playing" ? null : form("lateness", [
        el("label", {}, _("Pair of"), " ", teamSelect), " ",
        el("label", {}, _("minutes late"), " ", minutes, el("span", {class: "field-error"})), " ",
        button(_("Record lateness"), "lateness", () => [D.api + "/rounds/" + table.round + "/lateness",
          {team: teamSelect.value, pair: table.pair, minutes: D.number(minutes, true)}])])];
  }

  return {render};
})();
