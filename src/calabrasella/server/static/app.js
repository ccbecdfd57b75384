// The browser table: one seat's view, the cards drawn with the library's SVG pictures
// (/card/<code>.svg, /card/back.svg). No build step, no CDN.
"use strict";
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const state = { session: null, view: null, deal: 0, turn: 0, seat: null, source: null,
                names: [], deadline: null, banks: null, banksAt: 0, totals: null };
window.received = [];  // every message the page received, in order (the tests read it)
window.cardClicks = 0;  // moves made by clicking a card (the tests read it)

function cardImage(code, action) {
  // A card's picture; with an action (a legal move that names it) it is a button for that move.
  const img = document.createElement("img");
  img.className = "card";
  img.src = "/card/" + encodeURIComponent(code) + ".svg";
  img.alt = code;
  img.title = action || code;
  img.dataset.code = code;
  if (action) {
    img.classList.add("playable");
    img.dataset.action = action;
    img.tabIndex = 0;
    img.setAttribute("role", "button");
    img.addEventListener("click", () => { window.cardClicks++; play(action); });
    img.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); play(action); }
    });
  }
  return img;
}

function backs(count) {
  const row = document.createElement("span");
  row.className = "backs";
  for (let n = 0; n < count; n++) {
    const img = document.createElement("img");
    img.className = "back";
    img.src = "/card/back.svg";
    img.alt = "";
    row.append(img);
  }
  row.title = count + " cards";
  return row;
}

function cardAction(code, legal) {
  // The legal move that takes this card from the hand (play, give back, discard...), if any.
  return legal.find((action) => !action.startsWith("call ") && action.endsWith(" " + code));
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

// "1 card", "9 cards"
function plural(n, word) {
  return n + " " + word + (n === 1 ? "" : "s");
}

function draw() {
  const view = state.view;
  if (!view) return;
  $("hand").replaceChildren(...view.hand.map((code) => cardImage(code, cardAction(code, view.legal_actions))));
  $("trick").replaceChildren(...view.trick.map(([seat, code]) => {
    const box = document.createElement("figure");
    const caption = document.createElement("figcaption");
    caption.textContent = state.names[seat] || "seat " + seat;
    box.append(cardImage(code), caption);
    return box;
  }));
  $("players").replaceChildren(...view.hand_sizes.map((size, seat) => {
    const row = document.createElement("div");
    const label = document.createElement("span");
    label.textContent = (state.names[seat] || "seat " + seat) + (seat === view.seat ? " (you)" : "")
      + ": " + plural(size, "card") + ", " + plural(view.tricks_won[seat], "trick")
      + (view.declarer === seat ? ", declarer" : "");
    row.append(label);
    if (seat !== view.seat && size) row.append(backs(size));
    if (view.to_move === seat) row.className = "turn";
    return row;
  }));
  $("stock").replaceChildren(...(view.stock_size ? ["stock ", backs(view.stock_size)] : []));
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
    // the first move that is not a pass: by clicking its card in the hand if it has one
    const buttons = [...document.querySelectorAll("button.move")];
    const pick = buttons.find((b) => b.dataset.action !== "pass") || buttons[0];
    const card = [...document.querySelectorAll("#hand img.playable")]
      .find((img) => img.dataset.action === pick.dataset.action);
    setTimeout(() => (card || pick).click(), Number(params.get("delay") || 20));
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
      state.banks = message.banks || null; state.banksAt = Date.now();
      draw(); break;
    case "timeout": notice(message.message + " (" + message.action + ")"); break;
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
  const parts = [];
  const moving = state.view && state.view.to_move === state.seat && state.view.legal_actions.length;
  if (state.deadline !== null && moving) {
    parts.push("move " + Math.max(0, Math.round((state.deadline - Date.now()) / 1000)) + " s");
  }
  if (state.banks && state.seat !== null) {
    const running = moving ? (Date.now() - state.banksAt) / 1000 : 0;
    parts.push("match " + Math.max(0, Math.round(state.banks[state.seat] - running)) + " s");
  }
  $("clock").textContent = parts.join(" \u00b7 ");
}, 250);
$("join").addEventListener("submit", join);
if (params.get("name")) { $("name").value = params.get("name"); join(); }
