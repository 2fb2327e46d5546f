/* The hand replay: every event of one hand of a match, in order; each step shows the hand as
   the API folds it at that event's position (GET …/hands/{n}/replay, one read: the hand read at
   every position), so what is drawn is exactly what the server's rules derive — rulings
   included. An event is marked where
   something irregular appeared in the hand (a flagged play, a follow error, a penalty, a
   failed throw, a pending ruling…), where a dispute points at it, where a ruling names it, and
   where a ruling made it illegal (the match's `flags`). */
"use strict";

(() => {
  const {el, fill, byId, status, short, get, need, tournament, teamName, hashParams,
         setHash, replayUrl} = Paiju;
  const {_, term} = Paiju;
  const zh = Paiju.lang === "zh";
  const body = document.body;
  const mid = body.dataset.mid;
  const handNo = Number(body.dataset.hand);
  const DEALS = new Set(["HandDealt", "GDHandDealt", "TilesDealt"]);
  const FAMILIES = {SJ2: "shengji", SJ3: "shengji", GD: "guandan", MJO: "mahjong", MJS: "mahjong"};
  // Where a hand view says that something irregular happened, and in which words.
  const ISSUE_KINDS = {
    flagged: _("irregular play"), pending_correction: _("irregular play, open to correction"),
    pending_corrections: _("irregular play, open to correction"),
    follow_errors: _("follow error established"), irregularities: _("irregularity"),
    penalties: _("penalty"), throw: _("failed throw"), ruling: _("awaiting a ruling"),
    time_limits: _("time limit"), flags: _("illegal after a ruling"),
  };
  // the states of a dispute and of a ruling, as the API names them
  const STATUSES = {open: _("open"), resolved: _("resolved"), applied: _("applied"),
                    overturned: _("overturned"), recorded: _("recorded")};
  // who posted an event: the roles of the tokens
  const ROLES = {admin: _("admin"), organiser: _("organiser"), referee: _("referee"),
                 committee: _("committee"), auditor: _("auditor"), table: _("table"),
                 player: _("player"), system: _("system")};
  // mahjong: a meld, and a claim on a discard (MJO-4.5)
  const MELDS = {chow: _("chow"), pong: _("pong"), kong: _("kong")};
  const CLAIMS = {win: _("{seat} win {tiles}"), kong: _("{seat} kong {tiles}"),
                  pong: _("{seat} pong {tiles}"), chow: _("{seat} chow {tiles}")};
  // the fields of an event's data, of a ruling's effect, of an irregularity, as the page names
  // them (any other field by its own name)
  const FIELDS = {hand: _("hand"), seat: _("seat"), side: _("side"), card: _("card"), cards: _("cards"),
                  tile: _("tile"), tiles: _("tiles"), kind: _("kind"), suit: _("suit"), rule: _("rule"),
                  reason: _("reason"), text: _("text"), note: _("note"), message: _("message"),
                  points: _("points"), levels: _("levels"), coins: _("coins"), amount: _("amount"),
                  position: _("position"), positions: _("positions"), data: _("data"),
                  player: _("player"), count: _("count"), dice: _("dice"), wildAs: _("wildAs")};
  // GD-7.1: the tribute case of a hand, named by the glossary (seed 001's 双下, 单下)
  const TRIBUTE_CASES = {double: _("Tribute: {case}, both losers pay one card each."),
                         single: _("Tribute: {case}, the last player pays the first one card."),
                         partnerLast: _("Tribute: {case}.")};
  // mahjong: the kind of a claim (Claim) and of a kong declared from the hand (KongDeclared)
  const KINDS = {chow: _("kind: chow"), pong: _("kind: pong"), kong: _("kind: kong"), win: _("kind: win"),
                 direct: _("kind: direct"), added: _("kind: added"), concealed: _("kind: concealed")};
  // Sichuan: where the three tiles go (MJS-2.1)
  const DIRECTIONS = {next: _("换三张 (direction next)"), opposite: _("换三张 (direction opposite)"),
                      previous: _("换三张 (direction previous)")};
  const SEAT_PLACES = ["south", "east", "north", "west"];  // seat 0 at the bottom, play goes right

  const s = {
    t: null, match: null, game: null, family: null,
    steps: [],          // {position, type, data, seat}
    index: 0,
    views: new Map(),   // position -> Promise of {view} or {missing}
    notes: [],          // per step: the issues new at that step (after the scan)
    marks: [],          // per step: {disputes: [], rulings: [], flags: []}
    disputes: [], rulings: [], flags: [],
    shown: 0,           // guards against a slow answer overwriting a newer step
    scanned: false,
    following: false,   // the page moves to each new event of the hand as it is played
    subscribed: false,
  };

  Paiju.run(main);

  // --- words ---------------------------------------------------------------------------------------
  /* A name (a team's, a player's) as it is written, in whatever script, in its own direction. */
  function name(text) {
    return el("bdi", {class: "name", dir: "auto"}, text);
  }

  /* A sentence whose blanks take nodes too (names, cards, tiles): `template` is a sentence of
     the catalogue already said in the page's language (_("…") without values); its pieces. */
  function said(template, params) {
    return template.split(/\{(\w+)\}/).map((piece, i) =>
      i % 2 === 0 ? piece : (piece in params ? params[piece] : "{" + piece + "}")).filter(x => x !== "");
  }

  /* Items (text or nodes) in a list: "a, b" ("a、b" in Chinese), or joined by `by`. */
  function joined(items, by) {
    const between = by || (zh ? "、" : ", ");
    return items.flatMap((x, i) => i ? [between, x] : [x]);
  }

  /* A sentence's first letter up ("Seat 2 …"), in text or in the first of its pieces. */
  function cap(parts) {
    if (typeof parts === "string") return parts.charAt(0).toUpperCase() + parts.slice(1);
    if (Array.isArray(parts) && parts.length) return [cap(parts[0]), ...parts.slice(1)];
    return parts;
  }

  function statusWord(value) { return STATUSES[value] || value || "?"; }

  /* A claim's kind (pong, kong, chow, win) in the page's language. */
  function claimWord(kind) {
    if (kind in MELDS) return MELDS[kind];
    return kind === "win" && zh ? term("event", "Win") : kind;
  }

  /* A value of the API as short text, as Paiju.short, its fields named in the page's language. */
  function described(value, key) {
    if (key === "kind" && typeof value === "string") return claimWord(value);
    if (!value || typeof value !== "object") return short(value);
    if (Array.isArray(value)) return value.map(x => described(x)).join(", ");
    return Object.entries(value).map(([k, v]) => (FIELDS[k] || k) + ": " + described(v, k)).join("; ");
  }

  /* An event type as a referee names it: in Chinese the glossary's word (亮主 for
     TrumpDeclared); in English the type itself, as the committee reads the log. */
  function eventWord(type) {
    return zh ? term("event", type) : type;
  }

  /* An event type in bold, in words; the type itself in its title and data-type. */
  function eventName(type) {
    return el("strong", {title: type, dataset: {type}}, eventWord(type));
  }

  async function main() {
    s.t = await tournament();
    s.match = await need("matches/" + encodeURIComponent(mid));
    s.game = s.match.game;
    s.family = FAMILIES[s.game] || "shengji";
    body.dataset.game = s.game;
    fill(byId("title"), name(s.t.name), " · ", _("match {mid}", {mid}), " · ",
         _("hand {n}", {n: handNo}), " ", el("span", {class: "badge", title: term("game", s.game)}, s.game));
    document.title = _("Hand {n} of {mid}", {n: handNo, mid}) + " · " + s.t.name;
    const replay = await loadReplay();
    await loadCommittee();
    await committeeActions();
    if (!replay.with_data) return withoutLog(replay);
    handLinks(handNumbers());
    s.steps = stepsOf(replay.steps);
    if (!s.steps.length) throw new Error(_("hand {n} of match {mid} has no events", {n: handNo, mid}));
    s.marks = s.steps.map(markOf);
    timeline();
    controls();
    status("");
    const wanted = hashParams().get("pos");
    const at = s.steps.findIndex(step => String(step.position) === wanted);
    await show(at >= 0 ? at : 0);
    scan();  // marks the timeline as the views come in; the page is usable meanwhile
    if (hashParams().has("follow")) setFollowing(true);
  }

  // --- follow: the hand as it is played (GET …/subscribe?match=…) ----------------------------------
  /* Following, each event of the match read back in one request and shown at its last step;
     the subscription starts after the last step read, so nothing in between is missed. */
  function setFollowing(on) {
    s.following = on;
    const button = byId("follow");
    button.setAttribute("aria-pressed", String(on));
    button.textContent = on ? _("Following ●") : _("Follow live");
    const params = hashParams();
    if (on) params.set("follow", "1"); else params.delete("follow");
    setHash(params);
    if (on && !s.subscribed) {
      s.subscribed = true;
      let running = false, again = false;
      Paiju.follow({match: mid}, s.steps[s.steps.length - 1].position, async () => {
        if (!s.following) return;
        if (running) { again = true; return; }
        running = true;
        try { do { again = false; await refresh(); } while (again && s.following); }
        finally { running = false; }
      });
    }
    if (on) show(s.steps.length - 1);
  }

  async function refresh() {
    const replay = await loadReplay();
    s.steps = stepsOf(replay.steps);
    s.marks = s.steps.map(markOf);
    s.notes = [];
    timeline();
    byId("slider").max = byId("jump").max = s.steps.length;
    await show(s.steps.length - 1);
    body.dataset.redrawn = String(Number(body.dataset.redrawn || 0) + 1);
    scan();
  }

  // --- the steps ---------------------------------------------------------------------------------
  /* The hand's steps, each with the hand as it was there, in one read (GET …/hands/{n}/replay:
     the hand read at every position, as this token sees it; the events' data for a token that
     may read the log) — page after page for a hand longer than one answer. */
  async function loadReplay() {
    let path = "matches/" + encodeURIComponent(mid) + "/hands/" + handNo + "/replay";
    let replay = null;
    while (path) {
      const r = await get(path);
      if (r.status !== 200) throw new Paiju.ApiError("replay", r);
      if (replay) replay.steps.push(...r.body.steps);
      else replay = r.body;
      path = r.body.next;
    }
    return replay;
  }

  /* The replay's steps, and the views they carry; the rulings kept are those about this hand
     (acting on it, or recorded within it). */
  function stepsOf(steps) {
    const positions = steps.map(step => step.position);
    const first = positions[0], last = positions[positions.length - 1];
    s.rulings = s.rulings.filter(r => (r.effects || []).some(e => e.hand === handNo) ||
      positions.some(p => hits(r, p)) || (r.position > first && r.position < last) ||
      positions.includes(r.position));
    for (const step of steps) {
      s.views.set(step.position, Promise.resolve(step.view ? {view: step.view}
        : {missing: step.withheld || _("the hand is not dealt yet at this position")}));
    }
    return steps.map(step => ({position: step.position, type: step.type, data: step.data || {},
                               seat: Number.isInteger(step.seat) ? step.seat : null}));
  }

  function viewAt(index) {
    if (index < 0) return Promise.resolve({missing: _("before the hand")});
    return s.views.get(s.steps[index].position) || Promise.resolve({missing: _("not in the replay")});
  }

  /* "seat 2 (王五)": the seat and who sits there (the match's seats), wherever a seat is named. */
  function seatLabel(seat) {
    return seatOf(s.match && s.match.seats, seat);
  }

  /* A seat of `seats` and its player, in pieces (the name in a <bdi>). */
  function seatOf(seats, seat) {
    if (seat === null || seat === undefined) return "—";
    const sat = (seats || []).find(x => x.seat === seat);
    return sat && sat.player ? said(_("seat {seat} ({player})"), {seat, player: name(sat.player)})
      : _("seat {seat}", {seat});
  }

  /* The hands of the match so far: those played and the one in play. */
  function handNumbers() {
    const count = Math.max(s.match.hands_played || 0, s.match.current_hand ? s.match.current_hand.hand : 0, handNo);
    return [...Array(count).keys()].map(i => i + 1);
  }

  // --- what is irregular, and where ---------------------------------------------------------------
  function canonical(value) {
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    if (value && typeof value === "object") {
      return "{" + Object.keys(value).sort().map(k => JSON.stringify(k) + ":" + canonical(value[k]))
        .join(",") + "}";
    }
    return JSON.stringify(value);
  }

  /* Every irregular thing a hand view holds, by its content (the same flag on a play in the
     trick and in pending_correction counts once). */
  function notesOf(view) {
    const found = new Map();
    const add = (kind, item) => {
      const key = canonical(item);
      if (!found.has(key)) found.set(key, {kind, item});
    };
    (function walk(node) {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node !== "object") return;
      for (const [key, value] of Object.entries(node)) {
        if (key in ISSUE_KINDS && value) {
          for (const item of [].concat(value)) {
            if (item && typeof item === "object") add(ISSUE_KINDS[key], item);
          }
        } else if (key === "irregular" && value === true) {
          add(_("irregular claim"), node);
        }
        walk(value);
      }
    })(view);
    return found;
  }

  async function newNotes(index) {
    const [before, now] = await Promise.all([viewAt(index - 1), viewAt(index)]);
    if (!now.view) return [];
    const old = before.view ? notesOf(before.view) : new Map();
    return [...notesOf(now.view)].filter(([key]) => !old.has(key)).map(([, note]) => note);
  }

  function noteText(note) {
    const item = note.item;
    const rule = item.rule ? item.rule + ": " : "";
    const words = item.message || item.detail || item.note || item.text ||
      described(Object.fromEntries(Object.entries(item).filter(([k]) => k !== "rule")));
    return note.kind + " — " + rule + words;
  }

  /* Who posted an event, as the API records it ({actor, role}). */
  function who(x) {
    if (!x || typeof x !== "object") return short(x);
    return [name(x.actor || "?"), x.role ? [" (", ROLES[x.role] || x.role, ")"] : ""];
  }

  function effectText(e) {
    const rest = Object.fromEntries(Object.entries(e).filter(([k]) => !["kind", "rule", "member"].includes(k)));
    return [e.kind, " (", e.rule || "", e.member ? [", ", name(e.member)] : "", ")",
            Object.keys(rest).length ? ": " + described(rest) : ""];
  }

  /* The committee's side: the disputes about this hand, the rulings of this match, the
     events a ruling made illegal (flags) and those it edited — each shown when the server has
     it (an older server has no dispute list). */
  async function loadCommittee() {
    const [disputes, rulings] = await Promise.all([
      optional("disputes"), optional("rulings", {match: mid})]);
    s.disputes = (disputes && disputes.disputes || [])
      .filter(d => d.match_id === mid && (d.hand === null || d.hand === undefined || d.hand === handNo));
    s.rulings = (rulings && rulings.rulings || []).filter(r => r.match_id === mid);
    s.flags = (s.match.flags || []).slice();
    s.edits = (s.match.edits || []).slice();
  }

  /* The forms of whoever may act here (committee.js, ruling.js): raise a dispute about the
     event shown, rule on it (with the preview of what the ruling would change), resolve an
     open dispute of this hand. Each reads the step shown when its button is pressed; what it
     records is read back by reloading the page at the same position. */
  async function committeeActions() {
    const C = PaijuCommittee;
    const w = await C.who();
    const here = () => (s.steps[s.index] || {}).position;
    const again = () => location.reload();
    const open = make => () => {
      const form = make();
      fill(byId("committee-form"), form);
      const first = form.querySelector("textarea, input, select");
      if (first) first.focus();
    };
    const buttons = [];
    if (C.mayRaise(w)) {
      buttons.push(el("button", {type: "button", dataset: {act: "raise"}, onclick: open(() => C.raiseForm(
        {match_id: mid, hand: handNo, positions: here() ? [here()] : []}, again))}, _("Raise a dispute about this event")));
    }
    if (C.mayRule(w)) {
      const streams = [[C.matchStream(mid), _("match {mid}", {mid})], [C.TOURNAMENT_STREAM, _("the tournament")]];
      buttons.push(el("button", {type: "button", dataset: {act: "rule"}, onclick: open(() => PaijuRuling.form({
        streams, stream: C.matchStream(mid), member: w.actor, kind: "void",
        effect: {positions: here() ? [here()] : [], hand: handNo}}, again))}, _("Rule on this event")));
      for (const d of s.disputes.filter(x => x.status === "open")) {
        buttons.push(el("button", {type: "button", dataset: {act: "resolve", dispute: d.dispute_id},
          onclick: open(() => C.resolveForm(d, s.rulings, again))}, _("Resolve dispute {id}", {id: d.dispute_id})));
      }
    }
    fill(byId("committee-actions"), buttons.length ? el("p", {class: "actions"}, joined(buttons, " ")) : null);
  }

  async function optional(path, query) {
    const r = await get(path, query);
    return r.status === 200 ? r.body : null;
  }

  /* The effects of ruling `r` that act on the event at `position`: named by `positions`,
     `position` or `after`, or within a range `from`–`to` (open-ended for a hand replayed or
     awarded from a position). */
  function effectsAt(r, position) {
    return (r.effects || []).filter(e =>
      (e.positions || []).includes(position) || e.position === position || e.after === position ||
      (Number.isInteger(e.from) && position >= e.from && position <= (Number.isInteger(e.to) ? e.to : Infinity) &&
       (e.hand === undefined || e.hand === handNo)));
  }

  function hits(r, position) {
    return effectsAt(r, position).length > 0;
  }

  function markOf(step) {
    return {
      disputes: s.disputes.filter(d => (d.positions || []).includes(step.position)),
      rulings: s.rulings.filter(r => r.position === step.position || hits(r, step.position))
        .map(r => ({ruling: r, own: r.position === step.position, effects: effectsAt(r, step.position)})),
      flags: s.flags.filter(f => f.position === step.position),
      edits: s.edits.filter(e => e.position === step.position),
    };
  }

  // --- the controls ----------------------------------------------------------------------------------
  function controls() {
    const slider = byId("slider"), jump = byId("jump");
    slider.max = jump.max = s.steps.length;
    byId("first").addEventListener("click", () => show(0));
    byId("back").addEventListener("click", () => show(s.index - 1));
    byId("forward").addEventListener("click", () => show(s.index + 1));
    byId("last").addEventListener("click", () => show(s.steps.length - 1));
    byId("follow").addEventListener("click", () => setFollowing(!s.following));
    slider.addEventListener("input", () => show(Number(slider.value) - 1));
    jump.addEventListener("change", () => show(Number(jump.value) - 1));
    byId("next-issue").addEventListener("click", () => toMarked(+1));
    byId("prev-issue").addEventListener("click", () => toMarked(-1));
    document.addEventListener("keydown", event => {
      if (event.target.closest("input, textarea, select")) return;
      const moves = {ArrowLeft: s.index - 1, ArrowRight: s.index + 1, Home: 0,
                     End: s.steps.length - 1};
      if (event.key in moves) {
        event.preventDefault();
        show(moves[event.key]);
      }
    });
  }

  function marked(index) {
    const m = s.marks[index];
    return (s.notes[index] && s.notes[index].length) || m.disputes.length || m.rulings.length ||
      m.flags.length || m.edits.length;
  }

  function toMarked(direction) {
    for (let i = s.index + direction; i >= 0 && i < s.steps.length; i += direction) {
      if (marked(i)) return show(i);
    }
  }

  async function show(index) {
    const n = s.steps.length;
    index = Math.max(0, Math.min(n - 1, Number.isFinite(index) ? index : 0));
    const ticket = ++s.shown;
    s.index = index;
    const step = s.steps[index];
    byId("step-counter").textContent = _("Step {step} / {steps} · position {position}",
                                         {step: index + 1, steps: n, position: step.position});
    byId("slider").value = index + 1;
    byId("jump").value = index + 1;
    byId("first").disabled = byId("back").disabled = index === 0;
    byId("last").disabled = byId("forward").disabled = index === n - 1;
    const params = hashParams();
    params.set("pos", step.position);
    setHash(params);
    for (const li of byId("timeline").children) {
      const current = Number(li.dataset.index) === index;
      li.classList.toggle("current", current);
      if (current) {
        li.setAttribute("aria-current", "step");
        keepInView(byId("timeline"), li);
      } else li.removeAttribute("aria-current");
    }
    fill(byId("event-line"), eventName(step.type), " ", eventSummary(step));
    const [{view, missing}, notes] = await Promise.all([viewAt(index), newNotes(index)]);
    if (ticket !== s.shown) return;  // a newer step was asked for meanwhile
    renderHere(step, notes, s.marks[index]);
    if (view) {
      renderTable(view);
      renderDetails(view);
    } else {
      fill(byId("table"), el("p", {class: "missing"}, missing));
      fill(byId("details"));
    }
    renderCommittee();
    body.dataset.step = index + 1;
    body.dataset.shown = step.position;
  }

  /* Scrolls the timeline (only it, never the page) to show `li`. */
  function keepInView(list, li) {
    const top = li.offsetTop, bottom = top + li.offsetHeight;
    if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }

  // --- the timeline ----------------------------------------------------------------------------------
  function timeline() {
    fill(byId("timeline"), s.steps.map((step, i) => el("li", {
      dataset: {index: i, position: step.position, type: step.type},
    }, el("button", {type: "button", onclick: () => show(i)},
          el("span", {class: "pos"}, "#" + step.position), " ",
          el("span", {class: "type", title: step.type}, eventWord(step.type)), " ",
          eventSummary(step, true)),
       el("span", {class: "marks"}, markChips(s.marks[i], null)))));
  }

  function markChips(marks, notes) {
    const chips = [];
    for (const note of notes || []) {
      chips.push(el("span", {class: "mark issue", title: noteText(note)},
                    "⚠ " + (note.item.rule || note.kind)));
    }
    for (const d of marks.disputes) {
      chips.push(el("span", {class: "mark dispute", title: d.claim || ""},
                    "⚑ " + _("dispute {id} ({status})", {id: d.dispute_id || "", status: statusWord(d.status)})));
    }
    for (const m of marks.rulings) {
      const what = m.own ? _("ruling") : m.effects.map(e => e.kind).join(", ");
      chips.push(el("span", {class: "mark ruling", title: m.ruling.text || ""},
                    "⚖ " + (m.ruling.status === "overturned" ? _("{what} (overturned)", {what}) : what)));
    }
    for (const f of marks.flags) {
      chips.push(el("span", {class: "mark flag", title: f.message || ""}, "✗ " + (f.rule || _("illegal"))));
    }
    return chips;
  }

  async function scan() {
    const n = s.steps.length;
    const queue = s.steps.map((_, i) => i);
    let done = 0;
    const progress = byId("scan");
    const worker = async () => {
      while (queue.length) {
        await viewAt(queue.shift());
        done += 1;
        if (done % 10 === 0 || done === n) progress.textContent = _("checking {done} / {n}", {done, n});
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    for (let i = 0; i < n; i++) s.notes[i] = await newNotes(i);
    for (const li of byId("timeline").children) {
      const i = Number(li.dataset.index);
      fill(li.querySelector(".marks"), markChips(s.marks[i], s.notes[i]));
      li.classList.toggle("marked", !!marked(i));
    }
    const count = s.steps.filter((_, i) => marked(i)).length;
    progress.textContent = _("{count} marked", {count});
    byId("timeline").dataset.scan = "done";
    s.scanned = true;
  }

  // --- one event in words ------------------------------------------------------------------------------
  function eventSummary(step, brief) {
    const d = step.data;
    const parts = [];
    if (step.seat !== null) parts.push(el("span", {class: "seat"}, seatLabel(step.seat)));
    if (DEALS.has(step.type)) {
      parts.push(" ", _("the deal"));
      return el("span", {class: "summary"}, parts);
    }
    if (step.type === "RulingRecorded") {
      const effects = (d.effects || []).map(e => e.kind + (e.rule ? " " + e.rule : "") +
        (Number.isInteger(e.position) ? " " + _("at #{position}", {position: e.position}) : ""));
      parts.push(" " + (d.text || ""), effects.length ? " [" + effects.join("; ") + "]" : "");
      return el("span", {class: "summary"}, parts);
    }
    for (const [key, value] of Object.entries(d)) {
      if (key === "hand" || key === "seat") continue;
      parts.push(" ");
      if ((key === "cards" || key === "card" || key === "wildAs") && s.family !== "mahjong") {
        if (key !== "cards") parts.push((FIELDS[key] || key) + " ");
        parts.push(Cards.cards([].concat(value)));
      } else if (key === "suit" && s.family === "mahjong" && Cards.SUIT_OF_VOID[value]) {
        parts.push(_("void {suit}", {suit: Cards.SUIT_OF_VOID[value]}));
      } else if (key === "tile" || key === "tiles") {
        parts.push(Cards.tiles([].concat(value)));
      } else {
        const text = key === "kind" && s.family === "mahjong" && KINDS[value] ? KINDS[value]
          : (FIELDS[key] || key) + ": " + described(value, key);
        parts.push(brief && text.length > 60 ? text.slice(0, 57) + "…" : text);
      }
    }
    return el("span", {class: "summary"}, parts);
  }

  // --- at this event -----------------------------------------------------------------------------------
  function renderHere(step, notes, marks) {
    const items = [];
    for (const note of notes) {
      items.push(el("li", {class: "issue", dataset: {rule: note.item.rule || ""}},
                    "⚠ ", noteText(note)));
    }
    for (const d of marks.disputes) {
      items.push(el("li", {class: "dispute"}, "⚑ ", said(_("dispute {id} ({status}), raised by {who}: {claim}"),
                    {id: d.dispute_id || "", status: statusWord(d.status), who: who(d.raised_by),
                     claim: d.claim || ""})));
    }
    for (const m of marks.rulings) {
      const r = m.ruling;
      items.push(el("li", {class: "ruling"}, "⚖ ", m.own
        ? said(_("the ruling ({status}): {text} — {effects}"), {
          status: statusWord(r.status || "recorded"), text: r.text || "",
          effects: joined((r.effects || []).map(effectText), "; ")})
        : said(_("ruled at #{position}: {effects}"), {
          position: r.position, effects: joined(m.effects.map(effectText), "; ")})));
    }
    for (const e of marks.edits) {
      items.push(el("li", {class: "ruling"}, "✎ " + _("{edit} by the ruling at #{ruling} ({kind}, {rule})",
                    {edit: e.edit, ruling: e.ruling, kind: e.kind || "", rule: e.rule || ""})));
    }
    for (const f of marks.flags) {
      items.push(el("li", {class: "flag"}, "✗ " + _("illegal after a ruling — {rule}: {message}",
                    {rule: f.rule || "", message: f.message || ""})));
    }
    fill(byId("here"), el("h2", {}, _("At position {position}", {position: step.position})),
         el("p", {}, eventName(step.type), " ", eventSummary(step)),
         items.length ? el("ul", {class: "notes"}, items)
           : el("p", {class: "quiet"}, _("Nothing irregular here.")));
  }

  // --- the table ---------------------------------------------------------------------------------------
  function renderTable(view) {
    const seats = view.seats || [];
    const cells = seats.map(seat => el("div", {class: "seat-cell " + SEAT_PLACES[seat.seat]},
                                       seatPanel(view, seat)));
    const centre = el("div", {class: "centre"}, s.family === "mahjong" ? tileCentre(view)
      : s.family === "guandan" ? guandanCentre(view) : shengjiCentre(view));
    fill(byId("table"), el("div", {class: "felt " + s.family}, cells, centre));
  }

  function seatBadges(view, seat) {
    const badges = [];
    if (view.dealer === seat.seat) badges.push(el("span", {class: "badge dealer"}, _("dealer")));
    if (view.turn === seat.seat) badges.push(el("span", {class: "badge turn"}, _("to play")));
    if (seat.out) {
      badges.push(el("span", {class: "badge out"},
                     seat.place ? _("out #{place}", {place: seat.place}) : _("out")));
    }
    if (s.family === "mahjong") {
      if (seat.wind) badges.push(el("span", {class: "badge"}, _("wind {wind}", {wind: Cards.windName(seat.wind)})));
      if (view.voids && view.voids[seat.seat]) {
        const letter = view.voids[seat.seat];
        badges.push(el("span", {class: "badge void"},
                       _("void {suit}", {suit: Cards.SUIT_OF_VOID[letter] || letter})));
      }
      if (view.out && view.out[seat.seat]) badges.push(el("span", {class: "badge out"}, _("won, out")));
    }
    return badges;
  }

  function seatPanel(view, seat) {
    const who = el("div", {class: "who"}, el("strong", {}, _("Seat {seat}", {seat: seat.seat})), " ",
                   seat.player ? name(seat.player) : "", seat.side ? [" · ", term("side", seat.side)] : "", " ",
                   seatBadges(view, seat));
    const panel = el("section", {class: "seat-panel" + (view.turn === seat.seat ? " on-turn" : ""),
                                 dataset: {seat: seat.seat}, "aria-label": _("seat {seat}", {seat: seat.seat})},
                     who);
    if (s.family === "mahjong") {
      panel.append(
        el("div", {class: "concealed"}, Cards.tiles(seat.concealed, seat.tile_count),
           seat.drawn ? el("span", {class: "drawn", title: _("the tile just drawn")}, " + ",
                           Cards.tile(seat.drawn)) : null),
        el("div", {class: "melds"}, (seat.melds || []).map(meld => el("span", {
          class: "meld", title: zh ? [claimWord(meld.kind), ...(meld.tiles || []).map(t => Cards.tileParts(t).name)].join(" ")
            : meld.text || meld.kind}, (meld.tiles || []).map(t => Cards.tile(t)),
          el("small", {}, " ", MELDS[meld.kind] || meld.kind,
             meld.from !== null && meld.from !== undefined ? [" ← ", seatLabel(meld.from)] : "")))),
        el("div", {class: "discards", "aria-label": _("discards")}, el("small", {class: "label"}, _("discards")),
           (seat.discards || []).map(x => Cards.tile(x.tile, x.claimed_by !== null ? "claimed" : null))));
      return panel;
    }
    const marks = s.family === "guandan" ? Cards.guandanMarks(view.wildcard, view.level)
      : Cards.shengjiTrump(view.trump, view.level);
    panel.append(el("div", {class: "hand-cards"}, Cards.cards(seat.cards, marks, seat.card_count)),
                 el("div", {class: "count"}, _("{n} cards", {n: seat.card_count})));
    return panel;
  }

  function trickPlays(trick, view, marks) {
    return el("div", {class: "trick-plays"}, (trick.plays || []).map(play => {
      const flag = play.flagged;
      const leading = trick.winning ?? (view.top ? view.top.seat : null);
      const winning = trick.winner === play.seat || (trick.winner == null && leading === play.seat);
      return el("div", {class: "play " + SEAT_PLACES[play.seat] + (flag ? " flagged" : "") +
                        (winning ? " winning" : ""), dataset: {seat: play.seat}},
                el("div", {class: "play-who"}, trick.leader === play.seat
                   ? said(_("{seat} leads"), {seat: seatLabel(play.seat)}) : seatLabel(play.seat),
                   winning ? " ★" : ""),
                play.pass ? el("span", {class: "pass"}, _("pass")) : Cards.cards(play.cards, marks),
                play.description ? el("div", {class: "desc"}, play.description) : null,
                flag ? el("div", {class: "irregular", title: flag.message || ""}, "⚠ " + (flag.corrected
                  ? _("{rule} (corrected)", {rule: flag.rule || _("irregular")}) : flag.rule || _("irregular"))) : null);
    }));
  }

  function shengjiCentre(view) {
    const marks = Cards.shengjiTrump(view.trump, view.level);
    const trick = view.current_trick || (view.tricks && view.tricks[view.tricks.length - 1]);
    const trump = !view.trump ? _("level {level}, trump not yet fixed", {level: view.level})
      : view.trump.no_trump ? _("level {level}, no trump", {level: view.trump.level})
        : _("level {level}, trump {suit}", {level: view.trump.level, suit: Cards.suitSymbol(view.trump.suit)});
    const parts = [el("div", {class: "info"}, trump, " · ", term("phase", view.phase), " · ",
                      _("defenders' points {points}", {points: String(view.defender_points ?? 0)}))];
    if (trick) {
      const done = trick !== view.current_trick;
      parts.push(el("div", {class: "trick-title"}, done
        ? said(_("Trick {n} (last, won by {seat}, {points} points)"),
               {n: trick.trick, seat: seatLabel(trick.winner), points: trick.points})
        : _("Trick {n}", {n: trick.trick})));
      parts.push(trickPlays(trick, view, marks));
      if (trick.throw) {
        parts.push(el("div", {class: "irregular"}, "⚠ " + _("failed throw: {throw}", {throw: described(trick.throw)})));
      }
    } else {
      parts.push(el("div", {class: "trick-title quiet"}, _("No trick yet")));
    }
    return el("div", {class: "trick-area", "aria-label": _("the trick")}, parts);
  }

  function guandanCentre(view) {
    const marks = Cards.guandanMarks(view.wildcard, view.level);
    const trick = view.current_trick || (view.tricks && view.tricks[view.tricks.length - 1]);
    const parts = [el("div", {class: "info"}, view.level_team
                        ? _("level {level} ({side})", {level: view.level, side: term("side", view.level_team)})
                        : _("level {level}", {level: view.level}),
                      " · ", _("wildcard"), " ",
                      view.wildcard ? Cards.card(view.wildcard, marks) : "—", " · ", term("phase", view.phase),
                      view.order && view.order.length
                        ? [" · ", said(_("out: {seats}"), {seats: joined(view.order.map(seatLabel))})] : "")];
    if (trick) {
      const done = trick !== view.current_trick;
      parts.push(el("div", {class: "trick-title"}, done
        ? said(_("Trick {n} (last, won by {seat})"), {n: trick.trick, seat: seatLabel(trick.winner)})
        : _("Trick {n}", {n: trick.trick}), trick.jiefeng ? " · " + _("接风") : ""));
      parts.push(trickPlays(trick, view, marks));
    } else {
      parts.push(el("div", {class: "trick-title quiet"}, _("No play yet")));
    }
    return el("div", {class: "trick-area", "aria-label": _("the trick")}, parts);
  }

  function tileCentre(view) {
    const parts = [el("div", {class: "info"}, _("round wind {wind}", {wind: Cards.windName(view.round_wind) || "—"}),
                      " · ", _("wall {count}", {count: String(view.wall_count ?? "—")}), " · ",
                      term("phase", view.phase))];
    const w = view.claim_window;
    if (w) {
      parts.push(el("div", {class: "claim-window"},
                    said(_("{seat} discarded {tile}"), {seat: seatLabel(w.discarder), tile: Cards.tile(w.tile)}),
                    (w.claims || []).length ? el("ul", {}, w.claims.map(c => el("li", {
                      class: c.irregular ? "irregular" : null},
                      said(CLAIMS[c.kind] || "{seat} " + c.kind + " {tiles}",
                           {seat: seatLabel(c.seat), tiles: Cards.tiles(c.tiles || [])}),
                      c.irregular ? " ⚠ " + _("irregular") : ""))) : " — " + _("no claim yet")));
    }
    for (const win of view.wins || []) {
      parts.push(el("div", {class: "win"}, said(_("{seat} wins on {tile}"), {seat: seatLabel(win.seat), tile: Cards.tile(win.tile)}),
                    " ", win.self_drawn ? _("(self-drawn)") : said(_("({seat}'s discard)"), {seat: seatLabel(win.discarder)}),
                    win.value ? " · " + valueWords(win.value) : ""));
    }
    const ex = view.exchange;
    if (ex && ex.selections && view.phase === "exchange") {
      const direction = DIRECTIONS[ex.direction] || (ex.direction
        ? _("换三张 (direction {direction})", {direction: ex.direction}) : _("换三张 (direction not yet thrown)"));
      parts.push(el("div", {class: "claim-window"}, direction,
                    el("ul", {}, ex.selections.map((tiles, seat) => el("li", {},
                      said(_("{seat} passes {tiles}"), {seat: seatLabel(seat), tiles: Cards.tiles(tiles, 3)}))))));
    }
    if (view.ruling) {
      parts.push(el("div", {class: "irregular"}, "⚠ " + _("awaiting a ruling: {ruling}", {ruling: described(view.ruling)})));
    }
    return el("div", {class: "trick-area tiles-centre"}, parts);
  }

  // --- below the table ------------------------------------------------------------------------------
  function panel(title, content, id) {
    return el("section", {class: "panel", dataset: {panel: id || title}}, el("h2", {}, title), content);
  }

  function list(items, render) {
    return items && items.length ? el("ul", {}, items.map(x => el("li", {}, render(x)))) : null;
  }

  /* Terms and values: [label, value] pairs, or an object of the API (its keys, as field names). */
  function kv(entries) {
    const pairs = Array.isArray(entries) ? entries
      : Object.entries(entries).map(([k, v]) => [k.replaceAll("_", " "), v]);
    return el("dl", {class: "kv"}, pairs.filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [el("dt", {}, k), el("dd", {}, short(v))]));
  }

  // --- results, tribute and ledger in words -----------------------------------------------------------
  /* "seat 2 (王五)": a seat with the player sitting there. */
  function seatName(view, seat) {
    return seatOf(view.seats, seat);
  }

  /* "side A (王五, 赵六)": a side with its players. */
  function sideName(view, side) {
    const players = (view.seats || []).filter(x => x.side === side).map(x => x.player).filter(Boolean);
    return players.length ? said(_("{side} ({players})"), {side: term("side", side), players: joined(players.map(name))})
      : term("side", side);
  }

  /* A sentence of several pieces, ended as the language ends one ("…." / "…。"). */
  function sentence(...pieces) {
    return said(_("{sentence}."), {sentence: pieces});
  }

  /* A hand's result row in sentences: who went up and how far, the defenders' points (SJ2,
     SJ3), who won the hand and the A attempts (GD). */
  function resultWords(view, r) {
    const lines = [];
    let up = false;
    if (r.winning_team) {
      lines.push(sentence(said(_("{side} won the hand"), {side: cap(sideName(view, r.winning_team))}),
                          r.double_down ? _(", both of the other side last (双下)") : "",
                          view.order && view.order.length
                            ? said(_("; out in order: {seats}"), {seats: joined(view.order.map(x => seatName(view, x)))})
                            : ""));
    }
    if (Number.isInteger(r.final_points)) {
      const defenders = r.dealer_side ? (r.dealer_side === "A" ? "B" : "A") : null;
      lines.push(sentence(defenders
        ? said(_("The defenders, {side}, took {points} points"), {side: sideName(view, defenders), points: r.final_points})
        : _("The defenders took {points} points", {points: r.final_points}),
        r.raw_points !== r.final_points ? _(" ({raw} before adjustments)", {raw: r.raw_points}) : "",
        r.kitty_captured ? _(", the kitty's {kitty} captured ×{multiplier}",
                             {kitty: r.kitty_points, multiplier: r.multiplier}) : ""));
    }
    for (const side of Object.keys(r.levels || {})) {
      const before = (r.levels_before || {})[side], after = r.levels[side];
      if (before === undefined || before === after) continue;
      const by = r.result && Number.isInteger(r.result.levels) && r.leveling_side === side ? r.result.levels
        : Number.isInteger(r.upgrade) && r.winning_team === side ? r.upgrade : null;
      const who = cap(sideName(view, side));
      lines.push(sentence(by
        ? said(_("{side} up {levels}: {before} → {after}"), {
          side: who, levels: by === 1 ? _("{n} level", {n: by}) : _("{n} levels", {n: by}), before, after})
        : said(_("{side} up: {before} → {after}"), {side: who, before, after})));
      up = true;
    }
    if (r.levels && !up) lines.push(_("No side went up."));
    for (const [side, n] of Object.entries(r.a_failures || {})) {
      if (n) {
        lines.push(sentence(said(_("{side} has failed at A {times}"), {
          side: cap(sideName(view, side)), times: n === 1 ? _("{n} time", {n}) : _("{n} times", {n})})));
      }
    }
    if (r.game_winner) {
      lines.push(sentence(said(_("{side} won the match"), {side: cap(sideName(view, r.game_winner))})));
    }
    return lines;
  }

  function cardWords(code) {
    return code ? _("{name} ({code})", {name: Cards.cardText(code), code}) : _("a card not yet shown");
  }

  /* GD-7: who pays tribute to whom, anti-tribute, the returns. */
  function tributeWords(view, t) {
    const lines = [];
    for (const shown of t.big_jokers_shown || []) {
      lines.push(sentence(said(_("{seat} shows {jokers}: no tribute (anti-tribute, GD-7.5)"), {
        seat: cap(seatName(view, shown.seat)),
        jokers: shown.count === 1 ? _("{n} big joker", {n: shown.count}) : _("{n} big jokers", {n: shown.count})})));
    }
    for (const paid of t.paid || []) {
      const seat = cap(seatName(view, paid.seat)), card = cardWords(paid.card);
      lines.push(sentence(paid.to !== null && paid.to !== undefined
        ? said(_("{seat} pays tribute {card} to {to}"), {seat, card, to: seatName(view, paid.to)})
        : said(_("{seat} pays tribute {card}"), {seat, card})));
    }
    for (const ret of t.returns || []) {
      const seat = cap(seatName(view, ret.seat)), to = seatName(view, ret.to);
      lines.push(sentence(ret.made
        ? said(_("{seat} returns {card} to {to}"), {seat, card: cardWords(ret.card), to})
        : said(_("{seat} has still to return a card to {to}"), {seat, to})));
    }
    if (t.awaiting_assignment) lines.push(_("The tributes are paid; who receives which is to be assigned."));
    if (!lines.length) {
      lines.push(!t.case || t.case === "none" ? _("No tribute this hand.")
        : (TRIBUTE_CASES[t.case] || _("Tribute: {case}.")).replace("{case}", term("tribute", t.case)));
    }
    return lines;
  }

  /* MJS-6: a win's value in words: its pattern and fans as the glossary names them, the fan
     and the points ("碰碰胡、自摸1番：共2番，8分"). */
  function valueWords(value) {
    const fans = Object.entries(value.fans || {}).map(([fan, n]) => _("{fan} {n}", {fan: term("fan", fan), n}));
    return _("{pattern}; {fans}: fan {fan}, {points} points", {
      pattern: term("fan", value.pattern), fans: fans.length ? joined(fans).join("") : _("no fan"),
      fan: value.fan, points: value.points});
  }

  /* MJS: each payment of the ledger, who pays whom, how much and why. */
  function paymentWords(view, p) {  // the API names a payment's seats from and to
    const payer = cap(seatName(view, p.from));
    return [p.to === null || p.to === undefined
      ? said(_("{payer} pays {amount}"), {payer, amount: p.amount})
      : said(_("{payer} pays {amount} to {payee}"), {payer, amount: p.amount, payee: seatName(view, p.to)}),
            " — " + term("payment", p.reason) + (p.rule ? " (" + p.rule + ")" : "") + (p.note ? ": " + p.note : "")];
  }

  function words(lines) {
    return el("div", {class: "in-words"}, lines.map(line => el("p", {}, line)));
  }

  function renderDetails(view) {
    const panels = [];
    const issues = [...notesOf(view).values()];
    if (issues.length) {
      panels.push(panel(_("Irregularities in this hand so far"),
                        el("ul", {class: "notes"}, issues.map(n => el("li", {class: "issue"}, "⚠ ", noteText(n)))),
                        "irregularities"));
    }
    if (s.family === "shengji") {
      if (view.kitty) {
        panels.push(panel(_("Kitty"), el("div", {}, Cards.cards(view.kitty.cards, Cards.shengjiTrump(view.trump, view.level),
                                                                  view.kitty.size)), "kitty"));
      }
      if (view.tricks && view.tricks.length) {
        const columns = [["trick", _("trick")], ["leader", _("leader")], ["plays", _("plays")],
                         ["winner", _("winner")], ["points", _("points")]];
        panels.push(panel(_("Tricks"), Paiju.table(view.tricks, columns,
          (key, value) => key === "plays" ? el("span", {}, value.map(p => el("span", {class: "tplay"},
            seatLabel(p.seat), " ", Cards.cards(p.cards), p.flagged ? " ⚠" + (p.flagged.rule || "") : ""))) : undefined), "tricks"));
      }
    }
    if (s.family === "guandan" && view.tribute) panels.push(panel(_("Tribute"), words(tributeWords(view, view.tribute)), "tribute"));
    if (s.family === "mahjong" && view.ledger && view.ledger.length) {
      panels.push(panel(_("Ledger"), el("ul", {class: "in-words"}, view.ledger.map(p => el("li", {}, paymentWords(view, p)))), "ledger"));
    }
    if (view.result) {
      // in words first; the row itself below, for the committee's checks
      panels.push(panel(_("Result"), typeof view.result === "object"
        ? [words(resultWords(view, view.result)), el("details", {}, el("summary", {}, _("the result row")), kv(view.result))]
        : el("p", {}, String(view.result)), "result"));
    }
    if (s.family === "mahjong" && view.balances) {
      panels.push(panel(_("Balances"), kv([[_("before"), view.balances_before], [_("payments"), view.payments],
                                           [_("after"), view.balances]]), "balances"));
    }
    fill(byId("details"), panels);
  }

  function renderCommittee() {
    const panels = [];
    const jump = positions => positions.map(p => {
      const i = s.steps.findIndex(step => step.position === p);
      return i < 0 ? "#" + p + " " : el("button", {type: "button", class: "link", onclick: () => show(i)}, "#" + p);
    });
    if (s.disputes.length) {
      panels.push(panel(_("Disputes"), list(s.disputes, d => [
        el("strong", {}, (d.dispute_id || _("dispute")) + " · " + statusWord(d.status)), " ",
        d.claim || "", " — ", _("positions"), " ", jump(d.positions),
        d.resolution ? el("div", {}, resolutionWords(d.resolution)) : null]), "disputes"));
    }
    if (s.rulings.length) {
      panels.push(panel(_("Rulings"), list(s.rulings, r => [
        el("button", {type: "button", class: "link", onclick: () => show(s.steps.findIndex(x => x.position === r.position))},
           "#" + r.position), " ", el("strong", {}, r.status ? statusWord(r.status) : ""), " ", r.text || "",
        el("ul", {}, (r.effects || []).map(e => el("li", {}, effectText(e))))]), "rulings"));
    } else if ((s.match.rulings || []).length) {
      panels.push(panel(_("Rulings"), list(s.match.rulings, r => [r.text || "", " ", short(r.effects || r.effect)]), "rulings"));
    }
    if (s.flags.length) {
      panels.push(panel(_("Made illegal by a ruling"), list(s.flags, f => [
        jump([f.position]), " " + (f.type ? eventWord(f.type) : "") + " — " + (f.rule || "") + ": " + (f.message || "")]),
                        "flags"));
    }
    fill(byId("committee"), panels);
  }

  /* How a dispute was resolved: the committee's text, who resolved it and when. */
  function resolutionWords(res) {
    if (!res || typeof res !== "object" || !res.text) return _("resolution: {resolution}", {resolution: described(res)});
    return said(_("resolution: {text} — {who}, {when}"), {text: res.text, who: who(res.by), when: Paiju.when(res.at)});
  }

  // --- hands of the match, and reading without the log ---------------------------------------------------
  function handLinks(numbers) {
    numbers.sort((a, b) => a - b);
    fill(byId("hands"), _("Hands:"), " ", numbers.map(n => n === handNo
      ? el("strong", {class: "hand-link current", "aria-current": "page"}, String(n))
      : el("a", {class: "hand-link", href: replayUrl(mid, n)}, String(n))));
  }

  /* Without the log's data the steps say little: the hand as it stands (its last view). */
  async function withoutLog(replay) {
    handLinks(handNumbers());
    byId("controls").hidden = true;
    const shown = [...replay.steps].reverse().find(step => step.view);
    if (!shown) throw new Error(_("hand {n} of match {mid} is not shown to this token", {n: handNo, mid}));
    const r = {body: shown.view};
    renderTable(r.body);
    renderDetails(r.body);
    renderCommittee();
    status(_("Stepping through the events needs a token that may read the log (committee, referee, auditor, admin): the hand is shown as it stands."), "warn");
  }
})();
