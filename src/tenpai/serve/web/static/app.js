// The four pages: play (websocket), replay, review and arena results.
// The browser holds no game logic: it draws the server's snapshots and sends the index of one
// of the legal actions the server offered.
"use strict";

const { renderTable, renderResults, el, seatWind } = window.TableView;
const $ = (id) => document.getElementById(id);
const state = { meta: null, lastGame: null, record: null, speed: 500 };

function toast(message) {
  const t = $("toast");
  t.textContent = message;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 6000);
}

async function api(path, options = {}) {
  const res = await fetch(path, { credentials: "same-origin", ...options });
  let body = null;
  try { body = await res.json(); } catch (_) { body = null; }
  if (!res.ok) {
    const msg = body && body.detail ? body.detail : `${res.status} ${res.statusText}`;
    throw new Error(msg);
  }
  return body;
}

function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }

function showTab(name) {
  document.querySelectorAll(".tab").forEach((b) => b.classList.toggle("active", b.dataset.tab === name));
  document.querySelectorAll(".page").forEach((p) => p.classList.toggle("active", p.id === name));
  if (name === "review") fillReviewSources();
  if (name === "arena") loadArenaLibrary();
  if (name === "replay") loadLibrary();
}
document.querySelectorAll(".tab").forEach((b) => b.addEventListener("click", () => showTab(b.dataset.tab)));

function fillSelect(sel, values, chosen) {
  sel.innerHTML = "";
  values.forEach((v) => {
    const o = document.createElement("option");
    o.value = v; o.textContent = v;
    if (v === chosen) o.selected = true;
    sel.appendChild(o);
  });
}

// ------------------------------------------------------------------ play
const play = { ws: null, gid: null, queue: [], busy: false, decision: null, table: null,
               waitContinue: null, done: false };

function onRulesChange() {
  const rules = state.meta.rules[$("rules").value];
  const length = rules.choices.length;
  $("opt-length-box").hidden = !length;
  if (length) fillSelect($("opt-length"), length, rules.defaults.length);
  fillSelect($("opt-preset"), rules.choices.preset || [], rules.defaults.preset);
  const fit = rules.opponent;  // the rule set's default agent (MCR: planner)
  const menu = state.meta.opponents[$("rules").value] || [];
  document.querySelectorAll(".opponent").forEach((s) => {
    fillSelect(s, menu.map((o) => o.name), fit);
    [...s.options].forEach((o, i) => { o.title = menu[i].about; });
  });
  onPresetChange();
}

// A three-player preset (tenhou_sanma) seats two opponents: the third menu goes away.
function onPresetChange() {
  const rules = state.meta.rules[$("rules").value];
  const seats = (rules.seats || {})[$("opt-preset").value] || 4;
  document.querySelectorAll(".opponent").forEach((s, i) => { s.hidden = i >= seats - 1; });
  describeOpponents();
}

// An opponent that reads settings (search, planner, …) gets a box beside its menu for that
// seat's settings, KEY=VALUE separated by commas, sent as name[KEY=VALUE] as on the command line.
function settingsBox(select) { return $(`${select.id}-settings`); }

function showSettingsBoxes() {
  const menu = state.meta.opponents[$("rules").value] || [];
  document.querySelectorAll(".opponent").forEach((s) => {
    const box = settingsBox(s);
    const example = (menu.find((o) => o.name === s.value) || {}).settings || "";
    box.hidden = s.hidden || !example;
    box.placeholder = example ? `e.g. ${example}` : "";
    box.title = example
      ? `settings for this ${s.value}, KEY=VALUE separated by commas (e.g. ${example}); empty: its defaults. docs/agents.md lists them`
      : "";
  });
}

// What the server is asked to seat: a name, or name[settings] when its box has some.
function chosenOpponents() {
  return [...document.querySelectorAll(".opponent")].filter((s) => !s.hidden).map((s) => {
    const box = settingsBox(s);
    const text = box.hidden ? "" : box.value.trim().replace(/^\[|\]$/g, "").trim();
    return text ? `${s.value}[${text}]` : s.value;
  });
}

// Say how long each chosen opponent takes: only a searching agent uses the think time.
function describeOpponents() {
  const menu = state.meta.opponents[$("rules").value] || [];
  const chosen = [...document.querySelectorAll(".opponent")].filter((s) => !s.hidden).map((s) => s.value);
  const info = (n) => menu.find((o) => o.name === n) || {};
  const thinking = [...new Set(chosen.filter((n) => info(n).thinks))];
  const quick = [...new Set(chosen.filter((n) => !thinking.includes(n)))];
  const secs = (Number($("think").value) / 1000).toLocaleString("en-US");
  const parts = [];
  if (thinking.length) parts.push(`${thinking.join(", ")} searches up to ${secs} s per decision`);
  if (quick.length) parts.push(`${quick.join(", ")} ${quick.length > 1 ? "answer" : "answers"} at once (no search)`);
  const about = [...new Set(chosen)].filter((n) => info(n).about).map((n) => `${n} (${info(n).about})`);
  $("think").disabled = !thinking.length;
  const timer = $("timer").value === "0" ? "no move timer"
    : `move timer ${$("timer").selectedOptions[0].textContent}: at zero your drawn tile is discarded (or the call passed), as on Tenhou`;
  const who = about.length ? `Opponents: ${about.join(", ")}. ` : "";
  showSettingsBoxes();
  $("opponents-help").textContent = `${who}Think time: ${parts.join("; ")}. ${timer[0].toUpperCase()}${timer.slice(1)}.`;
}

