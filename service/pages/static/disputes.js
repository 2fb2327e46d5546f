/* The tournament's disputes (GET …/disputes): open and resolved, each linking to the replay of
   its hand at the disputed position. */
"use strict";

Paiju.run(async () => {
  await showDisputes();
  // a dispute raised or resolved, or a ruling, anywhere in the tournament: drawn again
  Paiju.redrawLive({type: "DisputeRaised,DisputeResolved,RulingRecorded"}, showDisputes);
});

async function showDisputes() {
  const {el, fill, byId, get, tournament, teamName, replayUrl, status, short} = Paiju;
  const t = await tournament();
  fill(byId("title"), "Disputes · " + t.name);
  const root = byId("disputes");
  const r = await get("disputes");
  if (r.status === 404 && !(r.body && /tournament/.test(r.body.detail || ""))) {
    fill(root, el("p", {class: "quiet"}, "This server keeps no dispute list."));
    status("");
    return;
  }
  if (r.status !== 200) throw new Paiju.ApiError("disputes", r);
  const disputes = r.body.disputes || [];
  let shown = "all";
  const draw = () => {
    const rows = disputes.filter(d => shown === "all" || d.status === shown);
    fill(byId("dispute-list"), rows.length ? Paiju.table(rows,
      ["dispute_id", "status", "match_id", "hand", "positions", "claim", "raised_by", "raised_at", "resolution"],
      (key, value, d) => {
        if (key === "status") return el("span", {class: "badge " + value}, value);
        if (key === "positions") {
          return el("span", {}, (value || []).map(p => [el("a", {href: replayUrl(d.match_id, d.hand, p)}, "#" + p), " "]));
        }
        if (key === "match_id" || key === "hand") {
          return el("a", {href: replayUrl(d.match_id, d.hand, (d.positions || [])[0] || d.position)},
                    key === "hand" ? "hand " + value : String(value));
        }
        if (key === "resolution") return value ? short(value) : "—";
        return undefined;
      }) : el("p", {class: "quiet"}, shown === "all" ? "No dispute has been raised." : "No " + shown + " dispute."));
  };
  const filter = name => el("button", {type: "button", "aria-pressed": String(name === shown), dataset: {filter: name},
    onclick: event => {
      shown = name;
      for (const b of root.querySelectorAll("[data-filter]")) b.setAttribute("aria-pressed", String(b.dataset.filter === shown));
      draw();
    }}, name + " (" + (name === "all" ? disputes.length : disputes.filter(d => d.status === name).length) + ")");
  fill(root, el("div", {class: "filters"}, ["all", "open", "resolved"].map(filter)), el("div", {id: "dispute-list"}));
  draw();
  status("");
}
