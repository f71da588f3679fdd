// Tile pictures drawn as small SVGs (our own drawings: pips, sticks, letters), cached per code.
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

function manSvg(n, red) {
  const c = red ? "#c0392b" : "#1a1a1a";
  return `<text x="15" y="19" text-anchor="middle" font-size="17" font-weight="700" fill="${c}" ` +
    `font-family="DejaVu Sans, Liberation Sans, sans-serif">${n}</text>` +
    `<rect x="7" y="24" width="16" height="11" rx="2" fill="#c0392b"/>` +
    `<text x="15" y="33" text-anchor="middle" font-size="10" font-weight="700" fill="#fff" ` +
    `font-family="DejaVu Sans, sans-serif">m</text>`;
}

function honorSvg(kind) {
  const font = 'font-family="DejaVu Sans, Liberation Sans, sans-serif" font-weight="700"';
  if (kind <= 30) {
    const letter = "ESWN"[kind - 27];
    return `<text x="15" y="28" text-anchor="middle" font-size="21" fill="#1a1a1a" ${font}>${letter}</text>`;
  }
  if (kind === 31) {
    return `<rect x="7" y="8" width="16" height="24" rx="1.5" fill="none" stroke="#1d4f91" stroke-width="2"/>` +
      `<rect x="10" y="11" width="10" height="18" fill="none" stroke="#1d4f91" stroke-width="1"/>`;
  }
  if (kind === 32) {
    return `<text x="15" y="28" text-anchor="middle" font-size="21" fill="#1e7b3a" ${font}>F</text>`;
  }
  return `<text x="15" y="28" text-anchor="middle" font-size="21" fill="#c0392b" ${font}>C</text>`;
}

function flowerSvg(i) {
  const petals = [0, 72, 144, 216, 288].map(
    (a) => `<ellipse cx="15" cy="13" rx="3" ry="5" fill="#d35486" transform="rotate(${a} 15 18)"/>`
  ).join("");
  return petals + `<circle cx="15" cy="18" r="2.5" fill="#f1c40f"/>` +
    `<text x="15" y="36" text-anchor="middle" font-size="8" fill="#1a1a1a" font-family="DejaVu Sans, sans-serif">${i}</text>`;
}

const SVG_CACHE = new Map();

function tileSvg(code) {
  if (SVG_CACHE.has(code)) return SVG_CACHE.get(code);
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
  const svg = `<svg viewBox="0 0 30 40" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">` +
    `<rect x="0.75" y="0.75" width="28.5" height="38.5" rx="3.5" fill="${face}" stroke="#8a8272" stroke-width="1.2"/>` +
    inner + `</svg>`;
  SVG_CACHE.set(code, svg);
  return svg;
}

// One tile as a DOM element; options: {sideways, dim, called, cls, title}
function tileEl(code, opts = {}) {
  const el = document.createElement("span");
  el.className = "tile" + (opts.sideways ? " sideways" : "") + (opts.dim ? " dim" : "") +
    (opts.cls ? " " + opts.cls : "");
  el.innerHTML = tileSvg(code);
  el.dataset.tile = tileName(code);
  el.title = opts.title || tileName(code);
  return el;
}

window.Tiles = { tileEl, tileSvg, tileName };
})();
