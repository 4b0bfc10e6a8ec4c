// The start page: a form per ruleset (seats as people or bots, seed, parameters) that
// starts a game through POST /api/games and opens it.
"use strict";
const KINDS = ["human", "random", "mcts:iterations=200", "ismcts:iterations=200"];

function seatRow(form, count) {
  const seats = form.querySelector(".seats");
  seats.textContent = "";
  for (let i = 0; i < count; i++) {
    const select = document.createElement("select");
    select.className = "seat";
    select.title = "p" + (i + 1);
    select.setAttribute("aria-label", "who plays p" + (i + 1));
    for (const k of KINDS) {
      const o = document.createElement("option");
      o.value = k; o.textContent = "p" + (i + 1) + ": " + k.split(":")[0];
      if ((i === 0 && k === "human") || (i > 0 && k === "random")) o.selected = true;
      select.appendChild(o);
    }
    seats.appendChild(select);
  }
}

for (const article of document.querySelectorAll(".ruleset")) {
  const form = article.querySelector("form");
  const min = Number(article.dataset.min), max = Number(article.dataset.max);
  const players = document.createElement("select");
  players.className = "player-count";
  for (let n = min; n <= max; n++) {
    const o = document.createElement("option"); o.value = n; o.textContent = n + " players"; players.appendChild(o);
  }
  players.setAttribute("aria-label", "number of players");
  const seats = document.createElement("span"); seats.className = "seats";
  const mode = document.createElement("select"); mode.className = "mode";
  mode.setAttribute("aria-label", "how people play: one tab per seat, or hot seat");
  for (const [v, t] of [["tab", "one tab per seat"], ["hotseat", "hot seat (one screen)"]]) {
    const o = document.createElement("option"); o.value = v; o.textContent = t; mode.appendChild(o);
  }
  const seed = document.createElement("input"); seed.type = "number"; seed.placeholder = "seed"; seed.className = "seed"; seed.min = 0;
  seed.setAttribute("aria-label", "seed (empty: from the clock)");
  const start = document.createElement("button"); start.type = "submit"; start.textContent = "Start"; start.className = "start";
  start.setAttribute("aria-label", "start a game of " + article.querySelector("h2").firstChild.textContent.trim());
  const error = document.createElement("span"); error.className = "error"; error.setAttribute("role", "alert");
  form.append(players, seats, mode, seed, start, error);
  seatRow(form, min);
  players.addEventListener("change", () => seatRow(form, Number(players.value)));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const body = { ruleset: article.dataset.name, seats: [...form.querySelectorAll(".seat")].map(s => s.value), params: {} };
    if (seed.value !== "") body.seed = Number(seed.value);
    for (const input of article.querySelectorAll(".param input")) {
      if (input.value !== input.defaultValue) body.params[input.name] = Number(input.value);
    }
    const answer = await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const data = await answer.json();
    if (!answer.ok) { error.textContent = data.error; return; }
    // The creator holds every person's token: the page lists each person's link to hand out.
    const human = body.seats.indexOf("human");
    const secrets = "#tokens=" + data.tokens.map((t) => t ?? "").join(",");
    const where = mode.value === "hotseat" ? "?hotseat=1" : (human >= 0 ? "?seat=" + human : "");
    location.href = "/game/" + data.id + where + secrets;
  });
}
