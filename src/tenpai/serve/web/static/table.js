// Draw one table snapshot (built by the server from events) into a container.
// The table is square, as players know it: the viewer at the bottom, the next player on the
// right, the one across at the top, the previous one on the left. Each seat's corner of the
// table (its river, its hand along the edge, its name plate) is drawn as if it were the bottom
// one and turned a quarter per seat, so rivers and called tiles face their owner.
"use strict";
(() => {

const WINDS = ["East", "South", "West", "North"];
const POS = ["bottom", "right", "top", "left"];
// Three players (sanma) sit as Tenhou seats them: the next one on the right, the previous one
// on the left, the far side empty.
const POS3 = ["bottom", "right", "left"];

function seatsOf(t) {
  return t.players || (t.seats ? t.seats.length : 4);
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function roundLabel(t) {
  return `${WINDS[t.bakaze % 4]} ${t.kyoku + 1}` + (t.honba ? ` · ${t.honba} honba` : "");
}

function seatWind(t, seat) {
  const n = seatsOf(t);
  return WINDS[(seat - t.oya + n) % n];
}

function nameOf(t, seat) {
  return (t.names && t.names[seat]) || `seat ${seat}`;
}

// "you draw" but "expert 2 draws": the human is always called "you".
function verb(who, base, third) {
  return who === "you" || who.startsWith("you (") ? `${who} ${base}` : `${who} ${third || base + "s"}`;
}

function kindOf(code) {
  return code >= 34 && code <= 36 ? [4, 13, 22][code - 34] : code;
}

function sortTiles(tiles) {
  return [...tiles].sort((a, b) => kindOf(a) - kindOf(b) || a - b);
}

function meldEl(m, seat, n = 4) {
  const box = el("span", "meld meld-" + m.type);
  const tiles = m.tiles.length ? m.tiles : [-1, -1, -1, -1];
  let rel = m.from === null || m.from === undefined ? -1 : (m.from - seat + n) % n;
  if (n === 3 && rel === 2) rel = 3;  // in sanma the player before sits on the left
  // The called tile lies sideways on the side of the player it came from: left for the player
  // before, middle for the one across, right for the next one. The server lists it first.
  let order = tiles;
  if (rel > 0 && m.type !== "ankan") {
    const [called, ...rest] = tiles;
    const spot = rel === 3 ? 0 : rel === 2 ? 1 : rest.length;
    order = [...rest.slice(0, spot), called, ...rest.slice(spot)];
    order.forEach((code, i) => box.appendChild(Tiles.tileEl(code, { sideways: i === spot })));
  } else {
    order.forEach((code, i) => {
      const hidden = m.type === "ankan" && (i === 0 || i === 3);
      box.appendChild(Tiles.tileEl(hidden ? -1 : code));
    });
  }
  box.title = { chi: "chi", pon: "pon", daiminkan: "open kan", ankan: "closed kan", kakan: "added kan" }[m.type] || m.type;
  return box;
}

function riichiStick() {
  const s = el("span", "stick");
  s.innerHTML = '<svg viewBox="0 0 60 6" aria-hidden="true"><rect x="0.5" y="0.5" width="59" height="5" rx="2.5" fill="#fff" stroke="#999" stroke-width="0.6"/><circle cx="30" cy="3" r="1.8" fill="#c0392b"/></svg>';
  s.title = "riichi stick (1,000 points)";
  return s;
}

function riverEl(s, lastDiscard) {
  const river = el("div", "river");
  s.river.forEach((r, i) => {
    const cls = [r.tsumogiri ? "tsumogiri" : "", lastDiscard && i === s.river.length - 1 ? "last-discard" : ""];
    river.appendChild(Tiles.tileEl(r.tile, {
      sideways: r.riichi, dim: r.called, cls: cls.filter(Boolean).join(" "),
    }));
  });
  return river;
}

function plateEl(t, seat) {
  const s = t.seats[seat];
  const plate = el("div", "plate" + (t.turn === seat ? " on-turn" : ""));
  const wind = el("span", "wind" + (seat === t.oya ? " dealer" : ""), seatWind(t, seat));
  if (seat === t.oya) wind.title = "dealer";
  const name = el("div", "name", nameOf(t, seat));
  name.title = nameOf(t, seat);  // a seat with settings (planner[FAN_WEIGHT=0]) is cut short on a phone
  plate.appendChild(name);
  const line = el("div", "plate-line");
  line.appendChild(wind);
  line.appendChild(el("span", "score", t.scores[seat].toLocaleString("en-US")));
  plate.appendChild(line);
  if (s.riichi) plate.appendChild(el("div", "riichi-flag", "riichi"));
  return plate;
}

function handEl(s, big) {
  const hand = el("div", "hand");
  if (s.hand) {
    s.hand.forEach((code, i) => {
      const tile = Tiles.tileEl(code, { cls: s.drawn && i === s.hand.length - 1 ? "drawn" : "" });
      tile.dataset.index = i;
      hand.appendChild(tile);
    });
  } else {
    for (let i = 0; i < s.count; i++) {
      hand.appendChild(Tiles.tileEl(-1, { cls: "back" + (s.drawn && i === s.count - 1 && big ? " drawn" : "") }));
    }
  }
  return hand;
}

function meldsEl(s, seat, n) {
  const melds = el("div", "melds");
  s.melds.forEach((m) => melds.appendChild(meldEl(m, seat, n)));
  s.flowers.forEach((f) => melds.appendChild(Tiles.tileEl(f, { cls: "flower" })));
  return melds;
}

// opts: {decorateHand: fn(handElement, seat)}
function renderTable(container, t, opts = {}) {
  container.innerHTML = "";
  const viewer = t.viewer || 0;
  const wrap = el("div", "table-wrap");
  const square = el("div", "square");
  const last = t.last || {};
  const center = el("div", "center");
  center.appendChild(el("div", "round", t.started ? `${WINDS[t.bakaze % 4]} ${t.kyoku + 1}` : "—"));
  if (t.honba) center.appendChild(el("div", "honba", `${t.honba} honba`));
  if (t.tiles_left !== null && t.tiles_left !== undefined) {
    center.appendChild(el("div", "left", `tiles left ${t.tiles_left}`));
  }
  if (t.kyotaku) {
    const sticks = el("div", "deposits", `riichi sticks ${t.kyotaku}`);
    sticks.title = "1,000 points each; the next winner takes them";
    center.appendChild(sticks);
  }
  const dora = el("div", "dora");
  dora.title = "dora indicators: the next tile in order is dora";
  dora.appendChild(el("span", "label", "dora"));
  t.dora.forEach((d) => dora.appendChild(Tiles.tileEl(d)));
  center.appendChild(dora);
  square.appendChild(center);  // first, so each seat's turn bar and stick lie on top
  const n = seatsOf(t);
  const where = n === 3 ? POS3 : POS;
  for (let rel = 0; rel < n; rel++) {
    const seat = (viewer + rel) % n;
    const s = t.seats[seat];
    const zone = el("div", "zone seat seat-" + where[rel] + (t.turn === seat ? " on-turn" : ""));
    zone.dataset.seat = seat;
    zone.appendChild(plateEl(t, seat));
    zone.appendChild(riverEl(s, last.type === "dahai" && last.actor === seat));
    if (s.riichi) zone.appendChild(riichiStick());
    zone.appendChild(el("div", "turn-bar"));
    if (rel !== 0) {
      const row = el("div", "edge");
      row.appendChild(handEl(s, false));
      row.appendChild(meldsEl(s, seat, n));
      zone.appendChild(row);
    }
    square.appendChild(zone);
  }
  wrap.appendChild(square);

  // The viewer's own hand lies along the near edge, below the square, in full size.
  const me = t.seats[viewer];
  const mine = el("div", "my-row seat seat-mine");
  mine.dataset.seat = viewer;
  const hand = handEl(me, true);
  mine.appendChild(hand);
  mine.appendChild(meldsEl(me, viewer, n));
  wrap.appendChild(mine);
  wrap.appendChild(el("div", "last", t.last ? describeEvent(t.last, t) : ""));
  container.appendChild(wrap);
  if (opts.decorateHand) opts.decorateHand(hand, me);
}

function describeEvent(e, t) {
  const who = e.actor !== undefined ? nameOf(t, e.actor) : "";
  const tile = e.pai !== undefined ? Tiles.tileLabel(e.pai) : "";
  const from = e.target !== undefined ? nameOf(t, e.target) : "";
  switch (e.type) {
    case "tsumo": return e.pai === undefined || e.pai < 0 ? verb(who, "draw") : verb(who, "draw") + ` ${tile}`;
    case "dahai": return verb(who, "discard") + ` ${tile}` + (e.tsumogiri ? " (the tile just drawn)" : "");
    case "reach": return verb(who, "declare") + " riichi";
    case "reach_accepted": return `${who}: riichi stands (1,000 points on the table)`;
    case "chi": return verb(who, "call") + ` chi on ${tile} from ${from}`;
    case "pon": return verb(who, "call") + ` pon on ${tile} from ${from}`;
    case "daiminkan": return verb(who, "call") + ` kan on ${tile} from ${from}`;
    case "ankan": return verb(who, "declare") + " a closed kan";
    case "kakan": return verb(who, "add") + ` ${tile} to a pon (kan)`;
    case "dora": return "a new dora indicator is turned";
    case "hora": return verb(who, "win") + (e.actor === e.target ? " by tsumo" : ` by ron from ${from}`);
    case "ryukyoku": return `the hand is drawn (${drawKind(e.kind)})`;
    case "start_kyoku": return "a new hand is dealt";
    case "end_kyoku": return "the hand is over";
    case "end_game": return "the game is over";
    case "flower": return verb(who, "set") + " aside a flower";
    default: return e.type;
  }
}

function drawKind(kind) {
  return {
    exhaustive: "no tiles left", kyushukyuhai: "nine terminals", suufonrenda: "four winds",
    suuchariichi: "four riichi", suukaikan: "four kans", sanchahou: "three ron",
  }[kind || "exhaustive"] || kind;
}

// Yaku names: English unless the player chose the native names (Japanese / Chinese).
function yakuNames() {
  try { return localStorage.getItem("tenpai.yakuNames") || "en"; } catch (_) { return "en"; }
}

function sign(d) { return (d > 0 ? "+" : "") + d.toLocaleString("en-US"); }

// The end of a hand as clients show it: who won and how, the sorted hand with its melds and
// the winning tile, dora and ura-dora, yaku with their han, han/fu and limit, and every
// player's change.
function renderResults(container, t) {
  container.innerHTML = "";
  const native = yakuNames() === "native";
  t.results.forEach((r) => {
    const box = el("div", "result");
    if (r.type === "hora") {
      const winner = nameOf(t, r.actor);
      const wind = seatWind(t, r.actor);
      const how = r.tsumo ? "by tsumo" : `by ron from ${nameOf(t, r.target)}`;
      box.appendChild(el("h3", "", `${verb(`${winner} (${wind})`, "win")} ${how}`));
      const hand = el("div", "result-hand");
      const closed = sortTiles(r.hand);
      const win = r.pai;
      if (win !== undefined && win !== null && closed.length % 3 === 2) {
        let at = closed.indexOf(win);
        if (at < 0) at = closed.findIndex((c) => kindOf(c) === kindOf(win));
        if (at >= 0) closed.splice(at, 1);
      }
      const tilesBox = el("span", "closed");
      closed.forEach((c) => tilesBox.appendChild(Tiles.tileEl(c)));
      hand.appendChild(tilesBox);
      if (win !== undefined && win !== null) {
        hand.appendChild(Tiles.tileEl(win, { cls: "win-tile", title: `winning tile: ${Tiles.tileLabel(win)}` }));
      }
      (r.melds || []).forEach((m) => hand.appendChild(meldEl(m, r.actor, seatsOf(t))));
      box.appendChild(hand);
      const markers = el("div", "markers");
      const dora = el("span", "dora");
      dora.appendChild(el("span", "label", "dora"));
      (r.dora || []).forEach((d) => dora.appendChild(Tiles.tileEl(d)));
      markers.appendChild(dora);
      if (r.ura && r.ura.length) {
        const ura = el("span", "dora ura");
        ura.appendChild(el("span", "label", "ura-dora"));
        r.ura.forEach((d) => ura.appendChild(Tiles.tileEl(d)));
        markers.appendChild(ura);
      }
      if ((r.dora || []).length || (r.ura || []).length) box.appendChild(markers);
      const unit = r.unit === undefined ? "han" : r.unit;
      const pts = (v) => (unit ? `${v} ${unit}` : String(v));
      const yaku = el("table", "yaku");
      (r.yaku_labels || r.yaku.map(([n, v]) => ({ en: n, native: n, han: v }))).forEach((y) => {
        const tr = el("tr");
        const name = el("td", "yaku-name", native ? y.native : y.en);
        name.title = native ? y.en : y.native;
        tr.appendChild(name);
        tr.appendChild(el("td", "yaku-han", pts(y.han)));
        yaku.appendChild(tr);
      });
      box.appendChild(yaku);
      const value = [];
      if (r.han !== null && r.han !== undefined) value.push(pts(r.han));
      if (r.fu) value.push(`${r.fu} fu`);
      if (r.limit) value.push(r.limit);
      if (value.length) box.appendChild(el("div", "hanfu", value.join(" · ")));
    } else {
      box.appendChild(el("h3", "", `Draw: ${drawKind(r.kind)}`));
    }
    const deltas = el("table", "deltas");
    r.deltas.forEach((d, seat) => {
      const tr = el("tr");
      tr.appendChild(el("td", "who", `${nameOf(t, seat)} (${seatWind(t, seat)})`));
      tr.appendChild(el("td", d > 0 ? "plus" : d < 0 ? "minus" : "", sign(d)));
      tr.appendChild(el("td", "after", (t.scores[seat]).toLocaleString("en-US")));
      deltas.appendChild(tr);
    });
    box.appendChild(deltas);
    container.appendChild(box);
  });
}

window.TableView = { renderTable, renderResults, describeEvent, roundLabel, el, seatWind, verb };
})();
