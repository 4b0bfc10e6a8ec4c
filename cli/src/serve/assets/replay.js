// The replay page: a trace is sent to POST /api/replay, which answers every step's line
// and log, and the boards of a page of steps (more are asked for as they are reached); a
// slider and the keyboard (← → Home End) step through them. A trace that stops being
// legal has its failing line highlighted, scrolled into view, and the legal options listed.
"use strict";
const $ = (sel) => document.querySelector(sel);
let replay = null;
let at = 0;
let traceLines = [];
let traceText = "";
const PAGE = 25;

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

$("#trace-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) $("#trace-text").value = await file.text();
});

$("#load-trace").addEventListener("click", async () => {
  $("#load-error").textContent = "";
  const text = $("#trace-text").value;
  const answer = await fetch("/api/replay", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ trace: text }) });
  const data = await answer.json();
  if (!answer.ok) { $("#load-error").textContent = data.error; return; }
  replay = data;
  traceText = text;
  traceLines = text.split("\n");
  show();
});

function show() {
  $("#player").hidden = false;
  $("#title").textContent = replay.title ? "Replay: " + replay.title + " (" + replay.names.join(", ") + ")" : "Replay";
  const lines = $("#lines"); lines.textContent = "";
  traceLines.forEach((line, i) => { const li = el("li", line); li.dataset.line = i + 1; lines.appendChild(li); });
  const failure = $("#failure");
  failure.hidden = !replay.error;
  failure.textContent = "";
  if (replay.error) {
    failure.appendChild(el("div", "Line " + replay.error.line + ": " + replay.error.message.split("\n")[0]));
    if (replay.error.legal.length) {
      failure.appendChild(el("div", "Legal options there, closest first:"));
      const ul = el("ul"); ul.id = "legal";
      for (const o of replay.error.legal) ul.appendChild(el("li", o));
      failure.appendChild(ul);
    }
    const bad = lines.querySelector('li[data-line="' + replay.error.line + '"]');
    if (bad) { bad.classList.add("failing"); bad.scrollIntoView({ block: "center" }); }
  }
  const slider = $("#slider");
  slider.max = Math.max(0, replay.frames.length - 1);
  go(0);
}

// The boards of the page of frames holding `step`, from the server (once per page).
const pages = new Map();
function fetchPage(step) {
  const from = Math.floor(step / PAGE) * PAGE;
  if (!pages.has(from)) pages.set(from, fetchFrames(from).finally(() => pages.delete(from)));
  return pages.get(from);
}

async function fetchFrames(from) {
  const answer = await fetch("/api/replay", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ trace: traceText, from, count: PAGE }) });
  const data = await answer.json();
  if (!answer.ok) { $("#load-error").textContent = data.error; return; }
  data.frames.forEach((f, i) => { if (f.html !== null && replay.frames[i]) replay.frames[i].html = f.html; });
}

async function go(step) {
  if (!replay || replay.frames.length === 0) return;
  at = Math.max(0, Math.min(replay.frames.length - 1, step));
  if (replay.frames[at].html === null) {
    const wanted = at;
    await fetchPage(at);
    if (wanted !== at) return;
  }
  const frame = replay.frames[at];
  $("#slider").value = at;
  $("#position").textContent = "step " + at + " of " + (replay.frames.length - 1);
  $("#position").dataset.step = at;
  $("#board").innerHTML = frame.html ?? "";
  for (const li of document.querySelectorAll("#lines li.current")) li.classList.remove("current");
  const current = frame.line ? document.querySelector('#lines li[data-line="' + frame.line + '"]') : null;
  if (current) { current.classList.add("current"); current.scrollIntoView({ block: "nearest" }); }
  else if (at === 0) { const bad = document.querySelector("#lines li.failing"); if (bad) bad.scrollIntoView({ block: "center" }); }
  const log = $("#log"); log.textContent = "";
  for (const line of frame.log) log.appendChild(el("li", line));
}

$("#slider").addEventListener("input", (e) => go(Number(e.target.value)));
$("#first").addEventListener("click", () => go(0));
$("#prev").addEventListener("click", () => go(at - 1));
$("#next").addEventListener("click", () => go(at + 1));
$("#last").addEventListener("click", () => go(Infinity));
document.addEventListener("keydown", (event) => {
  if (event.target.tagName === "TEXTAREA" || event.target.tagName === "INPUT" && event.target.type !== "range") return;
  const moves = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: Infinity };
  if (event.key in moves) { event.preventDefault(); go(moves[event.key]); }
});
