/* A ruling of the committee (RulingRecorded, T-1.5), on the disputes and replay pages: its
   words, the stream it is recorded in (a match's, or the tournament's) and one structured
   effect (events/ruling_events.py, RulingEffect); "Preview" shows what recording it would
   change (POST …/rulings/preview: the same judgement, nothing appended), "Record" records it.
   Needs committee.js. */
"use strict";

const PaijuRuling = (() => {
  const {_, el, fill, short} = Paiju;
  const C = PaijuCommittee;
  // each kind of effect and its members besides kind, rule, member and reason (EFFECT_MEMBERS)
  const KINDS = {
    void: ["positions", "from", "to"], substitute: ["position", "type", "data"],
    penalty: ["hand", "side", "seat", "points", "levels", "coins", "payees", "after"],
    cancelPenalty: ["position"], awardHand: ["hand", "result", "from"], replayHand: ["hand", "from"],
    adjustLevel: ["side", "levels", "after"], forfeit: ["entrant", "after"], disqualify: ["entrant", "after"],
    setting: ["key", "value", "from_hand"],
  };
  const KIND_WORDS = {
    void: _("void events"), substitute: _("substitute an event"), penalty: _("penalty"),
    cancelPenalty: _("cancel a penalty"), awardHand: _("award the hand"), replayHand: _("replay the hand"),
    adjustLevel: _("adjust a level"), forfeit: _("forfeit"), disqualify: _("disqualify"),
    setting: _("change a setting"),
  };
  const MEMBER_WORDS = {
    positions: _("positions"), from: _("from position"), to: _("to position"), position: _("position"),
    type: _("event type"), data: _("data (JSON)"), hand: _("hand"), side: _("side"), seat: _("seat"),
    points: _("points"), levels: _("levels"), coins: _("coins"), payees: _("payees (seats)"),
    after: _("after position"), result: _("result (JSON)"), entrant: _("entrant"), key: _("setting"),
    value: _("value (JSON)"), from_hand: _("from hand"),
  };
  const LISTS = new Set(["positions", "payees"]);
  const JSONS = new Set(["data", "result", "value"]);
  const TEXTS = new Set(["type", "entrant", "key"]);

  /* The input of one member of the effect, as the API names it (/data/effects/0/<member>). */
  function memberInput(name, given) {
    if (name === "side") {
      return el("select", {name}, el("option", {value: ""}, "—"),
                ["A", "B"].map(side => el("option", {value: side, selected: given === side}, Paiju.term("side", side))));
    }
    if (JSONS.has(name)) return el("textarea", {name, rows: 2, spellcheck: "false"});
    const value = Array.isArray(given) ? given.join(", ") : given;
    return C.input({name, type: LISTS.has(name) || TEXTS.has(name) ? "text" : "number"}, value);
  }

  /* A member's value as the API takes it; undefined where left empty; an Error where the JSON
     does not read. */
  function valueOf(name, node) {
    const text = node.value.trim();
    if (!text) return undefined;
    if (LISTS.has(name)) return C.numbers(text);
    if (JSONS.has(name)) {
      try { return JSON.parse(text); } catch (e) { return new Error(_("not valid JSON")); }
    }
    if (TEXTS.has(name) || name === "side") return text;
    return /^-?\d+$/.test(text) ? Number(text) : text;
  }

  /* The form. `about`: {stream, streams: [[stream, label]], text, dispute_id, kind, effect: {…}}. */
  function form(about, done) {
    const stream = el("select", {name: "stream"}, (about.streams || [[about.stream, about.stream]])
      .map(([value, label]) => el("option", {value, selected: value === about.stream}, label)));
    const text = el("textarea", {name: "text", rows: 3, required: true});
    const kind = el("select", {name: "kind"}, Object.keys(KINDS).map(k =>
      el("option", {value: k, selected: k === (about.kind || "void")}, KIND_WORDS[k])));
    const rule = C.input({name: "rule", placeholder: "SJ2-12.4 / discretion"}, "discretion");
    const member = C.input({name: "member", autocomplete: "off"}, about.member);
    const reason = C.input({name: "reason"});
    const members = el("div", {class: "effect-members"});
    const preview = el("button", {type: "button", dataset: {action: "preview"}}, _("Preview"));
    const record = el("button", {type: "submit", dataset: {action: "record"}}, _("Record the ruling"));
    const shown = el("section", {class: "preview", "aria-live": "polite"});
    const f = C.formOf("ruling", about.dispute_id ? _("Rule on dispute {id}", {id: about.dispute_id}) : _("Record a ruling"),
      C.field(_("recorded in"), stream, "/stream"), C.field(_("the ruling in words"), text, "/data/text"),
      C.field(_("effect"), kind, "/data/effects/0/kind"), C.field(_("rule applied"), rule, "/data/effects/0/rule"),
      C.field(_("committee member deciding"), member, "/data/effects/0/member"),
      C.field(_("reason"), reason, "/data/effects/0/reason"), members, el("p", {}, preview, " ", record), shown);
    let inputs = {};
    const drawMembers = () => {
      inputs = Object.fromEntries(KINDS[kind.value].map(name => [name, memberInput(name, (about.effect || {})[name])]));
      fill(members, Object.entries(inputs).map(([name, node]) =>
        C.field(MEMBER_WORDS[name] || name, node, "/data/effects/0/" + name)));
    };
    kind.addEventListener("change", drawMembers);
    drawMembers();
    const body = () => {
      const effect = {kind: kind.value, rule: rule.value.trim(), member: member.value.trim()};
      if (reason.value.trim()) effect.reason = reason.value.trim();
      if (about.dispute_id) effect.dispute_id = about.dispute_id;
      const bad = [];
      for (const [name, node] of Object.entries(inputs)) {
        const value = valueOf(name, node);
        if (value instanceof Error) bad.push({path: "/data/effects/0/" + name, message: value.message});
        else if (value !== undefined) effect[name] = value;
      }
      const data = {text: text.value, effects: [effect]};
      if (about.dispute_id) data.dispute_id = about.dispute_id;
      return {stream: stream.value, data, bad};
    };
    preview.addEventListener("click", async () => {
      const {stream: s, data, bad} = body();
      if (bad.length) return C.showProblem(f, {errors: bad});
      const r = await C.busy(preview, C.send("POST", C.base + "/rulings/preview", {stream: s, data}));
      if (r.status !== 200) { fill(shown); return C.showProblem(f, r.body); }
      C.clearProblem(f);
      fill(shown, consequences(r.body));
    });
    f.addEventListener("submit", async event => {
      event.preventDefault();
      const {stream: s, data, bad} = body();
      if (bad.length) return C.showProblem(f, {errors: bad});
      const r = await C.busy(record, C.postEvent(f, "RulingRecorded", s, data));
      C.finish(f, r, r.body && r.body.position ? _("Ruling recorded at position {position}.", {position: r.body.position}) : "", done);
    });
    return f;
  }

  // --- what the preview says --------------------------------------------------------------------------
  /* Which projection: the match, one of its hands, or a tournament-wide read. */
  function projectionName(p) {
    if (p.projection === "hand") return _("hand {n} of match {mid}", {n: p.hand, mid: p.match_id});
    if (p.projection === "match") return _("match {mid}", {mid: p.match_id});
    return {tournament: _("the tournament"), bracket: _("the bracket"), standings: _("the standings"),
            groups: _("the groups"), rounds: _("the rounds")}[p.projection] || p.projection;
  }

  const compact = value => value === undefined ? "—" : typeof value === "object" && value !== null
    ? JSON.stringify(value) : short(value);

  function consequences(preview) {
    const changed = preview.projections || [];
    return [
      el("h3", {}, _("If recorded (position {position}), the ruling changes:", {position: preview.position})),
      changed.length ? changed.map(p => el("div", {class: "change", dataset: {projection: p.projection}},
        el("h4", {}, projectionName(p)),
        Paiju.table(p.changes || [], [["path", _("what")], ["before", _("before")], ["after", _("after")]],
                    (key, value) => key === "path" ? el("code", {}, value) : compact(value))))
        : el("p", {class: "quiet"}, _("nothing that any read shows.")),
      (preview.unchanged || []).length ? el("p", {class: "quiet unchanged"},
        _("Unchanged: {reads}.", {reads: preview.unchanged.map(name => projectionName({projection: name})).join(", ")})) : null,
    ];
  }

  return {form, consequences};
})();