async function loadMeta() {
  state.meta = await api("/api/meta");
  fillSelect($("rules"), Object.keys(state.meta.rules), "riichi");
  $("rules").addEventListener("change", onRulesChange);
  const think = $("think");
  fillSelect(think, state.meta.think_ms.choices.map(String), String(state.meta.think_ms.default));
  [...think.options].forEach((o) => { o.textContent = `${Number(o.value) / 1000} s`; });
  $("opt-preset").addEventListener("change", onPresetChange);
  document.querySelectorAll(".opponent, #think, #timer").forEach((s) => s.addEventListener("change", describeOpponents));
  // another agent does not read the last one's settings: its box starts empty
  document.querySelectorAll(".opponent").forEach((s) => s.addEventListener("change", () => { settingsBox(s).value = ""; }));
  onRulesChange();
  fillSelect($("review-agent"), state.meta.agents, "sl");
  const params = new URLSearchParams(location.search);
  if (params.has("speed")) $("speed").value = params.get("speed");
}

$("play-setup").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  // On a phone the settings are folded away during a game: the first press shows them.
  if (document.body.dataset.game === "running" && matchMedia("(max-width: 700px)").matches) {
    document.body.dataset.game = "settings";
    $("start").textContent = "Start game";
    return;
  }
  const rules = $("rules").value;
  const options = { preset: $("opt-preset").value };
  if (!$("opt-length-box").hidden) options.length = $("opt-length").value;
  const body = {
    rules, options, seed: Number($("seed").value || 0), think_ms: Number($("think").value),
    opponents: chosenOpponents(),
  };
  try {
    const g = await api("/api/games", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
    });
    $("toast").hidden = true;  // a refusal of the last try no longer applies
    startGame(g.id);
  } catch (e) { toast(e.message); }
});

