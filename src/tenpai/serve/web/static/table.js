// Draw one table snapshot (built by the server from events) into a container.
// Seats are placed relative to the viewer: bottom = viewer, right = next, top = across, left = previous.
"use strict";
(() => {

const WINDS = ["E", "S", "W", "N"];
const POS = ["bottom", "right", "top", "left"];

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function roundLabel(t) {
  return `${WINDS[t.bakaze % 4]}${t.kyoku + 1}-${t.honba}`;
}

function seatWind(t, seat) {
  return WINDS[(seat - t.oya + 4) % 4];
}

function meldEl(m, seat) {
  const box = el("span", "meld");
  const tiles = m.tiles.length ? m.tiles : [-1, -1, -1, -1];
  const rel = m.from === null || m.from === undefined ? -1 : (m.from - seat + 4) % 4;
  // The called tile lies sideways, on the side of the player it came from.
  const sideIndex = rel === 3 ? 0 : rel === 2 ? 1 : rel === 1 ? tiles.length - 1 : -1;
  tiles.forEach((code, i) => {
    const hidden = m.type === "ankan" && (i === 0 || i === 3);
    box.appendChild(Tiles.tileEl(hidden ? -1 : code, { sideways: i === sideIndex && m.type !== "ankan" }));
  });
  box.title = m.type;
  return box;
}

// opts: {interactive: fn(hand) -> decorate, showAll}
function renderTable(container, t, opts = {}) {
  container.innerHTML = "";
  const viewer = t.viewer || 0;
  const grid = el("div", "table-grid");
  for (let rel = 0; rel < 4; rel++) {
    const seat = (viewer + rel) % 4;
    const s = t.seats[seat];
    const area = el("div", "seat seat-" + POS[rel]);
    area.dataset.seat = seat;
    const head = el("div", "seat-head");
    const wind = el("span", "wind" + (seat === t.oya ? " dealer" : ""), seatWind(t, seat));
    head.appendChild(wind);
    head.appendChild(el("span", "name", t.names[seat] || `seat ${seat}`));
    head.appendChild(el("span", "score", String(t.scores[seat])));
    if (s.riichi) head.appendChild(el("span", "riichi-stick", "riichi"));
    area.appendChild(head);
    const river = el("div", "river");
    s.river.forEach((r) => {
      river.appendChild(Tiles.tileEl(r.tile, {
        sideways: r.riichi, dim: r.called, cls: r.tsumogiri ? "tsumogiri" : "",
      }));
    });
    area.appendChild(river);
    const row = el("div", "hand-row");
    const hand = el("div", "hand");
    if (s.hand) {
      s.hand.forEach((code, i) => {
        const tile = Tiles.tileEl(code, { cls: s.drawn && i === s.hand.length - 1 ? "drawn" : "" });
        tile.dataset.index = i;
        hand.appendChild(tile);
      });
    } else {
      const n = s.count;
      if (rel === 0 || opts.compactHidden === false) {
        for (let i = 0; i < n; i++) hand.appendChild(Tiles.tileEl(-1, { cls: "back" }));
      } else {
        for (let i = 0; i < n; i++) hand.appendChild(Tiles.tileEl(-1, { cls: "back small" }));
      }
    }
    row.appendChild(hand);
    const melds = el("div", "melds");
    s.melds.forEach((m) => melds.appendChild(meldEl(m, seat)));
    s.flowers.forEach((f) => melds.appendChild(Tiles.tileEl(f, { cls: "flower" })));
    row.appendChild(melds);
    area.appendChild(row);
    if (rel === 0 && opts.decorateHand) opts.decorateHand(hand, s);
    grid.appendChild(area);
  }
  const center = el("div", "center");
  center.appendChild(el("div", "round", t.started ? roundLabel(t) : "—"));
  const info = el("div", "info");
  info.textContent = `honba ${t.honba} · sticks ${t.kyotaku} · draws ${t.draws}`;
  center.appendChild(info);
  const dora = el("div", "dora");
  dora.appendChild(el("span", "label", "dora"));
  t.dora.forEach((d) => dora.appendChild(Tiles.tileEl(d)));
  center.appendChild(dora);
  if (t.last) center.appendChild(el("div", "last", describeEvent(t.last, t.names)));
  grid.appendChild(center);
  container.appendChild(grid);
}

function describeEvent(e, names) {
  const who = e.actor !== undefined ? (names[e.actor] || `seat ${e.actor}`) : "";
  const tile = e.pai !== undefined ? Tiles.tileName(e.pai) : "";
  switch (e.type) {
    case "tsumo": return `${who} draws ${tile}`;
    case "dahai": return `${who} discards ${tile}${e.tsumogiri ? " (drawn)" : ""}`;
    case "reach": return `${who} declares riichi`;
    case "reach_accepted": return `${who}'s riichi is accepted`;
    case "chi": case "pon": case "daiminkan": return `${who}: ${e.type} ${tile}`;
    case "ankan": case "kakan": return `${who}: ${e.type}`;
    case "dora": return "new dora indicator";
    case "hora": return `${who} wins`;
    case "ryukyoku": return `draw (${e.kind || "exhaustive"})`;
    case "start_kyoku": return "new hand";
    case "end_kyoku": return "hand over";
    case "end_game": return "game over";
    case "flower": return `${who} sets aside a flower`;
    default: return e.type;
  }
}

// The end of a hand: who won and how, yaku with their han, han/fu, everyone's point change.
function renderResults(container, t) {
  container.innerHTML = "";
  t.results.forEach((r) => {
    const box = el("div", "result");
    if (r.type === "hora") {
      const how = r.tsumo ? "tsumo" : `ron from ${r.source}`;
      box.appendChild(el("h3", "", `${r.who} wins (${how})`));
      const hand = el("div", "result-hand");
      r.hand.forEach((c) => hand.appendChild(Tiles.tileEl(c)));
      if (r.pai !== undefined && r.pai !== null && r.hand.length % 3 === 1) {
        hand.appendChild(el("span", "gap", " "));
        hand.appendChild(Tiles.tileEl(r.pai, { cls: "win-tile" }));
      }
      box.appendChild(hand);
      const yaku = el("ul", "yaku");
      r.yaku.forEach(([name, han]) => yaku.appendChild(el("li", "", `${name} — ${han}`)));
      box.appendChild(yaku);
      const value = [];
      if (r.han !== null && r.han !== undefined) value.push(`${r.han} han`);
      if (r.fu) value.push(`${r.fu} fu`);
      if (value.length) box.appendChild(el("div", "hanfu", value.join(" · ")));
    } else {
      box.appendChild(el("h3", "", `Draw: ${r.kind}`));
    }
    const deltas = el("table", "deltas");
    r.deltas.forEach((d, seat) => {
      const tr = el("tr");
      tr.appendChild(el("td", "", t.names[seat] || `seat ${seat}`));
      tr.appendChild(el("td", d > 0 ? "plus" : d < 0 ? "minus" : "", (d > 0 ? "+" : "") + d));
      deltas.appendChild(tr);
    });
    box.appendChild(deltas);
    container.appendChild(box);
  });
}

window.TableView = { renderTable, renderResults, describeEvent, roundLabel, el };
})();
