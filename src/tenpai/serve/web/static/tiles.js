// Tile pictures drawn as small SVGs (our own drawings: pips, sticks, kanji as strokes), cached per code.
// Codes follow tenpai.tiles: 0-8 man, 9-17 pin, 18-26 sou, 27-33 E S W N P F C,
// 34-36 red 5m/5p/5s, 37-44 flowers H1-H8; -1 is a face-down tile.
"use strict";
(() => {

const TILE_NAMES = (() => {
  const out = [];
  for (const s of ["m", "p", "s"]) for (let n = 1; n <= 9; n++) out.push(n + s);
  out.push("E", "S", "W", "N", "P", "F", "C", "0m", "0p", "0s");
  for (let i = 1; i <= 8; i++) out.push("H" + i);
  return out;
})();

function tileName(code) {
  return code === null || code === undefined || code < 0 ? "?" : TILE_NAMES[code];
}

// Pip positions (in a 30x40 box) for 1..9 pins and sticks.
const LAYOUT = {
  1: [[15, 20]],
  2: [[15, 11], [15, 29]],
  3: [[8, 9], [15, 20], [22, 31]],
  4: [[9, 11], [21, 11], [9, 29], [21, 29]],
  5: [[9, 10], [21, 10], [15, 20], [9, 30], [21, 30]],
  6: [[9, 9], [21, 9], [9, 20], [21, 20], [9, 31], [21, 31]],
  7: [[7, 7], [15, 10], [23, 13], [9, 23], [21, 23], [9, 33], [21, 33]],
  8: [[9, 7], [21, 7], [9, 15.5], [21, 15.5], [9, 24.5], [21, 24.5], [9, 33], [21, 33]],
  9: [[7, 9], [15, 9], [23, 9], [7, 20], [15, 20], [23, 20], [7, 31], [15, 31], [23, 31]],
};

function pinSvg(n, red) {
  const r = n === 1 ? 8 : n <= 4 ? 5 : n <= 6 ? 4.2 : 3.6;
  return LAYOUT[n].map(([x, y], i) => {
    let color = "#1d4f91";
    if (n === 1 || (n === 5 && i === 2)) color = "#c0392b";
    if (n === 7 && i < 3) color = "#1e7b3a";
    if (red) color = "#c0392b";
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="none" stroke="${color}" stroke-width="1.6"/>` +
      `<circle cx="${x}" cy="${y}" r="${r * 0.4}" fill="${color}"/>`;
  }).join("");
}

function souSvg(n, red) {
  if (n === 1) {
    const c = red ? "#c0392b" : "#1e7b3a";
    return `<rect x="12" y="6" width="6" height="28" rx="3" fill="${c}"/>` +
      `<circle cx="15" cy="12" r="3.5" fill="#c0392b"/><rect x="10" y="19" width="10" height="2" fill="#fff"/>`;
  }
  const h = n <= 3 ? 12 : n <= 6 ? 9 : 7;
  return LAYOUT[n].map(([x, y], i) => {
    let c = "#1e7b3a";
    if (red || (n === 5 && i === 2) || (n === 7 && i === 0) || (n === 9 && i % 3 === 1)) c = "#c0392b";
    return `<rect x="${x - 2}" y="${y - h / 2}" width="4" height="${h}" rx="1.5" fill="${c}"/>` +
      `<rect x="${x - 2}" y="${y - 0.5}" width="4" height="1" fill="#fff" opacity="0.7"/>`;
  }).join("");
}

// Kanji drawn as strokes (our own simplified drawings), so no CJK font is needed: the numerals
// one to nine and the man character on the man tiles, the winds, and the green and red dragons.
const NUMERALS = {
  1: "M6 11H24",
  2: "M9 8H21M6 15H24",
  3: "M8 6H22M9 11H21M6 16H24",
  4: "M7 6V17M7 6H23V17M7 16.5H23M12 6Q12 12 9.5 13M17 6V11.5Q17 13 19.5 13",
  5: "M8 6H22M14 6L12 16.5M9 11H20V16.5M6 16.5H24",
  6: "M14.5 4L16.5 6.5M7 8.5H23M12 11L8 17M18 11L22 17",
  7: "M6 11.5L24 9M12 5V15Q12 17 15 17H22.5V15",
  8: "M12.5 6Q12 13 7 17M17.5 6Q18 13 23 17",
  9: "M6 9H17V15Q17 17 20 17H24V15M12.5 5Q13 13 7 17",
};
const MAN = "M6 22H24M11 20V24M19 20V24M9 24.5H21V29.5H9ZM15 24.5V29.5M9 27H21" +
  "M7 31V37.5M7 31H23V36Q23 37.5 21 37.5M15 29.5V35M11 35L15 32L19 35";
const HONOURS = {
  27: "M7 11H23M15 5V36M9 14H21V23H9ZM9 18.5H21M15 24L7 33M15 24L23 33",
  28: "M6 9H24M15 5V13M8 13V36M8 13H22V34Q22 36 20 36M12 16L13 18.5M18 16L17 18.5M11 21H19M11 26.5H19M15 21V34",
  29: "M6 8H24M8 14V34M8 14H22V34M8 33H22M13 8V19Q13 22 9.5 23.5M17 8V21Q17 23.5 22 23.5",
  30: "M12 6V33M6 16H12M12 27L5.5 32M18 6V30.5Q18 33 21 33H24.5V30M18 18L24 14",
  32: "M6 6H11.5L9 10M8 9L12.5 12.5M24 6H18.5L21 10M22 9L17.5 12.5M15 4.5V12" +
      "M6 16H12V21H7V26H12V33Q12 35 9.5 35M17 16V20Q17 22.5 15 23.5M21 16V21H24.5" +
      "M16 26H23.5L17 35.5M17.5 28.5L24.5 35.5",
  33: "M7 14H23V26H7ZM15 5V37",
};

function strokes(d, color, width = 2.2) {
  return `<path d="${d}" fill="none" stroke="${color}" stroke-width="${width}" ` +
    `stroke-linecap="round" stroke-linejoin="round"/>`;
}

function manSvg(n, red) {
  return strokes(NUMERALS[n], red ? "#c0392b" : "#1a1a1a") + strokes(MAN, "#c0392b", 1.8);
}

function honorSvg(kind) {
  if (kind === 31) {
    return `<rect x="6.5" y="7.5" width="17" height="25" rx="1.5" fill="none" stroke="#1d4f91" stroke-width="2"/>` +
      `<rect x="9.5" y="10.5" width="11" height="19" fill="none" stroke="#1d4f91" stroke-width="1"/>`;
  }
  const color = kind === 32 ? "#1e7b3a" : kind === 33 ? "#c0392b" : "#1a1a1a";
  return strokes(HONOURS[kind], color, kind === 32 ? 1.9 : 2.4);
}

function flowerSvg(i) {
  const petals = [0, 72, 144, 216, 288].map(
    (a) => `<ellipse cx="15" cy="13" rx="3" ry="5" fill="#d35486" transform="rotate(${a} 15 18)"/>`
  ).join("");
  // the flower's number as small dots (1-4 in one colour, 5-8 in another), no font needed
  const n = ((i - 1) % 4) + 1;
  const color = i <= 4 ? "#1d4f91" : "#c0392b";
  const dots = Array.from({ length: n }, (_, k) =>
    `<circle cx="${15 - (n - 1) * 2.5 + k * 5}" cy="34" r="1.6" fill="${color}"/>`).join("");
  return petals + `<circle cx="15" cy="18" r="2.5" fill="#f1c40f"/>` + dots;
}

const SVG_CACHE = new Map();

// A tile's picture; sideways tiles (calls, riichi) are turned a quarter to the left, the way a
// player turns a called tile on a real table, in a box that is wider than high.
function tileSvg(code, sideways = false) {
  const key = `${code}:${sideways ? 1 : 0}`;
  if (SVG_CACHE.has(key)) return SVG_CACHE.get(key);
  let inner;
  let face = "#fbf8ef";
  if (code === null || code === undefined || code < 0) {
    face = "#2f7d5b";
    inner = `<rect x="4" y="4" width="22" height="32" rx="2" fill="none" stroke="#9fd3b8" stroke-width="0.8"/>`;
  } else if (code >= 37) {
    inner = flowerSvg(code - 36);
  } else {
    const red = code >= 34 && code <= 36;
    const kind = red ? [4, 13, 22][code - 34] : code;
    const n = (kind % 9) + 1;
    if (kind < 9) inner = manSvg(n, red);
    else if (kind < 18) inner = pinSvg(n, red);
    else if (kind < 27) inner = souSvg(n, red);
    else inner = honorSvg(kind);
  }
  const body = `<rect x="0.75" y="0.75" width="28.5" height="38.5" rx="3.5" fill="${face}" stroke="#8a8272" stroke-width="1.2"/>` +
    inner;
  const svg = sideways
    ? `<svg viewBox="0 0 40 30" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">` +
      `<g transform="translate(0 30) rotate(-90)">${body}</g></svg>`
    : `<svg viewBox="0 0 30 40" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">${body}</svg>`;
  SVG_CACHE.set(key, svg);
  return svg;
}

// One tile as a DOM element; options: {sideways, dim, called, cls, title}
function tileEl(code, opts = {}) {
  const el = document.createElement("span");
  el.className = "tile" + (opts.sideways ? " sideways" : "") + (opts.dim ? " dim" : "") +
    (opts.cls ? " " + opts.cls : "");
  el.innerHTML = tileSvg(code, Boolean(opts.sideways));
  el.dataset.tile = tileName(code);
  el.title = opts.title || tileLabel(code);
  return el;
}

// A tile as a player says it: 5p, red 5m, East, White dragon (not the notation's P or 0m).
const HONOUR_LABELS = ["East", "South", "West", "North", "White dragon", "Green dragon", "Red dragon"];
function tileLabel(code) {
  if (code === null || code === undefined || code < 0) return "a hidden tile";
  if (code >= 37) return `flower ${code - 36}`;
  if (code >= 34) return `red 5${"mps"[code - 34]}`;
  if (code >= 27) return HONOUR_LABELS[code - 27];
  return TILE_NAMES[code];
}

window.Tiles = { tileEl, tileSvg, tileName, tileLabel };
})();