function startGame(gid) {
  if (play.ws) play.ws.close();
  const [move, bank] = $("timer").value.split("+").map(Number);
  Object.assign(play, { gid, queue: [], busy: false, decision: null, done: false,
                        timer: move ? { move, bank: bank || 0 } : null });
  $("actions").innerHTML = "";
  $("play-over").hidden = true;
  document.body.dataset.game = "running";
  $("start").textContent = "New game";
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${gid}/ws`);
  play.ws = ws;
  play.http = false;
  let opened = false;
  ws.onopen = () => { opened = true; };
  // A server without websocket support (uvicorn needs the websockets package): use JSON calls.
  ws.onerror = () => { if (!opened && play.gid === gid) useHttp(gid); };
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.type === "error") { toast(msg.message); drawDecision(); return; }
    play.queue.push(msg);
    pump();
  };
  ws.onclose = (ev) => { if (!play.done && ev.code === 4404) toast("this game is gone (expired?)"); };
}

async function useHttp(gid) {
  play.ws = null;
  play.http = true;
  try { play.queue.push(await api(`/api/games/${gid}`)); pump(); } catch (e) { toast(e.message); }
}

// Frames are shown one by one: other players' discards at the chosen pace, results held until
// the player presses Continue.
async function pump() {
  if (play.busy) return;
  play.busy = true;
  try {
    while (play.queue.length) {
      const msg = play.queue.shift();
      for (const f of msg.frames) {
        play.table = f.table;
        const e = f.event;
        const viewer = f.table.viewer;
        renderTable($("play-table"), f.table);
        const speed = Number($("speed").value);
        if (e && e.type === "dahai" && e.actor !== viewer && speed) await sleep(speed);
        else if (e && ["chi", "pon", "daiminkan", "ankan", "kakan", "reach"].includes(e.type) && speed) await sleep(speed);
        if (e && (e.type === "hora" || e.type === "ryukyoku")) {
          // several wins on one discard: wait for the last of them
          const more = msg.frames.indexOf(f) + 1 < msg.frames.length &&
            msg.frames[msg.frames.indexOf(f) + 1].event.type === "hora";
          if (!more) await showResults(f.table, false);
        }
      }
      play.decision = msg.decision;
      play.done = msg.done;
      if (msg.error) toast(msg.error);
      if (msg.done) await showFinal(msg);
      drawDecision();
    }
  } finally {
    play.busy = false;
  }
}

function showResults(table, final) {
  renderResults($("play-results"), table);
  $("play-final").innerHTML = "";
  $("downloads").innerHTML = "";
  $("play-over").hidden = false;
  $("continue").hidden = final;
  return new Promise((resolve) => {
    play.waitContinue = () => { $("play-over").hidden = true; play.waitContinue = null; resolve(); };
  });
}

$("continue").addEventListener("click", () => { if (play.waitContinue) play.waitContinue(); });

async function showFinal(msg) {
  document.body.dataset.game = "over";
  const labels = msg.labels || msg.names;
  state.lastGame = { id: play.gid, names: labels };
  $("play-results").innerHTML = "";
  const box = $("play-final");
  box.innerHTML = "";
  box.appendChild(el("h2", "", "Game over"));
  const ranked = msg.final.map((s, i) => [s, i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const tbl = el("table", "final-table");
  ranked.forEach(([s, i], r) => {
    const tr = el("tr");
    tr.appendChild(el("td", "", `${r + 1}.`));
    const wind = msg.start_winds ? ` (started ${msg.start_winds[i]})` : "";
    tr.appendChild(el("td", "who", labels[i] + wind));
    tr.appendChild(el("td", "num", s.toLocaleString("en-US")));
    tbl.appendChild(tr);
  });
  box.appendChild(tbl);
  const dl = $("downloads");
  dl.innerHTML = "";
  dl.appendChild(el("span", "label", "Download the record:"));
  state.meta.formats.forEach((fmt) => {
    const a = el("a", "download", fmt);
    a.href = `/api/games/${play.gid}/download/${fmt}`;
    a.id = `download-${fmt}`;
    a.setAttribute("download", "");
    dl.appendChild(a);
  });
  try {
    const links = await api(`/api/games/${play.gid}/links`);
    if (links.tenhou6.length) dl.appendChild(el("span", "label break", "Watch each hand again:"));
    links.tenhou6.forEach((href, i) => {
      const label = links.rounds && links.rounds[i] ? links.rounds[i] : `hand ${i + 1}`;
      const a = el("a", "viewer", `${label} on tenhou.net/6`);
      a.href = href; a.target = "_blank"; a.rel = "noopener";
      dl.appendChild(a);
    });
  } catch (_) { /* no viewer links for MCR */ }
  const rev = el("button", "", "Review my game");
  rev.id = "review-played";
  rev.addEventListener("click", () => { $("play-over").hidden = true; showTab("review"); });
  dl.appendChild(rev);
  $("play-over").hidden = false;
  $("continue").hidden = true;
  const close = el("button", "", "Close");
  close.addEventListener("click", () => { $("play-over").hidden = true; });
  dl.appendChild(close);
}

function actionLabel(a) {
  const t = (c) => Tiles.tileLabel(c);
  switch (a.type) {
    case "hora": return play.table && play.table.seats[play.table.viewer].drawn ? "Tsumo" : "Ron";
    case "reach": return "Riichi";
    case "none": return "Pass";
    case "chi": return `Chi ${t(a.pai)} with ${a.consumed.map(t).join(" + ")}`;
    case "pon": return `Pon ${t(a.pai)}`;
    case "daiminkan": return `Kan ${t(a.pai)}`;
    case "ankan": return `Closed kan ${t(a.consumed[0])}`;
    case "kakan": return `Added kan ${t(a.pai)}`;
    case "ryukyoku": return "Call a draw (nine terminals)";
    default: return a.type;
  }
}

function send(action) {
  if (!play.decision || (!play.ws && !play.http)) return;
  const msg = { decision: play.decision.id, action: action.index };
  if (play.spend) { play.spend(); play.spend = null; }
  play.decision = null;
  $("actions").innerHTML = "";
  document.querySelectorAll("#play-table .hand .tile.playable").forEach((t) => t.classList.remove("playable"));
  if (play.ws) { play.ws.send(JSON.stringify(msg)); return; }
  api(`/api/games/${play.gid}/act`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(msg),
  }).then((u) => { play.queue.push(u); pump(); }).catch((e) => { toast(e.message); });
}

// Without a move timer the clock counts up (time on this decision, no limit).  With one it
// counts down the move's seconds, then the bank (kept for the whole game, as on Tenhou); at
// zero the server's timeout action is played: the drawn tile discarded, or the call passed.
function startClock(box, d) {
  clearInterval(play.clock);
  const opened = Date.now();
  const timer = play.timer;
  const clock = el("span", "clock" + (timer ? " countdown" : ""), timer ? String(timer.move) : "0:00");
  clock.title = timer ? "your time on this move (then the bank); at zero the drawn tile is discarded or the call passed" : "time on this decision";
  box.appendChild(clock);
  play.clock = setInterval(() => {
    if (!clock.isConnected || play.decision !== d) { clearInterval(play.clock); return; }
    const spent = (Date.now() - opened) / 1000;
    if (!timer) {
      const s = Math.floor(spent);
      clock.textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
      return;
    }
    const over = Math.max(0, spent - timer.move);
    const left = Math.ceil(Math.max(0, timer.move - spent));
    const bank = Math.ceil(Math.max(0, timer.bank - over));
    clock.textContent = timer.bank ? `${left} + ${bank}` : String(left);
    clock.classList.toggle("low", left === 0);
    if (over >= timer.bank) {
      clearInterval(play.clock);
      timer.bank = 0;
      const a = d.actions[d.timeout];
      toast(`Time ran out: ${a.type === "none" ? "passed" : a.type === "dahai" ? `discarded ${Tiles.tileLabel(a.pai)}` : actionLabel(a)}`);
      send(a);
    }
  }, 200);
  play.spend = () => {  // the bank pays for the seconds over the move's own
    if (timer) timer.bank = Math.max(0, timer.bank - Math.max(0, (Date.now() - opened) / 1000 - timer.move));
  };
}

function discardFor(hand, i) {
  // The action for the i-th tile of the shown hand: the drawn tile (last) discards tsumogiri.
  const d = play.decision;
  if (!d) return null;
  const s = play.table.seats[play.table.viewer];
  const code = s.hand[i];
  const drawn = s.drawn && i === s.hand.length - 1;
  const same = d.actions.filter((a) => a.type === "dahai" && a.pai === code);
  if (!same.length) return null;
  return same.find((a) => Boolean(a.tsumogiri) === drawn) || same[0];
}

function drawDecision() {
  const box = $("actions");
  box.innerHTML = "";
  const d = play.decision;
  if (!d || !play.table) return;
  const discard = d.actions.some((a) => a.type === "dahai");
  const prompt = el("span", "prompt", discard ? "Your turn: click a tile to discard" : "Your call:");
  box.appendChild(prompt);
  startClock(box, d);
  const hand = document.querySelector("#play-table .my-row .hand");
  if (hand) {
    hand.querySelectorAll(".tile").forEach((tile) => {
      const i = Number(tile.dataset.index);
      const a = discardFor(hand, i);
      if (a) {
        tile.classList.add("playable");
        tile.addEventListener("click", () => send(a), { once: true });
      }
    });
  }
  d.actions.filter((a) => a.type !== "dahai").forEach((a) => {
    const b = el("button", "act act-" + a.type, actionLabel(a));
    b.dataset.type = a.type;
    b.addEventListener("click", () => send(a));
    box.appendChild(b);
  });
}

const KEY_SLOTS = "1234567890qwer";
document.addEventListener("keydown", (ev) => {
  if (!$("play").classList.contains("active")) return replayKeys(ev);
  if (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") return;
  if (!play.decision) {
    if ((ev.key === "Enter" || ev.key === " ") && play.waitContinue) { ev.preventDefault(); play.waitContinue(); }
    return;
  }
  const s = play.table.seats[play.table.viewer];
  const slot = KEY_SLOTS.indexOf(ev.key);
  const pick = (type) => play.decision.actions.find((a) => a.type === type);
  let a = null;
  if (slot >= 0 && s.hand && slot < s.hand.length) a = discardFor(null, slot);
  else if (ev.key === "Enter" && s.hand) a = discardFor(null, s.hand.length - 1);
  else if (ev.key === " ") a = pick("none");
  else if (ev.key === "h") a = pick("hora");
  else if (ev.key === "i") a = pick("reach");
  else if (ev.key === "c") a = pick("chi");
  else if (ev.key === "o") a = pick("pon");
  else if (ev.key === "k") a = pick("daiminkan") || pick("ankan") || pick("kakan");
  if (a) { ev.preventDefault(); send(a); }
});

// ------------------------------------------------------------------ replay
const replay = { rid: null, summary: null, game: 0, index: 0, frame: null };

async function loadLibrary() {
  await metaReady;
  $("library-box").hidden = false;
  if (!state.meta || !state.meta.folders) { $("library-box").hidden = true; return; }
  const lib = await api("/api/library");
  const ul = $("library");
  ul.innerHTML = "";
  lib.files.filter((f) => f.kind === "record").forEach((f) => {
    const li = el("li");
    const a = el("a", "", f.path);
    a.href = "#";
    a.addEventListener("click", async (ev) => {
      ev.preventDefault();
      try { openRecord(await api(`/api/library/${f.folder}/${encodeURI(f.path)}`)); } catch (e) { toast(e.message); }
    });
    li.appendChild(a);
    ul.appendChild(li);
  });
}

$("upload-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const file = $("upload-file").files[0];
  if (!file) { toast("choose a record file first"); return; }
  const form = new FormData();
  form.append("file", file);
  try {
    const rec = await api("/api/records", { method: "POST", body: form });
    if (rec.kind === "arena") { showTab("arena"); renderArena(rec); return; }
    openRecord(rec);
  } catch (e) { toast(e.message); }
});

function openRecord(rec) {
  replay.rid = rec.id;
  replay.summary = rec;
  state.record = rec;
  const n = rec.games.length;
  const cut = rec.games.some((g) => g.truncated) ? " · the record stops early (truncated): shown up to where it ends" : "";
  $("record-info").textContent = `${rec.name} · ${rec.format} · ${n} game${n === 1 ? "" : "s"}${cut}`;
  fillSelect($("replay-game"), rec.games.map((g, i) => `game ${i + 1}: ${g.names.join(", ")}`));
  $("replay-game").selectedIndex = 0;
  $("replay-controls").hidden = false;
  selectGame(0);
}

function selectGame(i) {
  replay.game = i;
  const g = replay.summary.games[i];
  const sel = $("replay-round");
  sel.innerHTML = "";
  g.rounds.forEach((r) => {
    const o = document.createElement("option");
    o.value = r.event; o.textContent = r.label;
    sel.appendChild(o);
  });
  goto(g.rounds.length ? g.rounds[0].event : 0);
}

async function goto(index) {
  const g = replay.summary.games[replay.game];
  index = Math.max(0, Math.min(index, g.events - 1));
  replay.index = index;  // at once, so quick clicks and held keys move on from here
  try {
    const f = await api(`/api/records/${replay.rid}/games/${replay.game}/frames/${index}`);
    if (f.index !== replay.index) return;  // a later step is on its way
    replay.frame = f;
    renderTable($("replay-table"), f.table);
    renderResults($("replay-results"), f.table);
    $("replay-pos").textContent = `${f.index + 1} / ${f.total}`;
    const rounds = g.rounds.filter((r) => r.event <= f.index);
    if (rounds.length) $("replay-round").value = String(rounds[rounds.length - 1].event);
    const link = $("replay-link");
    const here = rounds.length ? rounds[rounds.length - 1] : null;
    link.hidden = !(here && here.link);
    if (here && here.link) { link.href = here.link; link.textContent = `${here.label} on tenhou.net/6`; }
  } catch (e) { toast(e.message); }
}

function roundStep(dir) {
  const g = replay.summary.games[replay.game];
  const starts = g.rounds.map((r) => r.event);
  if (dir > 0) {
    const next = starts.find((s) => s > replay.index);
    goto(next !== undefined ? next : g.events - 1);
  } else {
    const prev = starts.filter((s) => s < replay.index);
    goto(prev.length ? prev[prev.length - 1] : 0);
  }
}

$("replay-game").addEventListener("change", () => selectGame($("replay-game").selectedIndex));
$("replay-round").addEventListener("change", () => goto(Number($("replay-round").value)));
$("next-event").addEventListener("click", () => goto(replay.index + 1));
$("prev-event").addEventListener("click", () => goto(replay.index - 1));
$("next-round").addEventListener("click", () => roundStep(1));
$("prev-round").addEventListener("click", () => roundStep(-1));
$("review-this").addEventListener("click", () => showTab("review"));

function replayKeys(ev) {
  if (!$("replay").classList.contains("active") || !replay.rid) return;
  if (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") return;
  const moves = { ArrowRight: () => goto(replay.index + 1), ArrowLeft: () => goto(replay.index - 1),
                  ArrowDown: () => roundStep(1), ArrowUp: () => roundStep(-1) };
  if (moves[ev.key]) { ev.preventDefault(); moves[ev.key](); }
}

// ------------------------------------------------------------------ review
const review = { current: null };
function fillReviewSources() {
  const sel = $("review-source");
  const prev = sel.value;
  sel.innerHTML = "";
  if (state.record) {
    state.record.games.forEach((g, i) => {
      const o = document.createElement("option");
      o.value = `record:${state.record.id}:${i}`;
      o.textContent = `${state.record.name} (game ${i + 1})`;
      sel.appendChild(o);
    });
  }
  if (state.lastGame) {
    const o = document.createElement("option");
    o.value = `game:${state.lastGame.id}:0`;
    o.textContent = "the game you just played";
    sel.appendChild(o);
  }
  if (prev && [...sel.options].some((o) => o.value === prev)) sel.value = prev;
  else if (state.lastGame && !state.record) sel.value = `game:${state.lastGame.id}:0`;
  fillReviewPlayers();
}

// The player menu names the players of the chosen game, not seat numbers.
function fillReviewPlayers() {
  const [source, , game] = ($("review-source").value || "").split(":");
  let names = null;
  if (source === "record" && state.record) names = state.record.games[Number(game)].names;
  if (source === "game" && state.lastGame) names = state.lastGame.names;
  const sel = $("review-player");
  const prev = sel.value;
  sel.innerHTML = "";
  for (let i = 0; i < 4; i++) {
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = names && names[i] ? `${names[i]} (seat ${i})` : `seat ${i}`;
    sel.appendChild(o);
  }
  if (prev) sel.value = prev;
}
$("review-source").addEventListener("change", fillReviewPlayers);

$("review-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const [source, id, game] = ($("review-source").value || "").split(":");
  if (!id) { toast("open a record or finish a game first"); return; }
  const body = { source, id, game: Number(game), player: Number($("review-player").value),
                 agent: $("review-agent").value };
  $("review-summary").textContent = "reviewing…";
  $("review-list").innerHTML = "";
  $("review-hands-box").hidden = true;
  try {
    const r = await api("/api/review", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
    });
    const chosen = $("review-player").selectedOptions[0];
    renderReview({ ...r, player_name: chosen ? chosen.textContent : null });
  } catch (e) { $("review-summary").textContent = ""; toast(e.message); }
});

function pct(x) { return x === null || x === undefined ? "—" : `${(100 * x).toFixed(1)}%`; }

function viewerLink(href, text) {
  const a = el("a", "viewer", text);
  a.href = href; a.target = "_blank"; a.rel = "noopener";
  a.title = "opens this hand in the tenhou.net/6 viewer";
  return a;
}

// The review as review sites lay it out: the rating in words, the game hand by hand, the
// decisions that cost most, then any decision with the agent's probabilities.
function renderReview(r) {
  review.current = r;
  const s = r.summary;
  const box = $("review-summary");
  box.innerHTML = "";
  const who = r.player_name || `player ${r.player}`;
  const rating = el("p", "rating");
  rating.appendChild(el("span", "rating-value", s.rating === null ? "—" : s.rating.toFixed(1)));
  rating.appendChild(el("span", "", ` rating · ${who} played the ${r.agent} agent's choice in ` +
    `${s.agreements} of ${s.decisions} decisions (${pct(s.agreement)}) · mean expected loss ` +
    `${s.mean_loss === null ? "—" : s.mean_loss.toFixed(3)}`));
  box.appendChild(rating);
  box.appendChild(el("p", "explain", r.scored
    ? `Expected loss of a decision = the ${r.agent} agent's highest probability minus the probability it gave the move played (the probability gap): 0 when the move played was its favourite, near 1 when it was sure of another move. The rating is 100 × (1 − the mean loss): 100 means every move was the agent's favourite.`
    : `The ${r.agent} agent gives no probabilities, only its choice: the expected loss of a decision is 1 where it chose another move, 0 where it chose the same, so the rating (100 × (1 − the mean loss)) is the share of matching decisions. Choose sl or pg for probabilities.`));
  const worst = el("table", "worst");
  worst.appendChild(rowOf(["#", "hand", "played", `${r.agent} prefers`, "loss"], "th"));
  s.worst.forEach((w) => {
    const tr = rowOf([String(w.n + 1), w.round, w.player, w.agent, w.loss.toFixed(2)]);
    tr.addEventListener("click", () => showDecision(r, w.n));
    worst.appendChild(tr);
  });
  box.appendChild(el("h3", "", "Worst decisions (largest expected loss)"));
  box.appendChild(scrollBox(worst));
  renderHands(r);
  const list = $("review-list");
  list.innerHTML = "";
  r.decisions.forEach((d) => {
    const li = el("li", d.agree ? "agree" : "disagree", `${d.round}: ${d.actions[d.player].label}`);
    li.dataset.n = d.n;
    li.addEventListener("click", () => showDecision(r, d.n));
    list.appendChild(li);
  });
  if (r.decisions.length) showDecision(r, s.worst.length ? s.worst[0].n : 0);
}

