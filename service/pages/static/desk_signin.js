/* The desk's sign-in page (/desk/signin): a one-time code from the link's fragment
   (#code=ABCD-EFGH, which the browser never sends to a server; taken out of the address bar at
   once) or typed in the box, exchanged for the browser's session (POST /v1/sessions), then on
   to `next` — the page the desk's gate sent the visitor from — or the desk's home. A tab
   opened with #token= opens its session with that token instead. The server's refusal (an
   unknown, used or expired code, or one of another tournament) is shown beside the box. */
"use strict";

const DeskSignIn = (() => {
  const {_, byId, hashParams, setHash, status} = Paiju;
  const form = byId("sign-in"), input = byId("code"), button = byId("sign-in-button");
  const asked = new URLSearchParams(location.search).get("next");

  /* Where to go once signed in: `next` if it is a page of this site's desk or pages. */
  function next() {
    return asked && /^\/(desk|pages)(\/|$)/.test(asked) ? asked : "/desk/";
  }

  /* On to the page asked for. The promise never settles: this page is never marked ready (a
     test waiting for the next page's data-ready must not see this one's). */
  function goOn() {
    location.replace(next());
    return new Promise(() => {});
  }

  /* The tournament of the page asked for: a code of another tournament is refused. */
  function tournamentOfNext() {
    const found = /^\/desk\/t\/([^/?#]+)/.exec(next());
    return found ? decodeURIComponent(found[1]) : null;
  }

  async function signIn(code) {
    const body = {code: code.trim()};
    const tid = tournamentOfNext();
    if (tid) body.tournament_id = tid;
    status(_("Signing in…"));
    const r = await PaijuDesk.send("POST", "/v1/sessions", body);
    if (r.status === 201) return goOn();
    status("");
    PaijuDesk.showProblem(form, r.body);
    input.focus();
    return false;
  }

  function takeCodeFromHash() {
    const params = hashParams();
    const code = params.get("code");
    params.delete("code");
    setHash(params);  // out of the address bar, the history and any copied link
    return code;
  }

  Paiju.run(async () => {
    const code = takeCodeFromHash();
    form.addEventListener("submit", event => {
      event.preventDefault();
      PaijuDesk.busy(button, () => signIn(input.value));
    });
    if (code) {
      input.value = code;
      return PaijuDesk.busy(button, () => signIn(code));
    }
    if (Paiju.token() && (await PaijuDesk.send("POST", "/v1/sessions", {})).status === 201) {
      return goOn();  // a page opened with #token=: that token's session
    }
    // signed in already (a link to the desk followed from another site comes without the
    // cookie, SameSite=Strict, and is sent here): on to the page asked for
    if (asked && await PaijuDesk.session()) return goOn();
    status("");
    input.focus();
  });
  return {next};
})();
