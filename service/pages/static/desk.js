/* The desk's shared script, loaded after common.js on every desk page: PaijuDesk.

   A desk page acts through the JSON API like any app. It is signed in by the session cookie
   (HttpOnly: this script never sees the secret), whose writes carry the session's CSRF token
   in X-CSRF-Token (GET /v1/session gives it); a tab given a bearer token (#token=…, kept by
   common.js) sends that too, and the server then judges by the token. */
"use strict";

const PaijuDesk = (() => {
  const {_, el, fill, byId, token} = Paiju;
  const WORDS = JSON.parse(document.getElementById("paiju-words").textContent);
  const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);
  const TOKEN_KEY = "paiju.token";  // common.js keeps the tab's bearer token under this key
  const ROLES = {admin: _("admin"), organiser: _("organiser"), referee: _("referee"),
                 committee: _("committee"), table: _("table"), player: _("player"),
                 auditor: _("auditor")};

  async function readJson(response) {
    try { return await response.json(); } catch (error) { return null; }
  }

  /* The browser's session: the body of GET /v1/session for its cookie, or null (not signed
     in, or the session has ended). Asked once per page; session(true) asks again. */
  let sessionPromise = null;
  function session(fresh) {
    if (fresh || !sessionPromise) {
      sessionPromise = fetch("/v1/session", {
        headers: {Accept: "application/json", "Accept-Language": WORDS.tag},
        credentials: "same-origin", cache: "no-store",
      }).then(r => r.status === 200 ? readJson(r) : null, () => null);
    }
    return sessionPromise;
  }

  /* A request to the API: {status, body} (body null when there is none). `body` is sent as
     JSON, or as it is with options.contentType (a CSV file: "text/csv; charset=utf-8"). */
  async function send(method, path, body, options) {
    const verb = method.toUpperCase(), opts = options || {};
    const headers = {Accept: "application/json", "Accept-Language": WORDS.tag};
    let payload;
    if (body !== undefined && body !== null) {
      headers["Content-Type"] = opts.contentType || "application/json";
      payload = headers["Content-Type"].startsWith("application/json") ? JSON.stringify(body) : body;
    }
    const secret = token();
    if (secret) headers.Authorization = "Bearer " + secret;
    const ask = async fresh => {
      if (UNSAFE.has(verb)) {
        const open = await session(fresh);
        if (open && open.csrf_token) headers["X-CSRF-Token"] = open.csrf_token;
      }
      const response = await fetch(path, {method: verb, headers, body: payload,
                                          credentials: "same-origin", cache: "no-store"});
      return {status: response.status, body: response.status === 204 ? null : await readJson(response)};
    };
    let answer = await ask(false);
    if (answer.status === 403 && answer.body && /:csrf$/.test(answer.body.type || "")) {
      answer = await ask(true);  // signed in again in another tab since: the new session's token
    }
    if (answer.status === 401) sessionPromise = null;  // ended: the next question asks again
    return answer;
  }

  /* A random UUID (crypto.randomUUID needs https or localhost; a desk on the venue's network
     may be served over plain http). */
  function newId() {
    if (crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = [...b].map(x => x.toString(16).padStart(2, "0")).join("");
    return [h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)].join("-");
  }

  /* POST …/events: one event, or a list (one atomic batch). An event without an `id` gets one
     now, kept on the event object itself: build the events once per user action, and the same
     objects posted again (a second click, a retry after a lost answer) store nothing twice —
     the API answers a known id with what it stored. */
  function postEvents(tid, events) {
    const list = Array.isArray(events) ? events : [events];
    for (const event of list) if (!event.id) event.id = newId();
    const path = "/v1/tournaments/" + encodeURIComponent(tid) + "/events";
    return send("POST", path, Array.isArray(events) ? {events: list} : list[0]);
  }

  // --- a refusal beside the field it names ------------------------------------------------------
  function clearProblem(form) {
    for (const field of form.querySelectorAll("[aria-invalid]")) field.removeAttribute("aria-invalid");
    for (const box of form.querySelectorAll(".field-error, .form-error")) box.textContent = "";
  }

  /* The element of `form` for a JSON pointer of the request body: the one whose data-pointer
     is the pointer, else the nearest one above it (/data/settings/rounds/0 → /data/settings/rounds). */
  function fieldFor(form, pointer) {
    for (let path = pointer || ""; path && path !== "/"; path = path.slice(0, path.lastIndexOf("/"))) {
      const found = form.querySelector('[data-pointer="' + CSS.escape(path) + '"]');
      if (found) return found;
    }
    return null;
  }

  function errorBoxOf(field) {
    for (let next = field.nextElementSibling; next; next = next.nextElementSibling) {
      if (next.classList.contains("field-error")) return next;
      if (next.matches("[data-pointer]")) break;
    }
    const box = el("span", {class: "field-error", role: "alert"});
    field.after(box);
    return box;
  }

  function formErrorBox(form) {
    let box = form.querySelector(".form-error");
    if (!box) {
      box = el("p", {class: "form-error", role: "alert"});
      form.prepend(box);
    }
    return box;
  }

  /* Shows a problem (RFC 9457 body of the API) in `form`: each of its `errors` ({path,
     message}), or its own `path` with its detail (a rule's refusal, a refused code), beside the
     field whose data-pointer names it (aria-invalid, the words in the .field-error after it);
     what names no field of the form goes in the form's .form-error box. */
  function showProblem(form, problem) {
    clearProblem(form);
    if (!problem || typeof problem !== "object") {
      formErrorBox(form).textContent = _("The server did not answer as expected; try again.");
      return;
    }
    const errors = Array.isArray(problem.errors) && problem.errors.length ? problem.errors
      : [{path: problem.path, message: problem.detail}];
    const unplaced = [];
    for (const error of errors) {
      const field = fieldFor(form, error.path);
      if (!field) { unplaced.push(error); continue; }
      field.setAttribute("aria-invalid", "true");
      const box = errorBoxOf(field);
      box.textContent = box.textContent ? box.textContent + " " + error.message : error.message;
    }
    if (unplaced.length) {
      const said = unplaced.length === 1 && unplaced[0].message === problem.detail ? [problem.detail]
        : [problem.detail, ...unplaced.map(e => (e.path ? e.path + ": " : "") + e.message)];
      formErrorBox(form).textContent = said.filter(Boolean).join(" — ");
    }
  }

  /* Disables `button` while `promise` (or what `promise()` returns) runs: one click, one
     request. Resolves to what the promise does. */
  async function busy(button, promise) {
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    try {
      return await (typeof promise === "function" ? promise() : promise);
    } finally {
      button.disabled = false;
      button.removeAttribute("aria-busy");
    }
  }

  // --- who is signed in, and signing out --------------------------------------------------------
  function roleWord(role) { return ROLES[role] || role; }

  /* Ends the browser's session (revoked at once), forgets the tab's bearer token, and goes to
     the sign-in page. Sent with the cookie alone: a bearer token ends no session. */
  async function signOut() {
    const open = await session();
    const headers = {Accept: "application/json", "Accept-Language": WORDS.tag};
    if (open && open.csrf_token) headers["X-CSRF-Token"] = open.csrf_token;
    try {
      await fetch("/v1/session", {method: "DELETE", headers, credentials: "same-origin"});
    } finally {
      sessionStorage.removeItem(TOKEN_KEY);
      sessionPromise = null;
      location.assign("/desk/signin");
    }
  }

  async function drawSession() {
    const open = await session();
    for (const link of document.querySelectorAll("[data-desk-roles]")) {
      link.hidden = !open || !link.dataset.deskRoles.split(" ").includes(open.role);
    }
    const box = byId("desk-session");
    if (!box || !open) return;
    fill(byId("desk-who"), el("bdi", {dir: "auto"}, open.actor), " · ", roleWord(open.role),
         open.tournament_id ? [" · ", el("bdi", {dir: "auto"}, open.tournament_id)] : []);
    box.hidden = false;
  }

  const signOutButton = byId("desk-sign-out");
  if (signOutButton) signOutButton.addEventListener("click", () => busy(signOutButton, signOut));
  // the pages outside the desk (replay, disputes) load this script for sending only: no question
  if (byId("desk-session") || document.querySelector("[data-desk-roles]")) drawSession();
  if (document.body.dataset.deskPlain) Paiju.run(() => Paiju.status(""));

  return {session, send, postEvents, showProblem, clearProblem, busy, signOut, roleWord, newId};
})();
