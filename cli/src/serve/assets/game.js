// The game page: one seat's view (?seat=N#token=T), or hot seat (?hotseat=1#tokens=…: the
// table's view, a person's hand shown only once they ask), or a spectator's. The board
// comes drawn from the server; what the decision's options name on it is made clickable.
// The page follows the game's event stream and reads its view again at each change.
"use strict";
const id = location.pathname.split("/").pop();
const query = new URLSearchParams(location.search);
const hotseat = query.has("hotseat");
const seat = query.has("seat") ? Number(query.get("seat")) : null;
// The seats' secrets, after `#` (never sent to the server in a URL): one seat's token, or
// every person's (whoever created the game).
const secrets = new URLSearchParams(location.hash.slice(1));
const tokens = secrets.has("tokens") ? secrets.get("tokens").split(",") : [];
if (secrets.has("token") && seat !== null) tokens[seat] = secrets.get("token");
let revealed = null;   // hot seat: the seat whose hidden things are shown
let view = null;
let loading = null;    // the read in flight, and whether another is due after it
let again = false;
let renders = 0;       // counted on <body data-renders>, so that a test can wait for the next one
let announced = "";
const $ = (sel) => document.querySelector(sel);

function asker() { return hotseat ? revealed : seat; }

function headers(s) {
  const h = { "content-type": "application/json" };
  if (s !== null && tokens[s]) h["x-seat-token"] = tokens[s];
  return h;
}

async function load() {
  if (loading) { again = true; return loading; }
  loading = (async () => {
    do {
      again = false;
      const s = asker();
      const answer = await fetch("/api/games/" + id + (s === null ? "" : "?seat=" + s), { headers: headers(s) });
      const data = await answer.json();
      if (!answer.ok) { showError(data.error); break; }
      view = data;
      render();
    } while (again);
  })();
  try { await loading; } finally { loading = null; }
}

function showError(message) {
  const status = $("#status");
  status.textContent = message;
  status.className = "error";
  say(message);
}

// The live region: what a screen reader says when the game asks something of this page.
function say(text) {
  if (text === announced) return;
  announced = text;
  $("#announce").textContent = text;
}

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function render() {
  // Hot seat: the screen is hidden again only when another person is to decide.
  if (hotseat && revealed !== null && view.decider !== null && view.decider !== revealed && view.decider_is_human) {
    revealed = null;
    load();
    return;
  }
  document.title = view.title + " — Frontier";
  $("#title").textContent = view.title + " (seed " + view.seed + ", step " + view.steps + ")";
  renderSeats();
  const trace = $("#trace-link");
  trace.hidden = !view.outcome;
  trace.href = "/api/games/" + id + "/trace";
  $("#board").innerHTML = view.html;
  renderStatus();
  renderDecision();
  const log = $("#log"); log.textContent = "";
  log.start = view.log_from + 1;
  for (const line of view.log) log.appendChild(el("li", line));
  log.scrollTop = log.scrollHeight;
  const undo = $("#undo");
  const mine = asker() !== null;
  undo.hidden = !mine;
  undo.disabled = !view.undo.allowed;
  undo.title = view.undo.reason ?? "take back your last decision";
  document.body.dataset.busy = String(view.busy);
  document.body.dataset.decider = view.decider === null ? "" : String(view.decider);
  document.body.dataset.renders = String(++renders);
}

// Who sits where; the creator (who holds every person's token) also gets each person's
// link to hand out.
function renderSeats() {
  const seats = $("#seats"); seats.textContent = "";
  view.names.forEach((name, i) => {
    const who = el("span", name + ": " + view.seats[i], i === seat ? "me" : undefined);
    if (tokens[i] && i !== seat && !hotseat) {
      const link = el("a", "link");
      link.href = "/game/" + id + "?seat=" + i + "#token=" + tokens[i];
      link.title = name + "'s page, to hand to them";
      link.setAttribute("aria-label", name + "'s page, to hand to them");
      who.append(" (", link, ")");
    }
    seats.append(who, " ");
  });
}