// One row per hand: the result, the reviewed player's change, their decisions there, and the
// hand on tenhou.net/6; a click jumps to the player's first decision of that hand.
function renderHands(r) {
  const tbl = $("review-hands");
  tbl.innerHTML = "";
  $("review-hands-box").hidden = !r.hands.length;
  tbl.appendChild(rowOf(["hand", "result", "change", "decisions", "loss", ""], "th"));
  r.hands.forEach((h) => {
    const change = h.change[r.player] || 0;
    const tr = el("tr", "hand-row");
    tr.dataset.hand = h.hand;
    tr.appendChild(el("td", "", h.round));
    tr.appendChild(el("td", "result-text", h.results.map((x) => x.text).join("; ") || "—"));
    tr.appendChild(el("td", "num " + (change > 0 ? "plus" : change < 0 ? "minus" : ""), (change > 0 ? "+" : "") + change.toLocaleString("en-US")));
    tr.appendChild(el("td", "num", h.decisions ? `${h.agreements}/${h.decisions} match` : "—"));
    tr.appendChild(el("td", "num", h.decisions ? h.loss.toFixed(2) : "—"));
    const link = el("td", "link");
    if (h.link) link.appendChild(viewerLink(h.link, "tenhou.net/6"));
    tr.appendChild(link);
    if (h.first_decision !== null) {
      tr.classList.add("jump");
      tr.title = "show this hand's first decision";
      tr.addEventListener("click", (ev) => { if (ev.target.tagName !== "A") showDecision(r, h.first_decision); });
    }
    tbl.appendChild(tr);
  });
}

