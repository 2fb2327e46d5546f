/* paiju pages: what every page shares — the bearer token, reading the API, building the DOM.

   The token comes in the URL fragment (#token=pj_…), which the browser never sends to a server;
   it is moved at once to this tab's sessionStorage and out of the address bar, and sent only as
   an Authorization header to this same host. Every text from the API is put in the page as
   text (textContent), never as HTML. */
"use strict";

const Paiju = (() => {
  const TOKEN_KEY = "paiju.token";
  const body = document.body;
  const tid = body.dataset.tid;

  // --- the reader's language (service/i18n.py): the page comes with its words -----------------
  const WORDS = JSON.parse(document.getElementById("paiju-words").textContent);
  const lang = WORDS.language;  // "zh" or "en"

  /* A sentence of the catalogue `pages` in the page's language, its {name} blanks filled:
     _("round {n}", {n: 3}). `make i18n` extracts every _("…") of the scripts. */
  function _(text, params) {
    const said = WORDS.messages[text] || text;
    if (!params) return said;
    return said.replace(/\{(\w+)\}/g, (blank, name) => name in params ? String(params[name]) : blank);
  }

  /* A term of the games (rules/glossary.py) in the page's language: term("event",
     "TrumpDeclared"); the key itself where the glossary has no word for it. */
  function term(kind, key) {
    const table = WORDS.terms[kind];
    return table && key in table ? table[key] : key;
  }

  /* A moment of the API (ISO 8601, UTC) in the reader's language, in the tournament's time
     zone (its time_zone, named after the time) or, where it has none, the reader's own. */
  let zone = null;
  function when(iso, options) {
    if (!iso) return "—";
    const moment = new Date(iso);
    if (Number.isNaN(moment.getTime())) return String(iso);
    const style = options || {dateStyle: "medium", timeStyle: "medium"};
    const inZone = zone ? {...style, timeZone: zone} : style;
    let said;
    try {
      said = new Intl.DateTimeFormat(WORDS.tag, inZone).format(moment);
    } catch (error) {  // a zone this browser does not know: the reader's own
      return new Intl.DateTimeFormat(WORDS.tag, style).format(moment);
    }
    return zone && !options ? said + " (" + zone + ")" : said;
  }

  /* Names compared as the reader's language sorts them (pinyin order for Chinese names). */
  const collator = new Intl.Collator(WORDS.tag === "en" ? "en" : "zh-Hans-u-co-pinyin",
                                     {numeric: true});
  function byName(a, b) { return collator.compare(String(a), String(b)); }

  // --- the URL fragment: token, position, step ------------------------------------------------
  function hashParams() {
    return new URLSearchParams(location.hash.replace(/^#/, ""));
  }

  function setHash(params) {
    const text = params.toString();
    history.replaceState(null, "", location.pathname + location.search + (text ? "#" + text : ""));
  }

  function takeTokenFromHash() {
    const params = hashParams();
    if (!params.has("token")) return;
    const secret = params.get("token").trim();
    if (secret) sessionStorage.setItem(TOKEN_KEY, secret);
    params.delete("token");
    setHash(params);  // out of the address bar, the history and any copied link
  }

  function token() {
    return sessionStorage.getItem(TOKEN_KEY);
  }

  // --- the API ----------------------------------------------------------------------------------
  const base = "/v1/tournaments/" + encodeURIComponent(tid);

  /* GET a path of the API (absolute, or relative to the tournament): {status, body}. */
  async function get(path, query) {
    const full = path.startsWith("/") ? path : (path ? base + "/" + path : base);
    const url = new URL(full, location.origin);
    for (const [key, value] of Object.entries(query || {})) {
      if (value !== null && value !== undefined) url.searchParams.set(key, value);
    }
    const headers = {Accept: "application/json", "Accept-Language": WORDS.tag};
    const secret = token();
    if (secret) headers.Authorization = "Bearer " + secret;
    // the desk's session cookie rides along (same origin only); an Authorization header wins
    const ask = asPublic => fetch(url.pathname + url.search, {
      headers, cache: "no-store", credentials: asPublic ? "omit" : "same-origin"});
    let response = await ask(false);
    if (response.status === 403 || (secret && response.status === 401)) {
      // the tab's token (or the desk's session) is another tournament's, or revoked: what the
      // public may read of this one is still shown; the refusal stays if the public may not
      delete headers.Authorization;
      const asPublic = await ask(true);
      if (asPublic.status === 200) response = asPublic;
    }
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    return {status: response.status, body: data};
  }

  /* The JSON of a read that must succeed; throws an Error with the problem's detail. */
  async function need(path, query) {
    const r = await get(path, query);
    if (r.status !== 200) throw new ApiError(path, r);
    return r.body;
  }

  /* Every item of a paged read, page after page (the API's `next`): the list in member `key`
     of each answer; `what` names the read in an error. */
  async function everyPage(path, key, what) {
    const items = [];
    while (path) {
      const r = await get(path);
      if (r.status !== 200) throw new ApiError(what, r);
      items.push(...r.body[key]);
      path = r.body.next;
    }
    return items;
  }

  class ApiError extends Error {
    constructor(path, r) {
      const detail = r.body && r.body.detail ? r.body.detail : "HTTP " + r.status;
      super(detail);
      this.status = r.status;
      this.path = path;
    }
  }

  // --- the DOM ----------------------------------------------------------------------------------
  /* el("div", {class: "x", title: "y", dataset: {card: "QH"}, onclick: f}, child, "text", …) */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    append(node, children);
    return node;
  }

  function append(node, children) {
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function fill(node, ...children) {
    node.replaceChildren();
    return append(node, children);
  }

  function byId(id) { return document.getElementById(id); }

  function status(text, kind) {
    const line = byId("status");
    line.textContent = text || "";
    line.className = "status" + (kind ? " " + kind : "");
    line.hidden = !text;
  }

  /* A value of the API as short text: scalars as they are, lists and objects compactly. */
  function short(value) {
    if (value === null || value === undefined) return "—";
    if (typeof value === "boolean") return value ? _("yes") : _("no");
    if (typeof value !== "object") return String(value);
    if (Array.isArray(value)) return value.map(short).join(", ");
    return Object.entries(value).map(([k, v]) => k + ": " + short(v)).join("; ");
  }

  /* A table of rows (objects): the columns given — each a key, or [key, label] — or every
     scalar-ish key of the rows. A column without a label is headed by its key as a sentence of
     the catalogue ("team_id": _("team id")). */
  function table(rows, columns, render) {
    const given = columns || [...new Set(rows.flatMap(Object.keys))];
    const keys = given.map(c => Array.isArray(c) ? c[0] : c);
    const labels = given.map(c => Array.isArray(c) ? c[1] : _(c.replaceAll("_", " ")));
    const head = el("tr", {}, labels.map(label => el("th", {scope: "col"}, label)));
    const lines = rows.map(row => el("tr", {}, keys.map(k => {
      const shown = render && render(k, row[k], row);
      return el("td", {dataset: {col: k}}, shown === undefined ? short(row[k]) : shown);
    })));
    return el("table", {class: "grid"}, el("thead", {}, head), el("tbody", {}, lines));
  }

  function pageUrl(rest, of) {
    return "/pages/tournaments/" + encodeURIComponent(of || tid) + (rest ? "/" + rest : "");
  }

  /* The pages a tournament of `format` has (T-1.1): its knockout bracket, groups of four or
     team-event rounds, then its standings and disputes. */
  const FORMAT_PAGE = {knockout: ["bracket", _("Bracket")], groups: ["groups", _("Groups")],
                       "swiss-teams": ["rounds", _("Rounds")]};
  function pagesOf(format, of) {
    const own = FORMAT_PAGE[format];
    return [own, ["standings", _("Standings")], ["disputes", _("Disputes")]].filter(Boolean)
      .map(([rest, label]) => ({page: rest, label, href: pageUrl(rest, of)}));
  }

  /* The navigation shows only the pages the tournament's format has. */
  function navFor(format) {
    for (const link of document.querySelectorAll("[data-nav][data-formats]")) {
      link.hidden = !link.dataset.formats.split(" ").includes(format) &&
        link.dataset.nav !== body.dataset.page;
    }
  }

  function replayUrl(mid, hand, position) {
    return pageUrl("matches/" + encodeURIComponent(mid) + "/hands/" + hand + "/replay") +
      (position ? "#pos=" + position : "");
  }

  /* The tournament (public), with a name for each entrant. */
  let tournamentPromise = null;
  function tournament() {
    tournamentPromise = tournamentPromise || need("").then(t => {
      t.names = Object.fromEntries((t.teams || []).map(x => [x.team_id, x.name || x.team_id]));
      zone = t.time_zone || null;
      navFor(t.format);
      return t;
    });
    return tournamentPromise;
  }

  function teamName(t, id) {
    if (id === null || id === undefined) return "—";
    const name = t.names[id];
    return name && name !== id ? name + " (" + id + ")" : String(id);
  }

  /* The `at` of a tournament-wide read, from #at=P (the bracket or standings as they were). */
  function at() {
    const value = hashParams().get("at");
    return value && /^\d+$/.test(value) ? value : null;
  }

  // --- live: the tournament's subscription (GET …/subscribe) ------------------------------------
  /* Calls `changed(frame)` for each event after position `after` that the subscription (with the
     filters of `query`) carries, as it commits; after an `end` (the node stopping), an
     `overflow` or a lost connection, connects again with Last-Event-ID, so no event is missed.
     fetch, not EventSource: EventSource cannot send the token's Authorization header. */
  function follow(query, after, changed) {
    let last = after;
    const url = base + "/subscribe" + (query ? "?" + new URLSearchParams(query) : "");
    let asPublic = false;  // the tab's token was refused here: follow what the public sees
    const connect = async () => {
      const headers = {Accept: "text/event-stream"};
      const secret = asPublic ? null : token();
      if (secret) headers.Authorization = "Bearer " + secret;
      if (last !== null && last !== undefined) headers["Last-Event-ID"] = String(last);
      try {
        const response = await fetch(url, {headers, cache: "no-store", credentials: "omit"});
        if ((response.status === 401 || response.status === 403) && secret) {
          asPublic = true;  // another tournament's token, or a revoked one
          setTimeout(connect, 0);
          return;
        }
        if (response.status === 401 || response.status === 403) {
          live(_("not following live: this page needs a token"), false);
          return;  // asking again would be refused again
        }
        if (response.status !== 200) throw new ApiError("subscribe", {status: response.status});
        live(_("following live"), true);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const {value, done} = await reader.read();
          if (done) break;
          buffer = (buffer + value).replace(/\r\n/g, "\n");
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const frame = sseFrame(buffer.slice(0, cut));
            buffer = buffer.slice(cut + 2);
            if (frame.id !== null) last = frame.id;
            if (frame.data !== null && frame.event === null) changed(frame);
          }
        }
      } catch (error) {
        console.warn("subscription:", error);
      }
      live(_("reconnecting…"), false);
      setTimeout(connect, 2000);
    };
    connect();
  }

  function sseFrame(block) {
    const frame = {id: null, event: null, data: null};
    for (const line of block.split("\n")) {
      if (!line || line.startsWith(":")) continue;
      const at = line.indexOf(":");
      const name = at < 0 ? line : line.slice(0, at), value = at < 0 ? "" : line.slice(at + 1).replace(/^ /, "");
      if (name === "id") frame.id = Number(value);
      else if (name === "event") frame.event = value;
      else if (name === "data") frame.data = JSON.parse(value);
    }
    return frame;
  }

  function live(text, on) {
    const line = byId("live");
    if (!line) return;
    line.textContent = text;
    line.className = "live" + (on ? " on" : "");
    line.hidden = false;
  }

  /* The log's end now (GET /v1/health): a page that reads, then follows from here, misses
     nothing that commits in between. */
  async function logEnd() {
    return (await need("/v1/health")).last_position;
  }

  /* A page that redraws when the tournament moves on: `update()` (read and draw again) after
     each event, never two at once; not while the page shows a past position (#at=P). */
  async function redrawLive(query, update) {
    if (at()) return;
    const after = await logEnd();
    let running = false, again = false;
    const run = async () => {
      if (running) { again = true; return; }
      running = true;
      try {
        do {
          again = false;
          tournamentPromise = null;  // entrants and names may have changed too
          await update();
        } while (again);
        body.dataset.redrawn = String(Number(body.dataset.redrawn || 0) + 1);
      } catch (error) {
        console.error(error);
      } finally { running = false; }
    };
    follow(query, after, run);
  }

  // --- the token box ------------------------------------------------------------------------------
  function tokenBox() {
    const state = byId("token-state");
    const show = () => {
      const secret = token();
      state.textContent = secret ? _("token {start}…", {start: secret.slice(0, 6)}) : _("no token");
      state.className = "token-state" + (secret ? " set" : "");
    };
    byId("token-box").addEventListener("submit", event => {
      event.preventDefault();
      const input = byId("token-input");
      if (input.value.trim()) sessionStorage.setItem(TOKEN_KEY, input.value.trim());
      input.value = "";
      location.reload();
    });
    byId("token-forget").addEventListener("click", () => {
      sessionStorage.removeItem(TOKEN_KEY);
      location.reload();
    });
    show();
  }

  /* The language links keep the page's place (#pos=…, #at=…): the choice is only the language. */
  function languageLinks() {
    for (const link of document.querySelectorAll("[data-lang]")) {
      link.addEventListener("click", event => {
        event.preventDefault();
        const url = new URL(location.href);
        url.searchParams.set("lang", link.dataset.lang);
        location.assign(url.pathname + url.search + location.hash);
      });
    }
  }

  function markNav() {
    const page = body.dataset.page;
    for (const link of document.querySelectorAll("[data-nav]")) {
      if (link.dataset.nav === page) link.setAttribute("aria-current", "page");
    }
  }

  /* Runs a page's main function, reporting a failure on the status line; marks the body
     data-ready when the page has drawn what it read (the browser tests wait for it). */
  function run(main) {
    takeTokenFromHash();
    languageLinks();
    tokenBox();
    markNav();
    Promise.resolve().then(main).then(() => {
      body.dataset.ready = "true";
    }, error => {
      console.error(error);
      const hint = error.status === 401 ? _(" — give a token (#token=… or the box above)") : "";
      status((error.message || String(error)) + hint, "error");
      body.dataset.ready = "error";
    });
  }

  return {tid, lang, _, term, when, byName, get, need, everyPage, el, append, fill, byId, status, short, table, pageUrl,
          pagesOf, replayUrl, tournament, teamName, hashParams, setHash, token, at, run, ApiError,
          follow, logEnd, redrawLive};
})();
