/* The tournament's disputes (GET …/disputes): open and resolved, each linking to the replay of
   its hand at the disputed position. Whoever may raise a dispute (a referee, the committee, a
   table or a captain) finds the form to raise one; the committee, beside each open dispute,
   the forms to rule on it (with its preview) and to resolve it (committee.js, ruling.js). */
"use strict";

Paiju.run(async () => {
  const w = await PaijuCommittee.who();
  await showDisputes(w);
  if (PaijuCommittee.mayRaise(w)) {
    Paiju.fill(Paiju.byId("raise"), PaijuCommittee.raiseForm({}, () => showDisputes(w)));
  }
  // a dispute raised or resolved, or a ruling, anywhere in the tournament: drawn again
  Paiju.redrawLive({type: "DisputeRaised,DisputeResolved,RulingRecorded"}, () => showDisputes(w));
});

/* The committee's forms for dispute `d`, below the list: rule on it, or resolve it. */
async function act(w, d, what) {
  const {el, fill, byId, get, _} = Paiju;
  const C = PaijuCommittee;
  const redraw = () => showDisputes(w);
  const [rulings, matches] = await Promise.all([get("rulings"), get("matches")]);
  const recorded = rulings.status === 200 ? rulings.body.rulings : [];
  const panel = byId("dispute-action");
  if (what === "resolve") {
    const answering = recorded.filter(r => (r.disputes || []).includes(d.dispute_id));
    fill(panel, C.resolveForm(d, recorded, redraw, (answering[answering.length - 1] || {}).event_id));
  } else {
    const streams = [[C.TOURNAMENT_STREAM, _("the tournament")],
      ...(matches.status === 200 ? matches.body.matches : []).map(m => [m.stream, _("match {mid}", {mid: m.match_id})])];
    // once recorded, the ruling is offered as the answer to the dispute
    const resolveWith = made => fill(panel, C.resolveForm(d, [
      {event_id: made.id, position: made.position, text: made.data.text}, ...recorded], redraw, made.id));
    fill(panel, PaijuRuling.form({
      dispute_id: d.dispute_id, streams, stream: d.match_id ? C.matchStream(d.match_id) : C.TOURNAMENT_STREAM,
      member: w.actor, kind: "void", effect: {positions: d.positions || []}},
      made => { redraw(); resolveWith(made); }));
  }
  panel.scrollIntoView({block: "nearest"});
  const first = panel.querySelector("textarea, input, select");
  if (first) first.focus();
}

async function showDisputes(w) {
  const {_, when, el, fill, byId, get, tournament, replayUrl, status, short} = Paiju;
  const name = text => el("bdi", {class: "name", dir: "auto"}, text);
  /* A translated sentence with nodes in its blanks: put(_("Disputes · {name}"), {name: node}). */
  const put = (text, parts) => text.split(/(\{\w+\})/).filter(Boolean).map(piece => {
    const blank = /^\{(\w+)\}$/.exec(piece);
    return blank && blank[1] in parts ? parts[blank[1]] : piece;
  });
  const STATUS = {open: _("open"), resolved: _("resolved")};
  const ROLES = {admin: _("admin"), organiser: _("organiser"), referee: _("referee"),
                 committee: _("committee"), auditor: _("auditor"), table: _("table"),
                 player: _("player"), system: _("system")};
  /* An actor of the log: a token ("token:<id>"), the command line ("cli:<user>") or a name. */
  const actor = text => {
    const made = /^(token|cli):(.*)$/.exec(text);
    if (!made) return name(text);
    return made[1] === "token" ? _("token {id}", {id: made[2]})
      : put(_("command line ({user})"), {user: name(made[2])});
  };
  /* Who raised or resolved a dispute (the token's actor, role and seat). */
  const who = w => {
    if (!w || typeof w !== "object") return short(w);
    const role = w.role ? ROLES[w.role] || w.role : null;
    const person = w.actor && role ? put(_("{actor} ({role})"), {actor: actor(w.actor), role})
      : w.actor ? actor(w.actor) : role;
    const seat = w.seat !== undefined && w.seat !== null ? _("seat {seat}", {seat: w.seat}) : null;
    return [person, person && seat ? " · " : "", seat];
  };
  const t = await tournament();
  fill(byId("title"), put(_("Disputes · {name}"), {name: name(t.name)}));
  const root = byId("disputes");
  const r = await get("disputes");
  if (r.status === 404 && !(r.body && /tournament/.test(r.body.detail || ""))) {
    fill(root, el("p", {class: "quiet"}, _("This server keeps no dispute list.")));
    status("");
    return;
  }
  if (r.status !== 200) throw new Paiju.ApiError("disputes", r);
  const disputes = r.body.disputes || [];
  let shown = "all";
  const draw = () => {
    const rows = disputes.filter(d => shown === "all" || d.status === shown);
    const none = shown === "all" ? _("No dispute has been raised.")
      : shown === "open" ? _("No open dispute.") : _("No resolved dispute.");
    fill(byId("dispute-list"), rows.length ? Paiju.table(rows,
      [["dispute_id", _("dispute id")], ["status", _("status")], ["match_id", _("match id")], ["hand", _("hand")],
       ["positions", _("positions")], ["claim", _("claim")], ["raised_by", _("raised by")],
       ["raised_at", _("raised at")], ["resolution", _("resolution")],
       ...(PaijuCommittee.mayRule(w) ? [["actions", _("committee")]] : [])],
      (key, value, d) => {
        if (key === "status") return el("span", {class: "badge " + value}, STATUS[value] || value);
        if (key === "positions") {
          return el("span", {}, (value || []).map(p => [el("a", {href: replayUrl(d.match_id, d.hand, p),
            title: _("the replay at position {position}", {position: p})}, "#" + p), " "]));
        }
        if (key === "match_id" || key === "hand") {
          return el("a", {href: replayUrl(d.match_id, d.hand, (d.positions || [])[0] || d.position)},
                    key === "hand" ? _("hand {n}", {n: value}) : String(value));
        }
        if (key === "raised_at") return value ? el("time", {datetime: value}, when(value)) : "—";
        if (key === "raised_by") return who(value);
        if (key === "actions") {
          return d.status !== "open" ? "" : [
            el("button", {type: "button", dataset: {act: "rule", dispute: d.dispute_id}, onclick: () => act(w, d, "rule")}, _("Rule on it")), " ",
            el("button", {type: "button", dataset: {act: "resolve", dispute: d.dispute_id}, onclick: () => act(w, d, "resolve")}, _("Resolve"))];
        }
        if (key === "resolution") {
          if (!value) return "—";
          return [value.text, value.at ? [" · ", el("time", {datetime: value.at}, when(value.at))] : null,
                  value.by ? [" · ", who(value.by)] : null, value.noChange ? [" · ", _("no change")] : null];
        }
        return undefined;
      }) : el("p", {class: "quiet"}, none));
  };
  const label = (which, count) => which === "all" ? _("all ({count})", {count})
    : which === "open" ? _("open ({count})", {count}) : _("resolved ({count})", {count});
  const filter = which => el("button", {type: "button", "aria-pressed": String(which === shown), dataset: {filter: which},
    onclick: event => {
      shown = which;
      for (const b of root.querySelectorAll("[data-filter]")) b.setAttribute("aria-pressed", String(b.dataset.filter === shown));
      draw();
    }}, label(which, which === "all" ? disputes.length : disputes.filter(d => d.status === which).length));
  fill(root, el("div", {class: "filters"}, ["all", "open", "resolved"].map(filter)), el("div", {id: "dispute-list"}));
  draw();
  status("");
}
