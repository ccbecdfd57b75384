// The browser table: one seat's view over a WebSocket (/ws), the cards drawn with the
// library's SVG pictures (/card/<code>.svg, /card/back.svg). No build step, no CDN.
"use strict";
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const state = { socket: null, view: null, places: [], deal: 0, turn: 0, seat: null, names: [],
                token: null, table: params.get("table"), deadline: null, banks: null, banksAt: 0,
                totals: null, welcomed: false, stopped: false, over: false, closed: false,
                retry: null, results: [], analysed: null, analysisKey: "", stockName: "stock",
                spectator: false, opened: false };
window.received = [];  // every message the page received, in order (the tests read it)
window.cardClicks = 0;  // moves made by clicking a card (the tests read it)

function nameOf(seat) {
  return state.names[seat] || "seat " + seat;
}

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

function describeEntry(entry, before) {
  // An entry in words: an action's own text, or for a move this seat did not see the
  // words of the step that made it ("discarded a card face down"), as the view gives them.
  // A pass by the solissimo declarer right after its bid declines the raise: "no raise".
  const [seat, action] = [entry[0], entry[entry.length - 1]];
  let text = typeof action === "string" ? action
    : (action.words || action.hidden.replace(/_/g, " ") + " (face down)");
  const previous = before && before[before.length - 1];
  if (text === "pass" && before && before[0] === seat && previous === "bid solissimo") {
    text = "no raise";
  }
  return nameOf(seat) + ": " + text;
}

// What a move's button says: the raises after solissimo are explained; passing them is "no raise".
const RAISES = {
  "raise dividete": "raise dividete: each adversary in turn takes two cards of the monte unseen "
    + "and discards two face down",
  "raise scegliete": "raise scegliete: the monte is turned face up and the adversaries share it, "
    + "each then discarding as many cards as it took",
};

function moveLabel(action, legal) {
  if (action === "pass" && legal.some((a) => a.startsWith("raise "))) return "no raise";
  return RAISES[action] || action;
}

function lastTrick(view) {
  // The last finished trick, from the plays in the history: {plays: [[seat, card], ...],
  // leader, winner} or null. A trick's winner leads the next one; the last trick's
  // winner is the seat whose count of tricks won is one more than the earlier tricks give it.
  const plays = view.history.filter((e) => typeof e[e.length - 1] === "string"
                                           && e[e.length - 1].startsWith("play "));
  const size = view.hand_sizes.length;
  const done = Math.floor((plays.length - view.trick.length) / size);
  if (done < 1) return null;
  const trick = plays.slice((done - 1) * size, done * size)
    .map((e) => [e[0], e[e.length - 1].slice("play ".length)]);
  let winner = null;
  if (plays.length > done * size) winner = plays[done * size][0];
  else if (view.leader !== null && view.leader !== undefined && view.phase !== "over") winner = view.leader;
  else {
    const wins = view.tricks_won.map(() => 0);
    for (let k = 1; k < done; k++) wins[plays[k * size][0]] += 1;
    const seat = view.tricks_won.findIndex((n, s) => n > wins[s]);
    winner = seat >= 0 ? seat : null;
  }
  return { plays: trick, leader: trick[0][0], winner: winner };
}

function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) {
    state.socket.send(JSON.stringify(message));
  }
}

function play(action) {
  if (!state.view || state.stopped) return;
  send({ type: "action", deal: state.deal, turn: state.turn, action: action });
  $("moves").replaceChildren();
}

// "1 card", "9 cards"
function plural(n, word) {
  return n + " " + word + (n === 1 ? "" : "s");
}

function figure(seat, code, roles) {
  // A card on the table with who played it, and whether that seat led or won the trick.
  const box = document.createElement("figure");
  const caption = document.createElement("figcaption");
  caption.textContent = nameOf(seat) + (roles && roles.length ? " (" + roles.join(", ") + ")" : "");
  if (roles && roles.includes("led")) box.classList.add("led");
  if (roles && roles.includes("won it")) box.classList.add("won");
  box.append(cardImage(code), caption);
  return box;
}

function placesRow(label, shown, faceDown) {
  // One place of cards: its label, the cards this seat may see, and backs for the others.
  const row = document.createElement("div");
  row.className = "place";
  const words = document.createElement("span");
  words.textContent = label;
  row.append(words, ...shown.map((code) => cardImage(code)));
  if (faceDown) row.append(backs(faceDown));
  return row;
}

