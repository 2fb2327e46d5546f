/* The desk's rounds: the next draw or pairing of the tournament, made by the server (POST
   …/draws: lots or playing cards, T-2.1, T-5.5, T-8.1; POST …/pairings: round 1 by lots, later
   rounds by scores, the proposed pairing confirmed or a pairing by hand, T-6.4), then each
   round's matches started (POST …/matches) and the chief referee's alert for a whole round
   (POST …/rounds/<n>/time, SJ3-12.1). Each match links to its score sheet (recording "sheet")
   or to its live page. Every refusal is the server's, shown beside what it names. */
"use strict";

const DeskRounds = (() => {
  const {_, term, el, fill, byId, need, tournament, teamName, replayUrl, status} = Paiju;
  const Desk = PaijuDesk;
  const tid = Paiju.tid;
  const api = "/v1/tournaments/" + encodeURIComponent(tid);
  const READS = {knockout: "bracket", "swiss-teams": "rounds", groups: "groups"};
  const SHEET_GAMES = ["SJ2", "SJ3", "GD"];
  const name = text => el("bdi", {class: "name", dir: "auto"}, text);
  /* A translated sentence with nodes in its blanks: put(_("{a} v {b}"), {a: node, b: node}). */
  const put = (text, parts) => text.split(/(\{\w+\})/).filter(Boolean).map(piece => {
    const blank = /^\{(\w+)\}$/.exec(piece);
    return blank && blank[1] in parts ? parts[blank[1]] : piece;
  });
  const joined = items => items.flatMap((item, i) => i ? [_(", "), item] : [item]);
  const versus = (t, teams) => put(_("{a} v {b}"), {a: name(teamName(t, teams[0])),
                                                    b: name(teamName(t, teams[1]))});
  let shown = null;  // what the page drew last: {t, view, matches}

  async function load() {
    const t = await tournament();
    const read = READS[t.format];
    const [view, list] = await Promise.all([read ? need(read) : null, need("matches")]);
    // an ended team event's places still shared wait for lots (T-6.8): the standings say
    const standings = t.format === "swiss-teams" && view.ended ? await need("standings") : null;
    return {t, view, standings, matches: Object.fromEntries(list.matches.map(m => [m.match_id, m]))};
  }

  async function refresh() {
    shown = await load();
    render(shown);
  }

  // --- acting through the API -----------------------------------------------------------------
  /* Each form's last refusal, shown again when the page is redrawn (another desk's event
     redraws it while the refusal still stands): where the form is → the problem. */
  const problems = new Map();

  function formKey(form) {
    const round = form.closest("[data-round]"), match = form.closest("[data-match]");
    return [round ? round.dataset.round : "", match ? match.dataset.match : "", form.dataset.action].join("|");
  }

  function refused(form, answer) {
    const problem = answer.body || {detail: "HTTP " + answer.status};
    problems.set(formKey(form), problem);
    Desk.showProblem(form, problem);
  }

  function showRefusals() {
    const drawn = new Set();
    for (const form of document.querySelectorAll("form.desk-action")) {
      const key = formKey(form);
      drawn.add(key);
      if (problems.has(key)) Desk.showProblem(form, problems.get(key));
    }
    for (const key of [...problems.keys()]) if (!drawn.has(key)) problems.delete(key);  // gone
  }

  /* An action of a form: its button busy while the request runs; a refusal shown beside the
     field it names (or in the form's box), else the page read again. The answer's body, or
     null when refused. */
  async function act(form, button, method, path, body) {
    Desk.clearProblem(form);
    const answer = await Desk.busy(button, Desk.send(method, path, body));
    if (answer.status >= 400) {
      refused(form, answer);
      return null;
    }
    problems.delete(formKey(form));
    await refresh();
    return answer.body;
  }

  /* A form of one or more buttons, each doing its own request; its problems in .form-error. */
  function actionForm(kind, parts) {
    const form = el("form", {class: "desk-action", dataset: {action: kind}}, parts,
                    el("p", {class: "form-error", role: "alert"}));
    form.addEventListener("submit", event => event.preventDefault());
    return form;
  }

  function button(label, kind, onclick) {
    return el("button", {type: "button", dataset: {act: kind}, onclick: event =>
      onclick(event.currentTarget.form, event.currentTarget)}, label);
  }

  /* Starts every match of `ids` not started yet, one POST …/matches each (teams, players and
     seats come from the draw); a match another desk started meanwhile (409) is left as it is. */
  async function startAll(form, btn, ids) {
    Desk.clearProblem(form);
    const key = formKey(form);
    problems.delete(key);
    await Desk.busy(btn, async () => {
      for (const mid of ids) {
        const answer = await Desk.send("POST", api + "/matches", {match_id: mid});
        if (answer.status >= 400 && answer.status !== 409) {
          refused(form, answer);
          break;
        }
      }
    });
    await refresh();
  }

  // --- a match, wherever it is drawn ---------------------------------------------------------
  function bySheet(t) {
    const match = (t.settings || {}).match || {};
    return SHEET_GAMES.includes(t.game) && match.recording === "sheet";
  }

  function sheetUrl(mid) {
    return "/desk/t/" + encodeURIComponent(tid) + "/matches/" + encodeURIComponent(mid) + "/sheet";
  }

  /* Where a started match is entered or followed: its score sheet, or its live page (the
     replay of its hand in play, which follows it live). */
  function matchLinks(t, mid, started, summary) {
    if (!started) return "";
    if (bySheet(t)) return el("a", {href: sheetUrl(mid), dataset: {link: "sheet"}}, _("score sheet"));
    const played = summary ? summary.hands_played || 0 : 0;
    const hand = summary && summary.status === "completed" ? Math.max(played, 1) : played + 1;
    return el("a", {href: replayUrl(mid, hand), dataset: {link: "live"}}, _("live page"));
  }

  function matchState(summary, started) {
    if (!started) return _("not started");
    if (!summary) return _("playing");
    const levels = summary.levels ? " · " + _("levels {a} : {b}", {a: summary.levels.A, b: summary.levels.B}) : "";
    return (summary.status === "completed" ? _("completed") : "● " + _("playing")) +
      (summary.levels && summary.levels.A !== undefined ? levels : "");
  }

  /* A round's matches as rows: id, teams, state, links; and the button that starts those not
     started. `items`: [{match_id, teams (ids, A first), started, extra}] */
  function matchesTable(t, items) {
    const rows = items.map(m => el("tr", {dataset: {match: m.match_id}},
      el("td", {dataset: {col: "match"}}, m.match_id),
      el("td", {dataset: {col: "teams"}}, m.teams.length === 2 ? versus(t, m.teams) : joined(m.teams.map(x => name(teamName(t, x))))),
      el("td", {dataset: {col: "extra"}}, m.extra || ""),
      el("td", {dataset: {col: "state"}}, m.result ? m.result.state : matchState(shown.matches[m.match_id], m.started)),
      el("td", {dataset: {col: "links"}}, m.result ? m.result.form
        : matchLinks(t, m.match_id, m.started, shown.matches[m.match_id]))));
    const head = [_("match"), _("teams"), "", _("status"), ""].map(h => el("th", {scope: "col"}, h));
    return el("table", {class: "grid"}, el("thead", {}, el("tr", {}, head)), el("tbody", {}, rows));
  }

  function startForm(round, items, label) {
    const waiting = items.filter(m => !m.started && !m.result).map(m => m.match_id);
    if (!waiting.length) return null;
    const said = waiting.length === 1 ? _("Start the match not started") : _("Start the {n} matches not started", {n: waiting.length});
    return actionForm("start", button(label || said, "start",
                                      (form, btn) => startAll(form, btn, waiting)));
  }

  function roundBlock(t, title, round, items, extra) {
    return el("section", {class: "panel round-block", dataset: {round}},
      el("h2", {}, title), extra || null, matchesTable(t, items), startForm(round, items));
  }

  // --- the knockout ---------------------------------------------------------------------------
  /* T-9: a discipline whose play is not modelled (bridge, xiangqi, go) has no match to start:
     the referee records each match's result (ResultRecorded, T-9.3). */
  const RESULT_ONLY = ["bridge", "xiangqi", "go"];

  function resultOf(t, m) {
    if (m.status === "decided" || m.winner) {
      const won = m.winner === "draw" ? _("draw") : put(_("won by {team}"), {team: name(teamName(t, m.winner))});
      return {state: [won, m.score ? " · " + m.score : ""], form: ""};
    }
    const id = Desk.newId();  // one result, however often its button is clicked
    const winner = el("select", {dataset: {pointer: "/data/winner"}, "aria-label": _("winner")},
      m.teams.map(x => el("option", {value: x}, teamName(t, x))), el("option", {value: "draw"}, _("draw (a tie-break follows)")));
    const score = el("input", {type: "text", size: 10, dataset: {pointer: "/data/score"}, "aria-label": _("result score")});
    const post = (form, btn) => act(form, btn, "POST", api + "/events", {id, type: "ResultRecorded", stream: "tournament-" + tid,
      data: {match_id: m.match_id, winner: winner.value, ...(score.value.trim() ? {score: score.value.trim()} : {})}});
    return {state: _("not decided"), form: actionForm("result", [winner, " ", score, el("span", {class: "field-error"}), " ",
                                                              button(_("Record the result (T-9.3)"), "result", post)])};
  }

  function knockout(t, bracket) {
    const resultOnly = RESULT_ONLY.includes(t.game);
    const rounds = (bracket.rounds || []).map(r => roundBlock(t, _("Round {n}", {n: r.round}), r.round,
      r.matches.map(m => ({match_id: m.match_id, teams: m.teams, started: m.started,
                           result: resultOnly ? resultOf(t, m) : null,
                           extra: m.kind === "third_place" ? _("third place") : ""})),
      (r.byes || []).length ? el("p", {class: "quiet"}, put(_("bye: {team}"), {team: joined(r.byes.map(x => name(teamName(t, x))))})) : null));
    return {next: knockoutNext(t, bracket), nextRound: bracket.next_round, rounds: rounds.reverse()};
  }

  function knockoutNext(t, bracket) {
    if (bracket.champion) return el("p", {class: "champion"}, put(_("Champion: {team}"), {team: name(teamName(t, bracket.champion))}));
    const round = bracket.next_round;
    const last = (bracket.rounds || []).slice(-1)[0];
    const undecided = last ? last.matches.filter(m => m.status !== "decided") : [];
    if (!round || undecided.length || !(bracket.to_draw || []).length) {
      return el("p", {class: "quiet"}, _("The next round is drawn when the matches of this one are decided."));
    }
    const draw = method => (form, btn) => act(form, btn, "POST", api + "/draws", {round, method});
    return [el("h2", {}, _("Draw round {n}", {n: round})),
            el("p", {}, put(_("To draw: {teams}"), {teams: joined(bracket.to_draw.map(x => name(teamName(t, x))))})),
            actionForm("draw", [button(_("Draw by lots (T-2.1)"), "draw-lots", draw("lots")), " ",
                                button(_("Draw by playing cards (T-5.5)"), "draw-cards", draw("cards"))])];
  }

  // --- groups of four -------------------------------------------------------------------------
  function groups(t, view) {
    const stages = (view.stages || []).map(stage => roundBlock(t,
      stage.final ? _("Stage {n} (final)", {n: stage.stage}) : _("Stage {n}", {n: stage.stage}), stage.stage,
      stage.tables.map(tb => ({match_id: tb.match_id, teams: tb.seats.map(s => s.team), started: tb.started}))));
    const last = (view.stages || []).slice(-1)[0];
    const stage = !last || last.complete ? view.next_stage : null;  // T-8.1: after the stage before
    const next = stage ? [el("h2", {}, _("Draw stage {n}", {n: stage})),
      actionForm("draw", button(_("Draw the tables by lots (T-8.1)"), "draw-lots",
                                (form, btn) => act(form, btn, "POST", api + "/draws", {round: stage})))]
      : el("p", {class: "quiet"}, _("No stage is waiting to be drawn."));
    return {next, nextRound: stage, rounds: stages.reverse()};
  }

  // --- the team event -------------------------------------------------------------------------
  function teamEvent(t, view) {
    const rounds = view.rounds.map(r => {
      const items = r.meetings.flatMap(m => m.tables.map(tb => ({
        match_id: tb.match_id, teams: m.teams, started: tb.started,
        extra: put(_("pair {pair}: {players}"), {pair: tb.pair, players: joined([...tb.players.A, ...tb.players.B].map(name))})})));
      const notes = [
        r.manual ? el("p", {}, el("span", {class: "badge"}, _("paired by the referee")),
                      r.reason ? " " + _("Reason: {reason}", {reason: r.reason}) : "") : null,
        warnings(r.warnings),
        r.bye ? el("p", {class: "bye"}, put(_("Bye: {team}"), {team: name(teamName(t, r.bye))})) : null,
        r.complete ? null : alertForm(r.round, items)];
      return roundBlock(t, _("Round {n}", {n: r.round}), r.round, items, notes);
    });
    return {next: PairingPanel.next(t, view, shown.standings), nextRound: view.next ? view.next.round : null,
            rounds: rounds.reverse()};
  }

  /* The warnings the server stored with a pairing made by hand (T-6.4): rematches, a second
     bye, scores further apart than the method allows. */
  function warnings(list) {
    if (!list || !list.length) return null;
    return el("ul", {class: "notes warnings"}, list.map(w => el("li", {class: "issue"}, "⚠ " + w)));
  }

  /* SJ3-12.1 (T-6.3): the chief referee's one alert for every table of the round still played
     (「终场前10分钟裁判长统一提醒」), once its minute has passed on the server's clock. */
  function alertForm(round, items) {
    if (!items.some(m => m.started)) return null;
    return actionForm("alert", [button(_("Chief referee's alert for round {n}", {n: round}), "alert",
      (form, btn) => act(form, btn, "POST", api + "/rounds/" + round + "/time", {})),
      " ", el("span", {class: "quiet"}, _("SJ3-12.1: each table finishes the hand in play, then its levels decide."))]);
  }

  // --- the page ---------------------------------------------------------------------------------
  function render(data) {
    const {t, view} = data;
    fill(byId("title"), put(_("Rounds at the desk · {name}"), {name: name(t.name)}), " ",
         el("span", {class: "badge"}, term("game", t.game)), " ", el("span", {class: "badge"}, term("format", t.format)));
    const drawn = t.format === "knockout" ? knockout(t, view) : t.format === "groups" ? groups(t, view)
      : t.format === "swiss-teams" ? teamEvent(t, view) : null;
    if (drawn === null) {
      fill(byId("next"), el("p", {}, _("This format ({format}) has no rounds drawn by the server: its matches are started with their teams.",
                                        {format: term("format", t.format)})));
      fill(byId("rounds"));
      return;
    }
    byId("next").dataset.round = "next " + (drawn.nextRound || "");  // its forms' refusals are this round's
    fill(byId("next"), drawn.next);
    fill(byId("rounds"), drawn.rounds);
    byId("by-hand").hidden = t.format !== "swiss-teams" || !PairingPanel.open;
    showRefusals();
  }

  Paiju.run(async () => {
    await refresh();
    status("");
    Paiju.redrawLive(null, async () => { await refresh(); });  // another desk's draw, a table's result
  });

  return {refresh, act, actionForm, button, put, name, joined, versus, warnings, api};
})();

