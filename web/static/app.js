// The web table's page: a thin client. The server sends the whole position this player may see, with every word
// already in the player's language; the page draws it and sends back what was tapped. Nothing is decided here.
"use strict";

(function () {
  // A link's page names its token in the address; the Activity's page (Discord's frame, at the root) signs in first.
  let token = location.pathname.split("/").pop();
  let lang = new URLSearchParams(location.search).get("lang") || "";
  const $ = (id) => document.getElementById(id);
  let state = null;
  let selected = null; // the card tapped, waiting for a pile
  let socket = null;
  let retry = 500;
  let replay = null; // a step of the replay on show (null: the live table)
  let signalsOpen = false; // the signals stay open across redraws once opened
  let deadline = null; // local time (ms) the turn ends, from the server's "seconds left"

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "on") for (const [event, fn] of Object.entries(value)) node.addEventListener(event, fn);
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  }

  // A template from the server's catalogs with its {placeholders} filled in (numbers and letters only).
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
  }

  function alertText(text) {
    $("alert").textContent = text || "";
  }

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    alertText("");
    socket.send(JSON.stringify(message));
  }

  // ---- The Game -------------------------------------------------------------------------------------------------

  function tapCard(value) {
    alertText("");
    selected = selected === value ? null : value;
    draw();
    // The pile comes next: the keyboard goes to the first pile the card fits (Escape puts the card back).
    const card = state.hand.find((c) => c.value === selected);
    const pile = card && state.piles.find((p) => card.fits.includes(p.name));
    const next = pile ? document.querySelector(`.piles button[data-pile="${pile.name}"]`)
      : document.querySelector(`.hand button[data-card="${value}"]`);
    if (next) next.focus();
  }

  function tapPile(name) {
    if (selected === null) {
      alertText(state.labels.chooseCard);
      return;
    }
    const card = selected;
    selected = null;
    send({ op: "play", card: card, pile: name });
    draw();
  }

  function theGame(s, main, dock) {
    const chosen = s.hand.find((c) => c.value === selected);
    if (!chosen) selected = null;
    main.append(el("p", { text: s.drawPile }));
    const seats = el("ul", { class: "seats", "aria-label": s.labels.players });
    for (const seat of s.seats) {
      const who = seat.me ? `${seat.name} (${s.labels.you})` : seat.name;
      const extra = seat.left ? ` · ${s.labels.left}` : seat.toMove ? ` · ${s.labels.toMove}` : "";
      seats.append(el("li", { class: (seat.toMove ? "to-move " : "") + (seat.left ? "gone" : "") },
        `${who}: ${seat.cards}${seat.signals.length ? " " + seat.signals.join(" ") : ""}${extra}`));
    }
    main.append(seats);
    const piles = el("section", { class: "piles", role: "region", "aria-label": s.labels.piles });
    for (const pile of s.piles) {
      const values = { pile: pile.name, arrow: pile.up ? "↑" : "↓", top: pile.top };
      const fits = chosen && chosen.fits.includes(pile.name);
      const trick = chosen && chosen.tricks.includes(pile.name);
      let label = fill(s.labels.pileLabel, values);
      let short = "";
      if (fits && trick) {
        label = fill(s.labels.pileTrick, values);
        short = s.labels.trick;
      } else if (fits) {
        const jump = chosen.value - pile.top;
        values.card = chosen.value;
        values.jump = (jump > 0 ? "+" : "") + jump;
        label = fill(s.labels.pileJump, values);
        short = `→ ${values.card} (${values.jump})`;
      }
      const signals = pile.signals.map((m) => `${m.icon} ${m.text}`).join(", ");
      let cls = "pile";
      if (chosen) cls += trick && fits ? " trick" : fits ? " jump" : " illegal";
      const button = el("button", {
        class: cls, "data-pile": pile.name, disabled: s.spectator, "aria-label": signals ? `${label} · ${signals}` : label,
        on: { click: () => tapPile(pile.name), dragover: (e) => e.preventDefault(),
          drop: (e) => { e.preventDefault(); const c = Number(e.dataTransfer.getData("text/plain")); if (c) { selected = c; tapPile(pile.name); } } },
      },
      el("span", { class: "name", text: `${pile.name} ${values.arrow}` }),
      el("span", { class: "top", text: String(pile.top) }),
      el("span", { class: "label", text: short }),
      el("span", { class: "sig", text: pile.signals.map((m) => m.icon).join(" "), title: signals || null }));
      piles.append(button);
    }
    main.append(piles);
    if (s.spectator) {
      dock.append(el("p", { text: s.labels.watching }));
      return;
    }

    const hand = el("section", { class: "hand", role: "region", "aria-label": s.labels.hand });
    for (const card of s.hand) {
      const fits = card.fits.length > 0;
      hand.append(el("button", {
        "data-card": card.value, class: fits ? "" : "stuck", draggable: "true",
        "aria-pressed": selected === card.value ? "true" : "false",
        on: { click: () => tapCard(card.value), dragstart: (e) => e.dataTransfer.setData("text/plain", String(card.value)) },
      }, String(card.value)));
    }
    dock.append(el("h2", { text: s.labels.hand, "aria-hidden": "true" }), hand);
    const actions = el("div", { class: "actions" });
    actions.append(el("button", { class: "go", disabled: !s.canEnd, on: { click: () => send({ op: "end" }) } }, s.labels.endTurn));
    if (s.hint) actions.append(el("button", { disabled: !s.mayLay, on: { click: () => send({ op: "hint" }) } }, s.labels.hint));
    if (!s.over) actions.append(el("span", { text: s.labels.chooseCard }));
    if (!s.over && !s.seats.find((seat) => seat.me && seat.left)) actions.append(leaveButton(s));
    dock.append(actions);
    if (s.signalButtons.length) {
      const box = el("details", { class: "signals", open: signalsOpen || null,
        on: { toggle: (e) => { signalsOpen = e.target.open; } } }, el("summary", { text: s.labels.signals }));
      const list = el("div", { class: "signal-list" });
      for (const b of s.signalButtons) {
        list.append(el("button", { "aria-pressed": b.on ? "true" : "false", "data-signal": `${b.kind}:${b.pile}`,
          on: { click: () => send({ op: "signal", kind: b.kind, pile: b.pile }) } }, b.label));
      }
      box.append(list);
      main.append(box);
    }
  }

  // ---- No Thanks! -----------------------------------------------------------------------------------------------

  function runs(list) {
    const box = el("span", { class: "runs" });
    for (const run of list) box.append(el("span", { class: "run" }, run.length > 1 ? `${run[0]}–${run[run.length - 1]}` : String(run[0])));
    return box;
  }

  function noThanks(s, main, dock) {
    const offer = el("div", { class: "offer" });
    if (s.faceUp !== null) offer.append(el("div", { class: "card", "aria-hidden": "true" }, String(s.faceUp)));
    offer.append(el("div", {}, el("p", { text: s.faceUpText }), el("p", { text: s.cardsLeft })));
    main.append(offer);
    const seats = el("ul", { class: "seats", "aria-label": s.labels.players });
    for (const seat of s.seats) {
      if (seat.me) continue;
      const line = el("li", { class: seat.toMove ? "to-move" : "" },
        `${seat.name}: ${seat.points}${seat.chips ? ", " + seat.chips : ""}${seat.toMove ? " · " + s.labels.toMove : ""} `);
      line.append(runs(seat.runs));
      seats.append(line);
    }
    main.append(seats);
    if (s.spectator) {
      dock.append(el("p", { text: s.labels.watching }));
      return;
    }
    dock.append(el("p", {}, `${s.myChips} · ${s.myPoints} `, runs(s.myRuns)));
    const actions = el("div", { class: "actions" });
    actions.append(el("button", { class: "go", disabled: !s.canTake, on: { click: () => send({ op: "take" }) } }, s.labels.take));
    actions.append(el("button", { disabled: !s.canPass, on: { click: () => send({ op: "pass" }) } }, s.labels.pass));
    if (!s.over && s.seats.find((seat) => seat.me)) actions.append(leaveButton(s));
    dock.append(actions);
  }

  // ---- drawing --------------------------------------------------------------------------------------------------

  // Leaving takes two taps: the first asks, the second leaves (the others play on without you).
  let leaving = false;
  function leaveButton(s) {
    return el("button", { class: "leave", on: { click: () => {
      if (leaving) send({ op: "leave" });
      leaving = !leaving;
      draw();
    } } }, leaving ? s.labels.leaveSure : s.labels.leave);
  }

  function drawReplay(main, dock) {
    const r = replay;
    $("status").textContent = r.status;
    const slider = el("input", {
      id: "turn", type: "range", min: "0", max: String(r.turns), value: String(r.turn),
      on: { change: (e) => send({ op: "replay", turn: Number(e.target.value) }) },
    });
    main.append(el("div", { class: "replay" },
      el("label", { for: "turn" }, `${r.labels.turn} ${r.turn} / ${r.turns}`), slider,
      el("button", { on: { click: () => { replay = null; draw(); } } }, r.labels.back)));
    if (r.result) main.append(el("p", { class: "result", text: r.result }));
    const spare = el("div");
    if (r.kind === "the_game") theGame(r, main, spare);
    else noThanks(r, main, spare);
    const hands = el("ul", { class: "log" });
    for (const line of r.revealed) hands.append(el("li", { text: line }));
    dock.append(hands);
    if (r.log.length) {
      const log = el("ol", { class: "log" });
      for (const line of r.log) log.append(el("li", { text: line }));
      main.append(log);
    }
  }

  function draw() {
    if (!state) return;
    const s = state;
    const focused = document.activeElement;
    const key = (b) => b.dataset.card || b.dataset.pile || b.dataset.signal || b.textContent;
    const refocus = focused && focused.dataset && key(focused);
    document.documentElement.lang = s.lang || "en";
    document.title = s.title;
    $("title").textContent = s.title;
    $("status").textContent = s.status;
    const main = $("table");
    main.replaceChildren();
    let dock = $("hand-dock");
    if (!dock) {
      dock = el("div", { id: "hand-dock" });
      document.body.append(dock);
    }
    dock.replaceChildren();
    if (replay) {
      drawReplay(main, dock);
      setOffline(!socket || socket.readyState !== WebSocket.OPEN);
      return;
    }
    if (s.result) main.append(el("p", { class: "result", text: s.result }));
    if (s.replayable) {
      main.append(el("button", { class: "go", on: { click: () => send({ op: "replay", turn: 0 }) } }, s.labels.replay));
    }
    if (s.kind === "the_game") theGame(s, main, dock);
    else noThanks(s, main, dock);
    // The table's votes on a player who missed their turn, as under the channel's board.
    if (s.votes && s.votes.length) {
      const votes = el("div", { class: "actions votes" });
      for (const v of s.votes) {
        votes.append(el("button", { "data-vote": v.kind, on: { click: () => send({ op: "vote", kind: v.kind, target: v.target }) } }, v.label));
      }
      main.append(votes);
    }
    if (s.log.length) {
      main.append(el("h2", { text: s.labels.log }));
      const log = el("ol", { class: "log" });
      for (const line of s.log) log.append(el("li", { text: line }));
      main.append(log);
    }
    setOffline(!socket || socket.readyState !== WebSocket.OPEN);
    // Keep the keyboard where it was: the same card, pile or button after a redraw.
    if (refocus && focused !== document.body) {
      const again = [...document.querySelectorAll("button")].find((b) => key(b) === refocus && !b.disabled);
      if (again) again.focus();
    }
    tick();
  }

  function tick() {
    const clock = $("clock");
    if (deadline === null || !state || state.over) {
      clock.textContent = "";
      return;
    }
    const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
    clock.textContent = `${state.labels.turnEnds} ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  }

  function setOffline(off) {
    document.body.classList.toggle("offline", off);
    const banner = $("offline");
    banner.hidden = !off;
    banner.textContent = off ? (state ? state.labels.offline : "…") : "";
    // A position that may be old is never playable: every button waits for the connection.
    for (const button of document.querySelectorAll("main button, main input, #hand-dock button")) {
      if (off) button.setAttribute("data-offline", ""), (button.disabled = true);
    }
  }

  // ---- the connection -------------------------------------------------------------------------------------------

  function connect() {
    const url = new URL(`../ws/${token}`, location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    if (lang) url.searchParams.set("lang", lang);
    socket = new WebSocket(url);
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state") {
        retry = 500;
        if (state && message.state.seq !== state.seq) $("hint").textContent = ""; // a hint is for one position
        state = message.state;
        deadline = state.deadline === null ? null : Date.now() + state.deadline * 1000;
        draw();
      } else if (message.type === "hint") {
        $("hint").textContent = message.text;
      } else if (message.type === "replay") {
        replay = message.replay;
        draw();
        const slider = $("turn");
        if (slider) slider.focus();
      } else if (message.type === "refused") {
        alertText(message.text);
      }
    });
    socket.addEventListener("close", () => {
      setOffline(true);
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 5000);
    });
  }

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && selected !== null) {
      selected = null;
      draw();
    }
  });
  // A phone that put the page to sleep may have missed moves: back in view, it asks for the position again.
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ op: "sync" }));
  });
  // ---- the Discord Activity: the Embedded App SDK's side of the frame, by hand ----------------------------------
  // Discord's client (the parent frame) speaks [opcode, payload] over postMessage: HANDSHAKE (0) from us, then FRAME
  // (1) messages both ways: its READY, our commands with a nonce, its answers with the same nonce.

  function discordSdk(clientId, frameId) {
    // A popped-out Activity talks to the window that opened it, as Discord's own SDK does.
    const parent = window.parent.opener || window.parent;
    const origin = document.referrer ? new URL(document.referrer).origin : "*";
    const waiting = new Map();
    let ready;
    const isReady = new Promise((resolve) => { ready = resolve; });
    let closed;
    const isClosed = new Promise((resolve, reject) => { closed = reject; });
    window.addEventListener("message", (event) => {
      if (event.source !== parent || !Array.isArray(event.data)) return;
      if (event.data[0] === 2) closed(new Error((event.data[1] || {}).message || "")); // CLOSE: Discord refused us
      if (event.data[0] !== 1) return;
      const payload = event.data[1] || {};
      if (payload.cmd === "DISPATCH" && payload.evt === "READY") ready();
      const pending = waiting.get(payload.nonce);
      if (!pending) return;
      waiting.delete(payload.nonce);
      if (payload.evt === "ERROR") pending.reject(new Error((payload.data && payload.data.message) || payload.cmd));
      else pending.resolve(payload.data || {});
    });
    parent.postMessage([0, { v: 1, encoding: "json", client_id: clientId, frame_id: frameId }], origin);
    // Discord's client answers at once or not at all: the page does not wait for ever.
    const late = (ms) => new Promise((resolve, reject) => setTimeout(() => reject(new Error("")), ms));
    return {
      ready: Promise.race([isReady, isClosed, late(15000)]),
      command(cmd, args) {
        const nonce = crypto.randomUUID();
        const answered = new Promise((resolve, reject) => {
          waiting.set(nonce, { resolve, reject });
          parent.postMessage([1, { cmd, args, nonce }], origin);
        });
        return Promise.race([answered, isClosed, late(120000)]); // the player may take a while to consent
      },
    };
  }

  // Who is at the table is settled by the bot: it exchanges the code Discord's client gives for this application
  // and answers with the page's token (the same a link carries).
  async function signIn(query) {
    const config = await (await fetch(new URL("api/activity", location.href))).json();
    if (!config.client_id) throw new Error(config.text || "");
    const sdk = discordSdk(config.client_id, query.get("frame_id"));
    let code;
    try {
      await sdk.ready;
      ({ code } = await sdk.command("AUTHORIZE",
        { client_id: config.client_id, response_type: "code", state: "", prompt: "none", scope: ["identify"] }));
    } catch (error) {
      throw new Error(config.failed); // Discord's own words, if any, are not in the player's language
    }
    const answer = await fetch(new URL("api/activity/token", location.href), {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code: code, channel_id: query.get("channel_id") || "" }),
    });
    const body = await answer.json();
    if (!answer.ok) throw new Error(body.text || "");
    token = body.token;
    lang = body.lang;
  }

  document.addEventListener("DOMContentLoaded", async () => {
    setOffline(true);
    const query = new URLSearchParams(location.search);
    if (!token && query.has("frame_id")) {
      try {
        await signIn(query);
      } catch (error) {
        $("offline").hidden = true;
        alertText(error.message || "Discord");
        return;
      }
    }
    connect();
    setInterval(tick, 1000);
  });
})();
