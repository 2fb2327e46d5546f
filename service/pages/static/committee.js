/* The committee's and the referees' actions, on the disputes and replay pages: raise a dispute,
   preview a ruling's consequences and record it, resolve a dispute — each through the API that
   judges it (POST …/events, POST …/rulings/preview), its refusal shown beside the field it
   names. A form is shown only to a session or token whose role may do what it does (the
   families of service/permissions.py); the server judges again whatever is sent. Needs desk.js
   (PaijuDesk: sending with the session's CSRF token or the tab's token, refusals on fields). */
"use strict";

const PaijuCommittee = (() => {
  const {_, el, fill, tid} = Paiju;
  const base = "/v1/tournaments/" + encodeURIComponent(tid);
  // who may raise a dispute (family "dispute") and who rules on one (family "ruling": the
  // preview, the ruling and the resolution)
  const RAISE = new Set(["admin", "referee", "committee", "table", "player"]);
  const RULE = new Set(["admin", "committee"]);
  const TOURNAMENT_STREAM = "tournament-" + tid;
  const matchStream = mid => "match-" + tid + ":" + mid;

  // --- who is asking, and sending as them (desk.js: PaijuDesk) ------------------------------------
  let whoPromise = null;
  /* Who acts here, as GET /v1/session describes them: the tab's bearer token if it has one,
     else the browser's session (its cookie); null: nobody (the public). */
  function who() {
    whoPromise = whoPromise || (async () => {
      const headers = {Accept: "application/json"};
      const secret = Paiju.token();
      if (secret) headers.Authorization = "Bearer " + secret;
      const response = await fetch("/v1/session", {headers, credentials: "same-origin", cache: "no-store"});
      return response.status === 200 ? response.json() : null;
    })().catch(() => null);
    return whoPromise;
  }

  const ofHere = w => !!w && (w.tournament_id === null || w.tournament_id === undefined || w.tournament_id === tid);
  const mayRaise = w => ofHere(w) && RAISE.has(w.role);
  const mayRule = w => ofHere(w) && RULE.has(w.role);
  const send = (method, path, body) => PaijuDesk.send(method, path, body);
  const showProblem = (form, problem) => PaijuDesk.showProblem(form, problem);
  const clearProblem = form => PaijuDesk.clearProblem(form);
  const busy = (button, promise) => PaijuDesk.busy(button, promise);

  /* One event of one action of the user, its id made once: a double click, or the same action
     sent again after a lost answer, stores it once (the API keeps one event per id). */
  function postEvent(form, type, stream, data) {
    form.dataset.eventId = form.dataset.eventId || PaijuDesk.newId();
    return send("POST", base + "/events", {id: form.dataset.eventId, type, stream, data});
  }

  // --- forms: fields, refusals on the field they name --------------------------------------------
  /* A labelled input; `pointer` is the JSON pointer the API names when it refuses the value
     (desk.js puts the refusal in the .field-error after it). */
  let fieldCount = 0;
  function field(label, input, pointer) {
    input.dataset.pointer = pointer;
    input.id = input.id || "committee-field-" + (++fieldCount);
    return el("div", {class: "field"}, el("label", {for: input.id}, label), " ", input,
              el("span", {class: "field-error", role: "alert"}));
  }

  function formOf(name, title, ...fields) {
    return el("form", {class: "panel committee-form desk-form", dataset: {form: name}, novalidate: true},
              el("h2", {}, title), fields, el("p", {class: "form-error", role: "alert"}),
              el("p", {class: "form-done", role: "status"}));
  }

  const numbers = text => text.split(/[\s,，、]+/).filter(Boolean).map(x => /^-?\d+$/.test(x) ? Number(x) : x);
  const input = (attrs, value) => el("input", {...attrs, value: value === undefined || value === null ? null : String(value)});

  // --- raise a dispute -------------------------------------------------------------------------------
  /* DisputeRaised (T-1.5): which match, hand and positions the dispute is about, and the claim. */
  function raiseForm(about, done) {
    const id = input({name: "dispute_id", required: true, autocomplete: "off"}, about.dispute_id);
    const match = input({name: "match_id"}, about.match_id);
    const hand = input({name: "hand", type: "number", min: 1}, about.hand);
    const positions = input({name: "positions", inputmode: "numeric"}, (about.positions || []).join(", "));
    const claim = el("textarea", {name: "claim", rows: 3, required: true});
    const submit = el("button", {type: "submit"}, _("Raise the dispute"));
    const form = formOf("raise", _("Raise a dispute"),
      field(_("dispute id"), id, "/data/dispute_id"), field(_("match id"), match, "/data/match_id"),
      field(_("hand"), hand, "/data/hand"), field(_("positions"), positions, "/data/positions"),
      field(_("claim"), claim, "/data/claim"), el("p", {}, submit));
    form.addEventListener("submit", async event => {
      event.preventDefault();
      const data = {dispute_id: id.value.trim(), claim: claim.value};
      if (match.value.trim()) data.match_id = match.value.trim();
      if (hand.value.trim()) data.hand = numbers(hand.value)[0];
      if (positions.value.trim()) data.positions = numbers(positions.value);
      const r = await busy(submit, postEvent(form, "DisputeRaised", TOURNAMENT_STREAM, data));
      finish(form, r, _("Dispute {id} raised.", {id: data.dispute_id}), done);
    });
    return form;
  }

  /* After a post: the refusal on its fields, or the form cleared for the next action. */
  function finish(form, r, said, done) {
    if (r.status !== 200 && r.status !== 201) return showProblem(form, r.body);
    clearProblem(form);
    delete form.dataset.eventId;  // the next action is a new event
    form.querySelector(".form-done").textContent = said;
    if (done) done(r.body);
    return r.body;
  }

  // --- resolve a dispute ------------------------------------------------------------------------------
  /* DisputeResolved: the ruling that settles it (a RulingRecorded of the tournament) or no
     change, in the committee's words. */
  function resolveForm(dispute, rulings, done, chosen) {
    const ruling = el("select", {name: "ruling_event_id"},
      el("option", {value: ""}, _("no change (the claim is not upheld)")),
      rulings.map(r => el("option", {value: r.event_id, selected: r.event_id === chosen},
        _("ruling at position {position}", {position: r.position}) + (r.text ? " — " + r.text : ""))));
    const text = el("textarea", {name: "text", rows: 3, required: true});
    const submit = el("button", {type: "submit"}, _("Resolve the dispute"));
    const form = formOf("resolve", _("Resolve dispute {id}", {id: dispute.dispute_id}),
      field(_("ruling"), ruling, "/data/ruling_event_id"), field(_("resolution"), text, "/data/text"),
      el("p", {}, submit));
    form.addEventListener("submit", async event => {
      event.preventDefault();
      const data = {dispute_id: dispute.dispute_id, text: text.value};
      if (ruling.value) data.ruling_event_id = ruling.value; else data.noChange = true;
      const r = await busy(submit, postEvent(form, "DisputeResolved", TOURNAMENT_STREAM, data));
      finish(form, r, _("Dispute {id} resolved.", {id: dispute.dispute_id}), done);
    });
    return form;
  }

  return {who, mayRaise, mayRule, send, postEvent, field, formOf, showProblem, clearProblem, finish,
          busy, numbers, input, raiseForm, resolveForm, matchStream, TOURNAMENT_STREAM, base};
})();