function rowOf(cells, tag = "td") {
  const tr = el("tr");
  cells.forEach((c) => tr.appendChild(el(tag, "", c)));
  return tr;
}

//: Moves shown per decision: the agent's few most likely, and the one played if not among them.
const TOP_MOVES = 4;

function showDecision(r, n) {
  const d = r.decisions[n];
  document.querySelectorAll("#review-list li").forEach((li) => li.classList.toggle("current", Number(li.dataset.n) === n));
  document.querySelectorAll("#review-hands tr.hand-row").forEach((tr) => tr.classList.toggle("current", Number(tr.dataset.hand) === d.hand));
  // bring the decision into view inside the list only (the page itself stays where it is)
  const list = $("review-list");
  const current = list.querySelector("li.current");
  if (current) {
    const off = current.getBoundingClientRect().top - list.getBoundingClientRect().top;
    if (off < 0 || off > list.clientHeight - current.offsetHeight) list.scrollTop += off - list.clientHeight / 3;
  }
  renderTable($("review-table"), d.table);
  const head = $("review-decision");
  head.innerHTML = "";
  head.appendChild(el("span", "", `Decision ${d.n + 1} · ${d.round} · expected loss ${d.loss.toFixed(2)}`));
  const hand = r.hands[d.hand];
  if (hand && hand.link) head.appendChild(viewerLink(hand.link, "this hand on tenhou.net/6"));
  const tbl = $("review-actions");
  tbl.innerHTML = "";
  tbl.appendChild(rowOf(["move", "agent's probability", ""], "th"));
  const order = d.actions.map((a, i) => i);
  if (r.scored) order.sort((i, j) => d.actions[j].prob - d.actions[i].prob || i - j);
  else order.sort((i, j) => (j === d.agent) - (i === d.agent) || (j === d.player) - (i === d.player) || i - j);
  let shown = order.slice(0, TOP_MOVES);
  if (!shown.includes(d.player)) shown = [...shown, d.player];
  if (!shown.includes(d.agent)) shown = [...shown, d.agent];
  shown.forEach((i) => {
    const a = d.actions[i];
    const tr = el("tr");
    tr.appendChild(el("td", "", a.label));
    const td = el("td", "prob");
    if (a.prob !== null) {
      const bar = el("span", "bar");
      bar.style.width = `${Math.round(100 * a.prob)}%`;
      td.appendChild(bar);
      td.appendChild(el("span", "num", `${(100 * a.prob).toFixed(1)}%`));
    } else td.textContent = "—";
    tr.appendChild(td);
    const marks = [];
    if (i === d.player) marks.push("played");
    if (i === d.agent) marks.push(`${r.agent}'s choice`);
    tr.appendChild(el("td", "marks", marks.join(" · ")));
    if (i === d.player) tr.classList.add("chosen");
    tbl.appendChild(tr);
  });
  const rest = d.actions.length - shown.length;
  if (rest > 0) {
    const tr = el("tr", "more");
    tr.appendChild(el("td", "", `${rest} other legal move${rest > 1 ? "s" : ""}` + (r.scored ? ", each less likely" : "")));
    tbl.appendChild(tr);
  }
}