function drawPlaces() {
  // The stock as it is now and each seat's discards, as the server read them from
  // places.layout: cards taken from the stock are gone from it; discards stay apart.
  const rows = [];
  for (const place of state.places) {
    const count = place.shown.length + place.face_down;
    if (place.where === "stock") {
      const open = place.shown.length && place.public.length === place.shown.length;
      rows.push(placesRow(state.stockName + ": " + plural(count, "card")
        + (open ? ", face up" : place.shown.length ? "" : ", face down"), place.shown, place.face_down));
    } else if (place.where === "laid aside") {
      const whose = place.seat === state.seat ? "your discards" : nameOf(place.seat) + "'s discards";
      rows.push(placesRow(whose + ", face down (they count with the " + state.stockName + "): ",
                          place.shown, place.face_down));
    }
  }
  $("stock").replaceChildren(...rows);
}

function draw() {
  const view = state.view;
  if (!view) return;
  const live = !state.stopped;
  $("hand").replaceChildren(...view.hand.map(
    (code) => cardImage(code, live ? cardAction(code, view.legal_actions) : undefined)));
  $("trick").replaceChildren(...view.trick.map(([seat, code], n) => figure(seat, code, n ? [] : ["led"])));
  const last = lastTrick(view);
  $("last").replaceChildren(...(last ? last.plays.map(([seat, code]) => figure(seat, code,
    [...(seat === last.leader ? ["led"] : []), ...(seat === last.winner ? ["won it"] : [])])) : []));
  $("last-box").hidden = !last;
  $("players").replaceChildren(...view.hand_sizes.map((size, seat) => {
    const row = document.createElement("div");
    const label = document.createElement("span");
    label.textContent = nameOf(seat) + (seat === view.seat ? " (you)" : "")
      + ": " + plural(size, "card") + ", " + plural(view.tricks_won[seat], "trick")
      + (view.declarer === seat ? ", declarer" : "");
    row.append(label);
    if (seat !== view.seat && size) row.append(backs(size));
    if (view.to_move === seat) row.className = "turn";
    return row;
  }));
  drawPlaces();
  $("info").textContent = "deal " + state.deal + " \u00b7 " + (view.phase_name || view.phase)
    + (view.declarer !== null && view.declarer !== undefined ? " \u00b7 declarer " + nameOf(view.declarer) : "")
    + (view.contract ? " \u00b7 " + view.contract : "") + (view.called ? " \u00b7 called " + view.called : "");
  const auction = view.history.filter((e) => {
    const a = e[e.length - 1];
    return typeof a !== "string" || !a.startsWith("play ");
  });
  $("history").replaceChildren(...auction.map((entry, n) => {
    const li = document.createElement("li");
    li.textContent = describeEntry(entry, auction[n - 1]);
    return li;
  }));
  $("mine").hidden = state.spectator || state.over;
  $("moves").replaceChildren(...(live ? view.legal_actions : []).map((action, n) => {
    const button = document.createElement("button");
    button.className = "move";
    button.textContent = (n < 9 ? n + 1 + ". " : "") + moveLabel(action, view.legal_actions);
    button.dataset.action = action;
    button.addEventListener("click", () => play(action));
    return button;
  }));
  if (live && params.get("autoplay") === "1" && view.legal_actions.length) {
    // the first move that is not a pass: by clicking its card in the hand if it has one
    const buttons = [...document.querySelectorAll("button.move")];
    const pick = buttons.find((b) => b.dataset.action !== "pass") || buttons[0];
    const card = [...document.querySelectorAll("#hand img.playable")]
      .find((img) => img.dataset.action === pick.dataset.action);
    setTimeout(() => (card || pick).click(), Number(params.get("delay") || 20));
  }
}

function drawLedger(final) {
  const totals = state.totals;
  const rows = [];
  if (totals) {
    const head = document.createElement("tr");
    head.append(...["", ...totals.map((_, seat) => nameOf(seat))].map((text) => {
      const th = document.createElement("th");
      th.textContent = text;
      return th;
    }));
    rows.push(head);
    for (const result of state.results) {
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.textContent = "deal " + result.deal;
      th.title = result.summary || "";
      tr.append(th, ...result.payments.map((p) => {
        const td = document.createElement("td");
        td.textContent = (p > 0 ? "+" : "") + p;
        return td;
      }));
      rows.push(tr);
    }
    const sum = document.createElement("tr");
    sum.className = "total";
    const th = document.createElement("th");
    th.textContent = final ? "final" : "total";
    sum.append(th, ...totals.map((t) => {
      const td = document.createElement("td");
      td.textContent = (t > 0 ? "+" : "") + t;
      return td;
    }));
    rows.push(sum);
  }
  $("ledger").replaceChildren(...rows);
  $("ledger-empty").hidden = rows.length > 0;
}