function renderStatus() {
  const status = $("#status"); status.textContent = ""; status.className = "";
  if (view.failure) { showError(view.failure); return; }
  if (view.outcome) {
    const text = "Game over — winner" + (view.outcome.winners.length > 1 ? "s: " : ": ") + view.outcome.winners.join(", ");
    status.appendChild(el("h2", text));
    const table = el("table"); table.id = "final-scores";
    table.appendChild(el("caption", "Final scores"));
    const head = el("tr");
    for (const h of ["rank", "player", "score"]) { const th = el("th", h); th.scope = "col"; head.appendChild(th); }
    table.appendChild(head);
    const order = view.names.map((_, i) => i).sort((a, b) => view.outcome.ranks[a] - view.outcome.ranks[b]);
    for (const i of order) {
      const tr = el("tr"); tr.append(el("td", String(view.outcome.ranks[i])), el("td", view.names[i]), el("td", String(view.outcome.scores[i])));
      table.appendChild(tr);
    }
    status.appendChild(table);
    say(text);
    return;
  }
  if (view.decider === null) return;
  const who = view.names[view.decider];
  if (view.thinking !== null) {
    const text = view.names[view.thinking] + " is thinking…";
    status.appendChild(el("p", text, "thinking"));
    return;
  }
  if (hotseat && view.decider_is_human && revealed !== view.decider) {
    status.appendChild(el("p", who + " decides. Pass the screen to " + who + "."));
    const show = el("button", "Show " + who + "'s hand and decide"); show.id = "show-hand";
    show.addEventListener("click", () => { revealed = view.decider; load(); });
    status.appendChild(show);
    say(who + " decides: pass the screen to " + who + ".");
  } else if (!view.decision) {
    status.appendChild(el("p", who + " (" + view.seats[view.decider] + ") is deciding…"));
  }
}

function renderDecision() {
  const box = $("#decision"); box.textContent = "";
  const d = view.decision;
  if (!d) return;
  const prompt = el("h2", d.prompt, "prompt"); prompt.id = "prompt";
  box.appendChild(prompt);
  say(view.names[d.seat] + ", your decision: " + d.prompt + " (" + d.options.length + " options)");
  const list = el("div", undefined, "options");
  list.setAttribute("role", "group");
  list.setAttribute("aria-labelledby", "prompt");
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
      const folded = target.closest("details");
      if (folded) folded.open = true;
      const what = d.options.find((o) => o.index === indexes[0]).label;
      target.setAttribute("role", "button");
      target.setAttribute("tabindex", "0");
      // The name starts with what the element shows (a card's id and text), then the option.
      const shown = target.textContent.replace(/\s+/g, " ").trim();
      const option = indexes.length === 1 ? what : what + " (and " + (indexes.length - 1) + " more)";
      target.setAttribute("aria-label", shown ? shown + ": " + option : option);
      const pick = (event) => {
        event.stopPropagation();
        if (indexes.length === 1) { choose(indexes[0]); return; }
        // Several options name it (a card placed upright or turned): keep only those.
        for (const b of list.querySelectorAll("button.option")) b.classList.toggle("hidden-option", !indexes.includes(Number(b.dataset.index)));
        if (!box.querySelector("#show-all")) {
          const all = el("button", "show every option"); all.id = "show-all";
          all.addEventListener("click", () => { for (const b of list.querySelectorAll("button.option")) b.classList.remove("hidden-option"); all.remove(); });
          box.appendChild(all);
        }
        list.querySelector("button.option:not(.hidden-option)")?.focus();
      };
      target.addEventListener("click", pick);
      target.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); pick(event); } });
    }
  }
}

async function post(path, body) {
  const s = asker();
  const answer = await fetch("/api/games/" + id + path, { method: "POST", headers: headers(s), body: JSON.stringify(body) });
  const data = await answer.json();
  if (!answer.ok) { showError(data.error); return null; }
  return data;
}

async function choose(index) {
  for (const b of document.querySelectorAll("#decision button")) b.disabled = true;
  const data = await post("/choice", { seat: asker(), option: index, steps: view.steps });
  if (!data) { load(); return; }
  view = data; render();
}

$("#undo").addEventListener("click", async () => {
  const data = await post("/undo", { seat: asker() });
  if (data) { view = data; render(); }
});

document.addEventListener("keydown", (event) => {
  if (event.key === "u" && !$("#undo").disabled && !$("#undo").hidden && event.target === document.body) $("#undo").click();
});

// Each change of the game (a step, a bot starting to think) is an event: read again. A
// hidden tab lets go of its stream (a browser holds few connections to one server) and
// reads the game again when shown.
let events = null;
function follow() {
  if (events) return;
  events = new EventSource("/api/games/" + id + "/events");
  events.addEventListener("progress", (event) => {
    const progress = JSON.parse(event.data);
    if (view && progress.steps === view.steps && progress.thinking === view.thinking && progress.over === !!view.outcome && progress.failure === view.failure) return;
    load();
  });
}
document.addEventListener("visibilitychange", () => {
  if (document.hidden) { if (events) { events.close(); events = null; } return; }
  follow();
  load();
});
if (!document.hidden) follow();

load();