// ------------------------------------------------------------------ arena
async function loadArenaLibrary() {
  const ul = $("arena-library");
  ul.innerHTML = "";
  if (!state.meta || !state.meta.folders) return;
  const lib = await api("/api/library");
  lib.files.filter((f) => f.kind === "arena").forEach((f) => {
    const li = el("li");
    const a = el("a", "", f.path);
    a.href = "#";
    a.addEventListener("click", async (ev) => {
      ev.preventDefault();
      try { renderArena(await api(`/api/library/${f.folder}/${encodeURI(f.path)}`)); } catch (e) { toast(e.message); }
    });
    li.appendChild(a);
    ul.appendChild(li);
  });
}

$("arena-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const file = $("arena-file").files[0];
  if (!file) { toast("choose a results file first"); return; }
  const form = new FormData();
  form.append("file", file);
  try { renderArena(await api("/api/records", { method: "POST", body: form })); } catch (e) { toast(e.message); }
});

// Wide tables scroll inside their own box, so the page itself never scrolls sideways.
function scrollBox(child) {
  const box = el("div", "scroll-x");
  box.appendChild(child);
  return box;
}

function fmtEst(e, digits = 2, pct = false) {
  if (!e || e.mean === null) return "—";
  const f = (v) => (pct ? (100 * v).toFixed(1) + "%" : v.toFixed(digits));
  return e.low === null ? f(e.mean) : `${f(e.mean)} [${f(e.low)}, ${f(e.high)}]`;
}