/* The team event's next round (T-6.4): drawn by lots (round 1), paired by scores by the server,
   the proposal with the fewest rematches confirmed by the chief referee when no pairing avoids
   one, or a pairing by hand — stored by the server with its warnings. */
const PairingPanel = (() => {
  const {_, el, fill, byId, teamName} = Paiju;
  const {act, actionForm, button, put, name, joined, versus, warnings, api} = DeskRounds;
  const panel = {open: false};

  function pairingList(t, pairing) {
    const lines = pairing.matches.map(m => el("li", {dataset: {match: m.match_id}}, m.match_id, " · ", versus(t, m.teams)));
    const byes = (pairing.byes || []).map(x => el("li", {class: "bye"}, put(_("bye {teams}"), {teams: name(teamName(t, x))})));
    return el("ul", {class: "pairing"}, lines, byes);
  }

  function pair(body) {
    return (form, btn) => act(form, btn, "POST", api + "/pairings", body(form));
  }

  function reasonBox(pointer) {
    return el("label", {}, _("Reason"), " ",
      el("input", {type: "text", name: "reason", maxlength: 2000, dataset: {pointer}, size: 50}),
      el("span", {class: "field-error"}));
  }

  const reasonOf = form => {
    const text = form.elements.reason ? form.elements.reason.value.trim() : "";
    return text ? {reason: text} : {};
  };

  function next(t, view, standings) {
    if (view.ended) {
      const ended = el("p", {class: "ended"}, _("Ended after round {round} ({rule}): {reason}", {
        round: view.ended.after_round, rule: view.ended.rule, reason: view.ended.reason}));
      if (!standings || standings.final) return ended;
      return [ended, actionForm("standings-lots", button(_("Draw lots between the equal teams (T-6.8)"), "standings-lots",
        (form, btn) => act(form, btn, "POST", api + "/standings/lots", {})))];
    }
    const n = view.next;
    if (!n) return el("p", {class: "quiet"}, _("No round is waiting to be paired."));
    const head = el("h2", {}, n.method === "lots" ? _("Round {n}: drawn by lots (T-6.4)", {n: n.round})
      : _("Round {n}: paired by scores (T-6.4)", {n: n.round}));
    const round = n.round;
    if (n.method === "lots") {
      return [head, el("p", {}, put(_("In play: {teams}"), {teams: joined(n.in_play.map(x => name(teamName(t, x))))})),
              actionForm("draw", button(_("Draw round {n} by lots", {n: round}), "draw-lots", pair(() => ({round}))))];
    }
    const byHand = button(_("Pair by hand…"), "open-by-hand", () => openByHand(t, n));
    if (n.pairable) {
      return [head, el("p", {}, _("The server's pairing by scores:")), pairingList(t, n.pairing),
              actionForm("pair", [button(_("Pair round {n} by the rules", {n: round}), "pair", pair(() => ({round}))), " ", byHand])];
    }
    const why = el("p", {class: "issue"}, _("{rule}: {problem}", {rule: n.rule || "", problem: n.problem || ""}));
    if (!n.proposal) return [head, why, actionForm("pair", byHand)];
    return [head, why, el("p", {}, _("The proposed pairing (as few rematches as possible):")),
            pairingList(t, n.proposal), warnings(n.proposal.warnings),
            actionForm("confirm", [reasonBox("/reason"), " ",
              button(_("Confirm the proposed pairing"), "confirm", pair(form => ({round, confirm: true, ...reasonOf(form)}))),
              " ", byHand])];
  }

  // --- by hand ----------------------------------------------------------------------------------
  function teamSelect(t, teams, chosen, pointer) {
    return el("select", {dataset: {pointer}},
      el("option", {value: ""}, "—"),
      teams.map(x => el("option", {value: x, selected: x === chosen}, teamName(t, x))));
  }

  /* The meetings to start from: the server's pairing or proposal, else the teams in order. */
  function startingPoint(n) {
    const given = n.pairing || n.proposal;
    if (given) return {pairs: given.matches.map(m => m.teams), bye: (given.byes || [])[0] || ""};
    const teams = [...n.in_play];
    const pairs = [];
    while (teams.length > 1) pairs.push(teams.splice(0, 2));
    return {pairs, bye: teams[0] || ""};
  }

  function openByHand(t, n) {
    panel.open = true;
    const box = byId("by-hand");
    const start = startingPoint(n);
    const rows = start.pairs.map((teams, k) => el("p", {class: "meeting", dataset: {meeting: k}},
      el("strong", {}, "R" + n.round + "-" + (k + 1)), " ",
      teamSelect(t, n.in_play, teams[0], "/matches/" + k + "/teams"), " ", _("v"), " ",
      teamSelect(t, n.in_play, teams[1], "/matches/" + k + "/teams/1"), el("span", {class: "field-error"})));
    const bye = n.in_play.length % 2 ? el("p", {}, el("label", {}, _("Bye"), " ",
      teamSelect(t, n.in_play, start.bye, "/byes")), el("span", {class: "field-error"})) : null;
    const form = actionForm("by-hand", [
      el("h2", {}, _("Pair round {n} by hand (T-6.4)", {n: n.round})),
      el("p", {class: "quiet"}, _("The server stores a pairing by hand with a warning for each rematch, second bye or scores further apart than the pairing method allows.")),
      rows, bye, el("p", {}, reasonBox("/reason")),
      button(_("Pair by hand"), "pair-by-hand", (f, btn) => postByHand(f, btn, n)), " ",
      button(_("Cancel"), "cancel", () => closeByHand())]);
    fill(box, form);
    box.hidden = false;
    form.querySelector("select").focus();
  }

  function closeByHand() {
    panel.open = false;
    fill(byId("by-hand"));
    byId("by-hand").hidden = true;
  }

  async function postByHand(form, btn, n) {
    const matches = [...form.querySelectorAll("p.meeting")].map((row, k) => ({
      match_id: "R" + n.round + "-" + (k + 1), teams: [...row.querySelectorAll("select")].map(s => s.value)}));
    const byeSelect = form.querySelector("select[data-pointer='/byes']");
    const body = {round: n.round, matches, byes: byeSelect && byeSelect.value ? [byeSelect.value] : [], ...reasonOf(form)};
    const answer = await act(form, btn, "POST", api + "/pairings", body);
    if (answer === null) return;
    closeByHand();
    const said = answer.round.warnings.length
      ? _("Round {n} paired by hand, stored with {count} warnings (shown on the round).", {n: n.round, count: answer.round.warnings.length})
      : _("Round {n} paired by hand, with no warning.", {n: n.round});
    Paiju.status(said, answer.round.warnings.length ? "warn" : "");
  }

  return Object.assign(panel, {next});
})();