function notice(text, kind) {
  const p = document.createElement("p");
  p.textContent = text;
  if (kind) p.className = kind;
  $("notices").prepend(p);
}

function showResult(message) {
  // The deal's outcome once: the summary with each seat by its name, then the notes that
  // add to it (a void deal's note says it all), the declarer by name, never "he".
  const result = message.result;
  const p = $("result");
  const payments = result.payments.map((n, seat) => nameOf(seat) + " " + (n > 0 ? "+" : "") + n);
  const who = result.declarer === null || result.declarer === undefined ? "the declarer"
    : nameOf(result.declarer);
  const notes = (result.notes || []).map((note) => note.replace(/\bhe\b/g, who)
    .replace(/\bhis\b/g, who + "'s").replace(/\bhim\b/g, who));
  const summary = result.void ? notes.join("; ")
    : (message.summary || "").replace(/seat (\d)/g, (_, n) => nameOf(Number(n)))
      + (notes.length ? ": " + notes.join("; ") : "");
  p.textContent = "deal " + message.deal + ": " + summary + " \u2014 " + payments.join(", ");
  p.hidden = false;
}

function offerAnalysis(deal) {
  // After a deal ends its cards are public: offer the chart of its analysis (computed on asking).
  state.analysed = deal;
  $("analyse-deal").textContent = deal;
  $("analyse-box").hidden = false;
  $("analysis").hidden = true;
  $("analyse").disabled = false;
}

function showAnalysis() {
  const deal = state.analysed;
  if (deal === null) return;
  const img = $("analysis-chart");
  $("analyse").disabled = true;
  img.onload = () => { $("analysis").hidden = false; document.body.dataset.analysis = String(deal); };
  img.onerror = () => {
    notice(state.closed && !state.opened
      ? "the server has stopped: the analysis of deal " + deal + " is no longer available"
      : "the analysis of deal " + deal + " is not available", "error");
    $("analyse").disabled = false;
  };
  img.src = "/analysis/" + deal + ".svg?key=" + encodeURIComponent(state.analysisKey)
    + (state.table ? "&table=" + encodeURIComponent(state.table) : "");
}

function showToken() {
  if (!state.token) return;
  const url = new URL(location.origin + location.pathname);
  url.searchParams.set("name", $("name").value);
  url.searchParams.set("token", state.token);
  if (state.table) url.searchParams.set("table", state.table);
  const link = $("comeback");
  link.href = url.toString();
  $("token").textContent = state.token;
  $("seat-info").hidden = false;
}

function showJoin(why) {
  $("join").hidden = false;
  $("join-error").textContent = why || "";
  $("watch-instead").hidden = !why;
}

function receive(message) {
  window.received.push(message);
  switch (message.type) {
    case "welcome":
      state.welcomed = true;
      state.seat = message.seat;
      state.spectator = !!message.spectator;
      state.over = false;
      document.body.dataset.over = "";
      state.analysisKey = message.analysis_key || "";
      state.stockName = message.stock_name || "stock";
      if (message.token) { state.token = message.token; showToken(); }
      $("status").textContent = message.spectator ? "watching" : "seat " + message.seat;
      $("join").hidden = true;
      $("join-error").textContent = "";
      $("watch-instead").hidden = true;
      $("next").hidden = true;
      $("mine").hidden = state.spectator;
      break;
    case "table": state.names = message.players.map((p, n) => (p ? p.name : "seat " + n)); draw(); break;
    case "view":
      state.view = message.view; state.deal = message.deal; state.turn = message.turn;
      state.places = message.places || [];
      state.deadline = message.clock === null ? null : Date.now() + 1000 * message.clock;
      state.banks = message.banks || null; state.banksAt = Date.now();
      draw(); break;
    case "timeout": notice(message.message + " (" + message.action + ")"); break;
    case "over":
      state.totals = message.totals;
      state.results.push({ deal: message.deal, payments: message.result.payments,
                           summary: message.summary });
      showResult(message);
      offerAnalysis(message.deal);
      drawLedger(false);
      break;
    case "match_over":
      state.totals = message.totals;
      if (message.players) state.names = message.players.map((n, seat) => n || "seat " + seat);
      drawLedger(true);
      $("status").textContent = "match over";
      $("seat-info").hidden = true;
      state.over = true;
      state.token = null;  // the seats are free again for the next match
      document.body.dataset.over = "1";
      matchOver(message.closed);
      break;
    case "closing":
      stopped(message.message);
      break;
    case "error":
      if (message.code === "closed") tableClosed();
      if (!state.welcomed) showJoin(message.message);
      notice("error: " + message.message, "error");
      break;
    case "notice": notice(message.message); break;
  }
}