function renderArena(s) {
  const out = $("arena-out");
  out.innerHTML = "";
  out.appendChild(el("h2", "", `${s.name}: ${s.games} games, ${s.deals} deals`));
  out.appendChild(el("pre", "config", JSON.stringify(s.config, null, 1)));
  const tbl = el("table", "arena-table");
  tbl.appendChild(rowOf(["agent", "games", "avg rank", "1st/2nd/3rd/4th", "avg score", "win", "deal-in", "riichi", "call", "stable dan"], "th"));
  s.agents.forEach((a) => tbl.appendChild(rowOf([
    a.agent, String(a.games), fmtEst(a.avg_rank), a.rank_counts.join(" / "), fmtEst(a.avg_score, 0),
    fmtEst(a.win_rate, 3, true), fmtEst(a.deal_in_rate, 3, true), fmtEst(a.riichi_rate, 3, true),
    fmtEst(a.call_rate, 3, true), a.stable_dan === null ? "—" : a.stable_dan.toFixed(2),
  ])));
  out.appendChild(scrollBox(tbl));
  out.appendChild(el("h3", "", "Rank distribution"));
  out.appendChild(rankPlot(s.agents));
  out.appendChild(el("h3", "", "Average rank (95% interval)"));
  out.appendChild(avgRankPlot(s.agents));
  if (s.paired_tests.length) {
    out.appendChild(el("h3", "", "Paired tests (same deals)"));
    const pt = el("table", "arena-table");
    pt.appendChild(rowOf(["a", "b", "deals", "mean diff", "interval"], "th"));
    s.paired_tests.forEach((p) => pt.appendChild(rowOf([p.a, p.b, String(p.deals),
      p.mean_diff === null ? "—" : p.mean_diff.toFixed(1),
      p.low === null ? "—" : `[${p.low.toFixed(1)}, ${p.high.toFixed(1)}]`])));
    out.appendChild(scrollBox(pt));
  }
}

