// The game page: one seat's view (?seat=N), or hot seat (?hotseat=1: the table's view,
// a person's hand shown only once they ask), or a spectator's. The board comes drawn
// from the server; what the decision's options name on it is made clickable.
"use strict";
const id = location.pathname.split("/").pop();
const query = new URLSearchParams(location.search);
const hotseat = query.has("hotseat");
const seat = query.has("seat") ? Number(query.get("seat")) : null;
let revealed = null;   // hot seat: the seat whose hidden things are shown
let view = null;
let poll = null;
let renders = 0;       // counted on <body data-renders>, so that a test can wait for the next one
const $ = (sel) => document.querySelector(sel);

function asker() { return hotseat ? revealed : seat; }

async function load() {
  clearTimeout(poll);
  const s = asker();
  const answer = await fetch("/api/games/" + id + (s === null ? "" : "?seat=" + s));
  const data = await answer.json();
  if (!answer.ok) { $("#status").textContent = data.error; $("#status").className = "error"; return; }
  view = data;
  render();
}

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function render() {
  document.title = view.title + " — Frontier";
  $("#title").textContent = view.title + " (seed " + view.seed + ", step " + view.steps + ")";
  const seats = $("#seats"); seats.textContent = "";
  view.names.forEach((name, i) => {
    const a = el("a", name + ": " + view.seats[i]);
    a.href = "/game/" + id + "?seat=" + i;
    if (i === seat) a.className = "me";
    seats.append(a, " ");
  });
  $("#trace-link").href = "/api/games/" + id + "/trace";
  $("#board").innerHTML = view.html;
  renderStatus();
  renderDecision();
  const log = $("#log"); log.textContent = "";
  for (const line of view.log) log.appendChild(el("li", line));
  log.scrollTop = log.scrollHeight;
  const undo = $("#undo");
  undo.disabled = !view.undo.allowed || !view.decision;
  undo.title = view.undo.reason ?? "take back your last decision";
  if (!view.outcome && !view.decision && !(hotseat && view.decider_is_human)) poll = setTimeout(load, 1000);
  document.body.dataset.renders = String(++renders);
}

function renderStatus() {
  const status = $("#status"); status.textContent = ""; status.className = "";
  if (view.outcome) {
    status.appendChild(el("h3", "Game over — winner" + (view.outcome.winners.length > 1 ? "s: " : ": ") + view.outcome.winners.join(", ")));
    const table = el("table"); table.id = "final-scores";
    const head = el("tr"); head.append(el("th", "rank"), el("th", "player"), el("th", "score")); table.appendChild(head);
    const order = view.names.map((_, i) => i).sort((a, b) => view.outcome.ranks[a] - view.outcome.ranks[b]);
    for (const i of order) {
      const tr = el("tr"); tr.append(el("td", String(view.outcome.ranks[i])), el("td", view.names[i]), el("td", String(view.outcome.scores[i])));
      table.appendChild(tr);
    }
    status.appendChild(table);
    return;
  }
  if (view.decider === null) return;
  const who = view.names[view.decider];
  if (hotseat && view.decider_is_human && revealed !== view.decider) {
    status.appendChild(el("p", who + " decides. Pass the screen to " + who + "."));
    const show = el("button", "Show " + who + "'s hand and decide"); show.id = "show-hand";
    show.addEventListener("click", () => { revealed = view.decider; load(); });
    status.appendChild(show);
  } else if (!view.decision) {
    status.appendChild(el("p", who + " (" + view.seats[view.decider] + ") is deciding…"));
  }
}

function renderDecision() {
  const box = $("#decision"); box.textContent = "";
  const d = view.decision;
  if (!d) return;
  box.appendChild(el("div", d.prompt, "prompt"));
  const list = el("div", undefined, "options");
  const byKey = new Map();
  for (const o of d.options) {
    const b = el("button", o.label, "option");
    b.dataset.index = o.index;
    if (o.details) b.appendChild(el("span", o.details, "details"));
    b.addEventListener("click", () => choose(o.index));
    list.appendChild(b);
    for (const k of o.keys) { if (!byKey.has(k)) byKey.set(k, []); byKey.get(k).push(o.index); }
  }
  box.appendChild(list);
  for (const [key, indexes] of byKey) {
    for (const target of document.querySelectorAll('#board [data-key="' + CSS.escape(key) + '"]')) {
      target.classList.add("pick");
      target.addEventListener("click", (event) => {
        event.stopPropagation();
        if (indexes.length === 1) { choose(indexes[0]); return; }
        // Several options name it (a card placed upright or turned): keep only those.
        for (const b of list.querySelectorAll("button.option")) b.classList.toggle("hidden-option", !indexes.includes(Number(b.dataset.index)));
        if (!box.querySelector("#show-all")) {
          const all = el("button", "show every option"); all.id = "show-all";
          all.addEventListener("click", () => { for (const b of list.querySelectorAll("button.option")) b.classList.remove("hidden-option"); all.remove(); });
          box.appendChild(all);
        }
      });
    }
  }
}

async function post(path, body) {
  const answer = await fetch("/api/games/" + id + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await answer.json();
  if (!answer.ok) { $("#status").textContent = data.error; $("#status").className = "error"; return null; }
  return data;
}

async function choose(index) {
  for (const b of document.querySelectorAll("#decision button")) b.disabled = true;
  const data = await post("/choice", { seat: asker(), option: index, steps: view.steps });
  if (!data) { load(); return; }
  if (hotseat) { revealed = null; load(); return; }
  view = data; render();
}

$("#undo").addEventListener("click", async () => {
  const data = await post("/undo", { seat: asker() });
  if (data) { view = data; render(); }
});

document.addEventListener("keydown", (event) => {
  if (event.key === "u" && !$("#undo").disabled && event.target === document.body) $("#undo").click();
});

load();
