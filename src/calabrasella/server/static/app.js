// The browser table: one seat's view, drawn with plain HTML. No build step, no CDN.
"use strict";
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const state = { session: null, view: null, deal: 0, turn: 0, seat: null, source: null,
                names: [], deadline: null, totals: null };
window.received = [];  // every message the page received, in order (the tests read it)

function cardSpan(code) {
  const span = document.createElement("span");
  span.className = "card" + (/[dh]$/.test(code) ? " red" : "");
  const suits = { d: "\u2666", h: "\u2665", s: "\u2660", c: "\u2663" };
  span.textContent = code.slice(0, -1) + (suits[code.slice(-1)] || code.slice(-1));
  span.title = code;
  return span;
}

function describeEntry(entry) {
  const [seat, action] = [entry[0], entry[entry.length - 1]];
  const text = typeof action === "string" ? action : "(face down: " + action.hidden + ")";
  return (state.names[seat] || "seat " + seat) + ": " + text;
}

function send(message) {
  return fetch("/send?session=" + encodeURIComponent(state.session),
               { method: "POST", body: JSON.stringify(message) });
}

function play(action) {
  if (!state.view) return;
  send({ type: "action", deal: state.deal, turn: state.turn, action: action });
  $("moves").replaceChildren();
}

function draw() {
  const view = state.view;
  if (!view) return;
  $("hand").replaceChildren(...view.hand.map(cardSpan));
  $("trick").replaceChildren(...view.trick.map(([seat, code]) => {
    const box = document.createElement("span");
    box.append((state.names[seat] || "seat " + seat) + " ", cardSpan(code));
    return box;
  }));
  $("players").replaceChildren(...view.hand_sizes.map((size, seat) => {
    const row = document.createElement("div");
    row.textContent = (state.names[seat] || "seat " + seat) + (seat === view.seat ? " (you)" : "")
      + ": " + size + " cards, " + view.tricks_won[seat] + " tricks"
      + (view.declarer === seat ? ", declarer" : "");
    if (view.to_move === seat) row.className = "turn";
    return row;
  }));
  $("info").textContent = "deal " + state.deal + " \u00b7 " + view.phase
    + (view.contract ? " \u00b7 " + view.contract : "") + (view.called ? " \u00b7 called " + view.called : "");
  $("history").replaceChildren(...view.history.filter((e) => {
    const a = e[e.length - 1];
    return typeof a !== "string" || !a.startsWith("play ");
  }).map((entry) => {
    const li = document.createElement("li");
    li.textContent = describeEntry(entry);
    return li;
  }));
  $("moves").replaceChildren(...view.legal_actions.map((action, n) => {
    const button = document.createElement("button");
    button.className = "move";
    button.textContent = (n < 9 ? n + 1 + ". " : "") + action;
    button.dataset.action = action;
    button.addEventListener("click", () => play(action));
    return button;
  }));
  if (params.get("autoplay") === "1" && view.legal_actions.length) {
    const buttons = [...document.querySelectorAll("button.move")];
    const pick = buttons.find((b) => b.dataset.action !== "pass") || buttons[0];
    setTimeout(() => pick.click(), 20);
  }
}

function notice(text) {
  const p = document.createElement("p");
  p.textContent = text;
  $("notices").prepend(p);
}

function receive(message) {
  window.received.push(message);
  switch (message.type) {
    case "session": state.session = message.session; break;
    case "welcome":
      state.seat = message.seat;
      $("status").textContent = message.spectator ? "watching" : "seat " + message.seat;
      break;
    case "table": state.names = message.players.map((p, n) => (p ? p.name : "seat " + n)); break;
    case "view":
      state.view = message.view; state.deal = message.deal; state.turn = message.turn;
      state.deadline = message.clock === null ? null : Date.now() + 1000 * message.clock;
      draw(); break;
    case "timeout": notice("Time was up: the bot played " + message.action); break;
    case "over":
      state.totals = message.totals;
      $("ledger").textContent = "after deal " + message.deal + ": " + message.totals.join(" / ");
      break;
    case "match_over":
      $("ledger").textContent = "final: " + message.totals.join(" / ");
      $("status").textContent = "match over";
      document.body.dataset.over = "1";
      state.source.close();
      break;
    case "error": case "notice": case "closing": notice(message.type + ": " + message.message); break;
  }
}

function join(event) {
  if (event) event.preventDefault();
  const query = new URLSearchParams({ name: $("name").value });
  if ($("seat").value) query.set("seat", $("seat").value);
  if ($("spectate").checked) query.set("spectate", "1");
  for (const key of ["table", "token"]) if (params.get(key)) query.set(key, params.get(key));
  state.source = new EventSource("/events?" + query);
  state.source.onmessage = (event) => receive(JSON.parse(event.data));
  state.source.addEventListener("end", () => state.source.close());
  $("join").hidden = true;
}

document.addEventListener("keydown", (event) => {
  const n = Number(event.key);
  const buttons = document.querySelectorAll("button.move");
  if (n >= 1 && n <= buttons.length) buttons[n - 1].click();
});
setInterval(() => {
  $("clock").textContent = state.deadline === null ? ""
    : Math.max(0, Math.round((state.deadline - Date.now()) / 1000)) + " s";
}, 250);
$("join").addEventListener("submit", join);
if (params.get("name")) { $("name").value = params.get("name"); join(); }