const SVGNS = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs, text) {
  const e = document.createElementNS(SVGNS, tag);
  Object.entries(attrs).forEach(([k, v]) => e.setAttribute(k, v));
  if (text !== undefined) e.textContent = text;
  return e;
}

function rankPlot(agents) {
  const colors = ["#2e86c1", "#58d68d", "#f5b041", "#e74c3c"];
  const rowH = 26, w = 560, left = 120;
  const svg = svgEl("svg", { viewBox: `0 0 ${w} ${agents.length * rowH + 20}`, class: "plot" });
  agents.forEach((a, r) => {
    const total = a.rank_counts.reduce((x, y) => x + y, 0) || 1;
    let x = left;
    svg.appendChild(svgEl("text", { x: 4, y: r * rowH + 18, "font-size": 12 }, a.agent));
    a.rank_counts.forEach((c, k) => {
      const width = ((w - left - 10) * c) / total;
      svg.appendChild(svgEl("rect", { x, y: r * rowH + 4, width, height: rowH - 8, fill: colors[k] }));
      if (width > 28) svg.appendChild(svgEl("text", { x: x + 4, y: r * rowH + 18, "font-size": 11, fill: "#fff" }, `${Math.round(100 * c / total)}%`));
      x += width;
    });
  });
  return svg;
}

function avgRankPlot(agents) {
  const rowH = 26, w = 560, left = 120, right = w - 20;
  const X = (v) => left + ((v - 1) / 3) * (right - left);
  const svg = svgEl("svg", { viewBox: `0 0 ${w} ${agents.length * rowH + 30}`, class: "plot" });
  [1, 1.5, 2, 2.5, 3, 3.5, 4].forEach((v) => {
    svg.appendChild(svgEl("line", { x1: X(v), x2: X(v), y1: 0, y2: agents.length * rowH, stroke: "#ddd" }));
    svg.appendChild(svgEl("text", { x: X(v) - 6, y: agents.length * rowH + 16, "font-size": 11 }, String(v)));
  });
  agents.forEach((a, r) => {
    const e = a.avg_rank;
    const y = r * rowH + rowH / 2;
    svg.appendChild(svgEl("text", { x: 4, y: y + 4, "font-size": 12 }, a.agent));
    if (e.mean === null) return;
    if (e.low !== null) svg.appendChild(svgEl("line", { x1: X(e.low), x2: X(e.high), y1: y, y2: y, stroke: "#333", "stroke-width": 2 }));
    svg.appendChild(svgEl("circle", { cx: X(e.mean), cy: y, r: 5, fill: "#2e86c1" }));
  });
  return svg;
}

// Yaku names: English by default, the native names (Japanese for Riichi, Chinese for MCR) as a
// setting kept in the browser.
(() => {
  const sel = $("yaku-names");
  try { sel.value = localStorage.getItem("tenpai.yakuNames") || "en"; } catch (_) { sel.value = "en"; }
  sel.addEventListener("change", () => {
    try { localStorage.setItem("tenpai.yakuNames", sel.value); } catch (_) { /* private mode */ }
    if (play.table && !$("play-over").hidden && $("play-results").childElementCount) renderResults($("play-results"), play.table);
    if (replay.frame) renderResults($("replay-results"), replay.frame.table);
  });
})();

// Pages that need the server's facts (the replay library) wait for this, not for luck.
const metaReady = loadMeta().catch((e) => toast(e.message));