function tableClosed() {
  // The table has played its matches: no more deals; the page keeps what it shows.
  state.closed = true;
  document.body.dataset.closed = "1";
  $("stopped").hidden = false;
  $("stopped").className = "closed";
  $("stopped-text").textContent = "The table has closed: it has played its matches. The ledger "
    + "and the analyses stay on this page while the server runs.";
}

function matchOver(closed) {
  // The match is over: nothing to play; say what comes next.
  $("mine").hidden = true;
  $("moves").replaceChildren();
  if (closed) { tableClosed(); return; }
  $("next").hidden = false;
}

function stopped(why) {
  // The server stopped (or the connection dropped): freeze the clock and the moves, try again.
  if (state.stopped || state.over) return;
  state.stopped = true;
  document.body.dataset.stopped = "1";
  $("clock").textContent = "clock stopped";
  $("stopped").hidden = false;
  $("stopped-text").textContent = (why ? why + ": " : "")
    + "the clock is stopped; this page reconnects when the server is back.";
  draw();
  if (state.retry === null) state.retry = setInterval(reconnect, 2000);
}

function reconnect() {
  if (state.socket && state.socket.readyState !== WebSocket.CLOSED) return;
  connect(true);
}

function hello() {
  const message = { type: "hello", name: $("name").value || "guest" };
  if (state.token) message.token = state.token;
  else {
    const seat = $("seat").value.trim();
    // a number is sent as one; anything else as typed, for the server to refuse as it does seat 7
    if (seat) message.seat = /^[0-9]+$/.test(seat) ? Number(seat) : seat;
    if ($("spectate").checked) message.spectate = true;
  }
  if (state.table) message.table = state.table;
  return message;
}

function connect(again) {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(scheme + location.host + "/ws");
  state.socket = socket;
  socket.onopen = () => {
    state.opened = true;
    if (again) {
      if (!state.token && state.seat !== null) return;  // nothing to come back with
      state.welcomed = false;
    }
    send(hello());
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (state.stopped && message.type === "welcome") {
      state.stopped = false;
      document.body.dataset.stopped = "";
      $("stopped").hidden = true;
      clearInterval(state.retry);
      state.retry = null;
    }
    receive(message);
  };
  socket.onclose = () => {
    const opened = state.opened;
    state.opened = false;
    if (!opened && !state.welcomed) {
      // refused before it opened: the server is full or not running
      showJoin("could not reach the table: it is full or the server has stopped; try again later");
      return;
    }
    if (state.welcomed && !state.over) stopped("the connection to the server was lost");
  };
}

function join(event) {
  if (event) event.preventDefault();
  state.welcomed = false;
  $("join").hidden = true;
  if (state.socket && state.socket.readyState === WebSocket.OPEN) send(hello());
  else connect(false);
}

document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement) return;
  const n = Number(event.key);
  const buttons = document.querySelectorAll("button.move");
  if (n >= 1 && n <= buttons.length) buttons[n - 1].click();
});
setInterval(() => {
  const parts = [];
  const moving = state.view && state.view.to_move === state.seat && state.view.legal_actions.length;
  if (state.stopped) { $("clock").textContent = "clock stopped"; return; }
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
$("analyse").addEventListener("click", showAnalysis);
$("next-sit").addEventListener("click", () => {
  $("next").hidden = true;
  $("spectate").checked = false;
  showJoin("");
});
$("next-watch").addEventListener("click", () => {
  $("next").hidden = true;
  $("spectate").checked = true;
  join();
});
$("watch-instead").addEventListener("click", () => {
  $("spectate").checked = true;
  join();
});
$("copy").addEventListener("click", (event) => {
  event.preventDefault();
  const text = $("comeback").href;
  if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
  $("copy").textContent = "copied";
});
if (params.get("name")) $("name").value = params.get("name");
if (params.get("seat")) $("seat").value = params.get("seat");
if (params.get("spectate") === "1") $("spectate").checked = true;
if (params.get("token")) state.token = params.get("token");
if (params.get("name") || params.get("token") || params.get("spectate") === "1") join();
