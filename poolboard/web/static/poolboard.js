// Shared by every page: the live connection, the board drawing, FEN, clocks and the move list.
// Plain ES module, no build step; the server is the one source of state and of the cue styles.

const SVG_NS = "http://www.w3.org/2000/svg";

// -- the pages' language (docs/web.md): English text looked up in the catalogue ---------------

let catalogue = {};
/** The language the page shows ("en" or "es"). */
export let language = "en";

/** ``text`` (English) in the page's language, its ``{name}`` places filled from ``values``; a
 * value that is words of its own ({message, values}: a reason, a move to make) said the same. */
export function t(text, values = {}) {
  const found = catalogue[text] || text;
  const said = (value) => (value?.message === undefined ? value : t(value.message, value.values));
  return found.replace(/\{(\w+)\}/g, (place, name) => (name in values ? said(values[name]) : place));
}

/** The locale dates and times are written in: the reader's own if it is of the page's
 * language ("es-PR" on a Spanish page), else the page's language. */
export function dateLocale() {
  return navigator.languages.find((tag) => tag.split("-")[0] === language) ?? language;
}

/** Set ``element``'s text to ``text``, each rule ID in it (R-CAP-1) kept on one line and in
 * its own words: a narrow column or a big screen never breaks one at its hyphens. */
export function showText(element, text) {
  element.replaceChildren(...text.split(/(R-[A-Z]{3}-\d+)/).map((part, index) => {
    if (index % 2 === 0) return part;
    const rule = document.createElement("span");
    rule.className = "rule";
    rule.translate = false;
    rule.textContent = part;
    return rule;
  }));
}

/** Put every text of the page (and its titles, labels, placeholders) in the page's language;
 * an element marked translate="no" keeps its words (rule IDs, FEN, PDN). */
export function translatePage(root = document) {
  const walker = document.createTreeWalker(root.body ?? root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement?.closest("[translate=no], script, style")) continue;
    const key = node.nodeValue.replace(/\s+/g, " ").trim();
    if (catalogue[key]) node.nodeValue = node.nodeValue.replace(/\S[\s\S]*\S|\S/, catalogue[key]);
  }
  for (const attribute of ["title", "aria-label", "placeholder", "alt"]) {
    for (const element of (root.body ?? root).querySelectorAll(`[${attribute}]`)) {
      if (element.closest("[translate=no]")) continue;
      const key = element.getAttribute(attribute).replace(/\s+/g, " ").trim();
      if (catalogue[key]) element.setAttribute(attribute, catalogue[key]);
    }
  }
  const title = document.title.replace(/\s+/g, " ").trim();
  if (catalogue[title]) document.title = catalogue[title];
}

/** Word a void form's label ("strike the last [1] ply", "... [3] plies") as its ``input`` holds
 * one or more plies, now and as the number is typed: the words go in the label's spans
 * ``.before`` and ``.after`` the input, in the page's language. */
export function wordPlies(input) {
  const label = input.closest("label");
  const word = () => {
    const one = Number(input.value) === 1;
    const words = one ? t("strike the last {n} ply") : t("strike the last {n} plies");
    const [before, after] = words.split("{n}");
    label.querySelector(".before").textContent = before.trim();
    label.querySelector(".after").textContent = after.trim();
  };
  input.addEventListener("input", word);
  word();
}

/** Choose the page's language (?lang=, the reader's choice on this browser, else the board's
 * [display] language, from ``infoUrl``'s "language" and "languages": the hall's is /api/hall),
 * load its words, translate the page and wire the #language switch. */
export async function loadLanguage(infoUrl = "/api/info") {
  const info = await fetch(infoUrl).then((r) => r.json());
  const known = info.languages ?? ["en"];
  const asked = new URLSearchParams(location.search).get("lang") ?? localStorage.getItem("language");
  language = known.includes(asked) ? asked : info.language ?? "en";
  catalogue = language === "en" ? {} : await fetch(`/api/messages/${language}`).then((r) => r.json());
  document.documentElement.lang = language;
  document.documentElement.style.setProperty("--to-move", JSON.stringify(` · ${t("to move")}`));
  translatePage();
  document.documentElement.classList.remove("translating");  // veil.js hid it until now
  const choice = document.getElementById("language");
  if (choice) {
    choice.value = language;
    choice.addEventListener("change", () => {
      localStorage.setItem("language", choice.value);
      const url = new URL(location.href);
      url.searchParams.delete("lang");
      location.assign(url);
    });
  }
  return info;
}
const CELL = 100;

/** Row and column (0-7, row 0 = the far row from White) of a dark square 1-32 (R-BRD-2). */
export function squareCell(square) {
  const row = Math.floor((square - 1) / 4);
  const col = ((square - 1) % 4) * 2 + (row % 2 === 0 ? 1 : 0);
  return { row, col };
}

/** The dark square at a row and column, or null for a light square. */
export function cellSquare(row, col) {
  if (row < 0 || row > 7 || col < 0 || col > 7 || (row + col) % 2 === 0) return null;
  return row * 4 + Math.floor(col / 2) + 1;
}

/** Parse a PDN FEN ("B:W21,22,K23:B1-12") into {turn, pieces: Map(square -> {color, king})}. */
export function parseFen(fen) {
  const pieces = new Map();
  const parts = fen.split(":");
  const turn = parts[0].trim().toUpperCase() === "W" ? "white" : "black";
  for (const part of parts.slice(1)) {
    const color = part.trim()[0]?.toUpperCase() === "W" ? "white" : "black";
    for (const token of part.trim().slice(1).split(",")) {
      let text = token.trim().split(".")[0];
      if (!text) continue;
      const king = text.toUpperCase().startsWith("K");
      if (king) text = text.slice(1);
      const [first, last] = text.split("-").map(Number);
      for (let s = first; s <= (last || first); s++) pieces.set(s, { color, king });
    }
  }
  return { turn, pieces };
}

/** Seconds as a clock face: h:mm:ss, m:ss, or m:ss.t in the last ten seconds. */
export function formatClock(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return `0:0${s.toFixed(1)}`;
  const whole = Math.floor(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const sec = String(whole % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** The clock as last reported, ticked down locally for the running side. */
export class ClockModel {
  constructor() {
    this.clock = null;
    this.received = 0;
  }

  update(clock) {
    this.clock = clock;
    this.received = performance.now();
  }

  /** Seconds left for "black" or "white" now. */
  remaining(side) {
    if (!this.clock) return null;
    let left = this.clock[side];
    if (this.clock.state === "running" && this.clock.running === side) {
      left -= (performance.now() - this.received) / 1000;
    }
    return Math.max(0, left);
  }
}

/** Rows of the move list: [{number, black, white}] (a game may start with White to move). */
export function moveRows(state) {
  const rows = [];
  let side = state.start_fen.trim()[0].toUpperCase() === "W" ? "white" : "black";
  let row = null;
  for (const move of state.moves) {
    if (!row || side === "black") {
      row = { number: rows.length + 1, black: "", white: "" };
      rows.push(row);
    }
    row[side] = move;
    side = side === "black" ? "white" : "black";
  }
  return rows;
}

/** Fill a <tbody> with the move list under the players' names, the newest move marked; keeps
 * it scrolled to the end. */
export function renderMoves(tbody, state, { limit = 0, onPly = null } = {}) {
  const rows = moveRows(state);
  tbody.replaceChildren();
  const names = players(state);
  const heads = document.createElement("tr");
  heads.className = "heads";
  for (const text of [t("move"), names.black, names.white]) {
    const th = document.createElement("th");
    th.textContent = text;
    th.scope = "col";
    heads.append(th);
  }
  heads.children[1].className = "black";
  heads.children[2].className = "white";
  tbody.append(heads);
  const firstPly = state.start_fen.trim()[0].toUpperCase() === "W" ? 2 : 1;
  const shown = limit ? rows.slice(-limit) : rows;
  for (const row of shown) {
    const tr = document.createElement("tr");
    const number = document.createElement("th");
    number.textContent = `${row.number}.`;
    tr.append(number);
    ["black", "white"].forEach((side, index) => {
      const td = document.createElement("td");
      const ply = (row.number - 1) * 2 + index + 1 - (firstPly - 1);
      if (row[side] && ply === state.moves.length) td.classList.add("last");
      if (row[side] && onPly) {
        // A button, so the keyboard reaches it as well as the mouse.
        const pick = document.createElement("button");
        pick.type = "button";
        pick.className = "pick";
        pick.textContent = row[side];
        pick.title = t("ply {ply}", { ply });
        pick.addEventListener("click", () => onPly(ply, row[side]));
        td.append(pick);
      } else {
        td.textContent = row[side];
      }
      tr.append(td);
    });
    tbody.append(tr);
  }
  const scroller = tbody.closest(".scroll");
  if (scroller) scroller.scrollTop = scroller.scrollHeight;
}

let stylesPromise = null;
/** The cue styles from GET /api/cue-styles (engine/cues.py CUE_STYLES), fetched once. */
export function cueStyles() {
  stylesPromise ??= fetch("/api/cue-styles").then((r) => r.json());
  return stylesPromise;
}

/**
 * Connect to /ws: onState(state) for the first (whole) state and every change; reconnects.
 * onStatus(true) comes once that first state is shown, so "live" never labels an empty page.
 */
export function connect(onState, onStatus = () => {}) {
  let delay = 500;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws`);
    let shown = false;
    socket.onopen = () => {
      delay = 500;
    };
    socket.onmessage = (message) => {
      onState(JSON.parse(message.data));
      if (!shown) {
        shown = true;
        onStatus(true);
      }
    };
    socket.onclose = () => {
      onStatus(false);
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 5000);
    };
  };
  open();
}

/** Show the connection state in an element (class "live" or "down"). */
export function showConnection(element, live) {
  element.textContent = live ? t("live") : t("reconnecting…");
  element.className = `conn ${live ? "live" : "down"}`;
}

function svg(tag, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (parent) parent.append(element);
  return element;
}

/** The letter each cue shows in its square's corner (docs/cues.md), beside its colour. */
const CUE_MARKS = {
  "error": "!", "touch-move": "T", "restore-fill": "+", "restore-clear": "−", "wrong-piece": "?",
  "must-capture": "C", "jump-reminder": "J", "continue-jump": "J", "remove": "×", "crown": "K",
  "play-from": "1", "play-path": "·", "play-to": "2", "hint-from": "h", "hint-to": "h",
  "confirm": "✓", "move-from": "", "move-to": "",
};

/** What a cue asks for, in words (a lit square's title). */
function cueName(kind) {
  return {
    "error": t("a wrong move or a sensor fault here"), "touch-move": t("the touched piece must move"),
    "restore-fill": t("put a piece back here"), "restore-clear": t("take the piece off here"),
    "wrong-piece": t("the wrong piece stands here"), "must-capture": t("this piece must capture"),
    "jump-reminder": t("jump on to here"), "continue-jump": t("the capture can jump on to here"),
    "remove": t("take the captured piece off"), "crown": t("crown this piece"),
    "play-from": t("the opponent's move: lift this piece"), "play-path": t("the opponent's capture lands here"),
    "play-to": t("the opponent's move: put the piece down here"), "hint-from": t("hint: move this piece"),
    "hint-to": t("hint: to here"), "confirm": t("move recorded"), "move-from": t("the last move's start"),
    "move-to": t("the last move's end"),
  }[kind] ?? kind;
}

const CROWN = "M-17,8 L-20,-10 L-9,-1 L0,-14 L9,-1 L20,-10 L17,8 Z";

/** The board drawn in an <svg>: squares, cues as the LEDs show them, last move, pieces. */
export class BoardView {
  constructor(element, { flipped = false } = {}) {
    this.svg = element;
    this.flipped = flipped;
    element.setAttribute("viewBox", `0 0 ${8 * CELL} ${8 * CELL}`);
    element.setAttribute("role", "img");
    // A name before the first position is drawn (render() then describes the position).
    if (!element.getAttribute("aria-label")) element.setAttribute("aria-label", t("board"));
    this.squares = svg("g", { class: "squares" }, element);
    this.cueLayer = svg("g", { class: "cues" }, element);
    this.pieceLayer = svg("g", { class: "pieces" }, element);
    this.markLayer = svg("g", { class: "marks" }, element);
    // Over the pieces, so the arrow's head shows on the piece that moved; the crowns over the
    // arrow, so a king stays a king under it.
    this.moveLayer = svg("g", { class: "last-move" }, element);
    this.crownLayer = svg("g", { class: "crowns" }, element);
    const defs = svg("defs", {}, element);
    const marker = svg(
      "marker",
      { id: "arrow", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: "auto" },
      defs,
    );
    svg("path", { d: "M0,0 L10,5 L0,10 Z", class: "arrow-head" }, marker);
    const going = svg("marker", { ...Object.fromEntries([...marker.attributes].map((a) => [a.name, a.value])), id: "arrow-going" }, defs);
    svg("path", { d: "M0,0 L10,5 L0,10 Z", class: "arrow-head in-progress" }, going);
    this.last = null;
    this.cursor = null;
    this.drawSquares();
  }

  /** Work the board from the keyboard: the arrow keys move a cursor over the dark squares
   * (or type a square's number), Enter or Space calls ``activate(square)``; ``moved(square)``
   * hears where the cursor is, to say it. */
  enableKeyboard(activate, moved) {
    this.svg.setAttribute("tabindex", "0");
    this.svg.setAttribute("role", "application");
    this.svg.setAttribute("aria-roledescription", t("board"));
    let typed = "";
    const go = (square) => {
      this.cursor = square;
      moved(square);
      if (this.last) this.render(this.last);
    };
    // Reached by the keyboard, the cursor shows; a click's focus redraws nothing (a board
    // redrawn between the press and the release would lose the click).
    this.svg.addEventListener("focus", () => {
      if (this.svg.matches(":focus-visible")) go(this.cursor ?? (this.flipped ? 1 : 32));
    });
    this.svg.addEventListener("keydown", (event) => {
      const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      if (event.key in steps) {
        go(this.step(this.cursor ?? 32, ...steps[event.key]));
      } else if (event.key === "Enter" || event.key === " ") {
        if (this.cursor !== null) {
          activate(this.cursor);
          moved(this.cursor); // say what stands there now
        }
      } else if (/^[0-9]$/.test(event.key)) {
        typed = Number(typed + event.key) <= 32 ? typed + event.key : event.key;
        if (Number(typed) >= 1) go(Number(typed));
        if (typed.length === 2 || Number(typed) > 3) typed = "";
        return event.preventDefault();
      } else {
        return;
      }
      typed = "";
      event.preventDefault();
    });
  }

  /** The dark square one step from ``square`` as seen on the screen: up and down go to the
   * row above or below (the nearer diagonal), left and right to the next dark square. */
  step(square, rows, cols) {
    let { row, col } = squareCell(square);
    if (this.flipped) [row, col] = [7 - row, 7 - col];
    const tries = rows ? [[row + rows, col - 1], [row + rows, col + 1]] : [[row, col + 2 * cols]];
    for (let [r, c] of tries) {
      if (this.flipped) [r, c] = [7 - r, 7 - c];
      const found = cellSquare(r, c);
      if (found !== null) return found;
    }
    return square;
  }

  setFlipped(flipped) {
    this.flipped = flipped;
    this.drawSquares();
    if (this.last) this.render(this.last);
  }

  /** Centre (x, y) of a dark square in SVG units, seen from the current side. */
  centre(square) {
    let { row, col } = squareCell(square);
    if (this.flipped) [row, col] = [7 - row, 7 - col];
    return { x: col * CELL + CELL / 2, y: row * CELL + CELL / 2 };
  }

  drawSquares() {
    this.squares.replaceChildren();
    svg("rect", { width: 8 * CELL, height: 8 * CELL, class: "light" }, this.squares);
    for (let square = 1; square <= 32; square++) {
      const { x, y } = this.centre(square);
      svg("rect", { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, class: "dark", "data-square": square }, this.squares);
      const label = svg("text", { x: x - CELL / 2 + 6, y: y - CELL / 2 + 20, class: "number" }, this.squares);
      label.textContent = square;
    }
  }

  /** The square under a pointer: {square} (null on a light square or outside). */
  squareAt(clientX, clientY) {
    const box = this.svg.getBoundingClientRect();
    let col = Math.floor(((clientX - box.left) / box.width) * 8);
    let row = Math.floor(((clientY - box.top) / box.height) * 8);
    if (this.flipped) [row, col] = [7 - row, 7 - col];
    return cellSquare(row, col);
  }

  /** Draw {pieces: Map, cues: {"12": kind}, lastMove, styles, lifted, targets, progress,
   * unknown}: ``lifted`` the square a piece in hand came from, ``targets`` squares to mark as
   * its legal destinations, ``progress`` the squares of a move under way (drawn instead of the
   * last move), ``unknown`` squares the sensor reports a piece on that no piece explains. */
  render(picture) {
    this.last = picture;
    const {
      pieces, cues = {}, lastMove = null, styles = null, lifted = null, targets = [], progress = [],
      unknown = [],
    } = picture;
    this.markLayer.replaceChildren();
    if (lifted !== null) {
      const { x, y } = this.centre(lifted);
      svg("circle", { cx: x, cy: y, r: 38, class: "lifted", "data-square": lifted }, this.markLayer);
    }
    for (const square of targets) {
      const { x, y } = this.centre(square);
      svg("circle", { cx: x, cy: y, r: 14, class: "target", "data-square": square }, this.markLayer);
    }
    this.cueLayer.replaceChildren();
    if (styles) {
      for (const [key, kind] of Object.entries(cues)) {
        const style = styles.kinds[kind];
        if (!style) continue;
        const { x, y } = this.centre(Number(key));
        const rect = svg(
          "rect",
          { x: x - CELL / 2 + 5, y: y - CELL / 2 + 5, width: CELL - 10, height: CELL - 10, rx: 8, class: `cue ${kind} blink-${style.blink}`, "data-square": key, "data-cue": kind },
          this.cueLayer,
        );
        rect.style.fill = style.hex;
        rect.style.stroke = style.hex;
        // A mark and a name as well as the colour: colour is never the only sign of a cue.
        svg("title", {}, rect).textContent = cueName(kind);
        const mark = svg("text", { x: x + CELL / 2 - 10, y: y + CELL / 2 - 10, class: "cue-mark", "text-anchor": "end" }, this.cueLayer);
        mark.textContent = CUE_MARKS[kind] ?? "•";
        if (style.hertz) {
          // Every blinking square in phase, whenever it was drawn.
          const period = 1000 / style.hertz;
          rect.style.animationDelay = `-${Date.now() % period}ms`;
        }
      }
    }
    this.moveLayer.replaceChildren();
    const line = progress.length ? progress : lastMove?.path ?? [];
    if (line.length > 1) {
      const points = line.map((square) => {
        const { x, y } = this.centre(square);
        return `${x},${y}`;
      });
      const [kind, head] = progress.length ? ["move-line in-progress", "arrow-going"] : ["move-line", "arrow"];
      svg("polyline", { points: points.join(" "), class: kind, "marker-end": `url(#${head})` }, this.moveLayer);
    }
    this.pieceLayer.replaceChildren();
    this.crownLayer.replaceChildren();
    for (const [square, piece] of pieces) {
      const { x, y } = this.centre(square);
      const moving = progress.length > 1 && square === progress.at(-1);
      const group = svg("g", { transform: `translate(${x},${y})`, class: `piece ${piece.color}${piece.king ? " king" : ""}${moving ? " moving" : ""}`, "data-square": square }, this.pieceLayer);
      svg("circle", { r: 38, class: "rim" }, group);
      svg("circle", { r: 28, class: "ring" }, group);
      if (piece.king) {
        svg("path", { d: CROWN, class: "crown", transform: `translate(${x},${y})`, "data-square": square }, this.crownLayer);
      }
    }
    for (const square of unknown) {
      const { x, y } = this.centre(square);
      svg("circle", { cx: x, cy: y, r: 38, class: "unknown-piece", "data-square": square }, this.pieceLayer);
    }
    this.svg.setAttribute("aria-label", t("board: {position}", { position: describePosition(pieces) }));
    if (this.cursor !== null) {
      const { x, y } = this.centre(this.cursor);
      svg("rect", { x: x - CELL / 2 + 3, y: y - CELL / 2 + 3, width: CELL - 6, height: CELL - 6, class: "cursor", "data-square": this.cursor }, this.markLayer);
    }
  }
}

/** The picture of the board now (for BoardView.render): during a move the pieces as the sensor
 * sees them, the move under way marked; else the recorded position and its last move. */
export function boardPicture(state, styles) {
  const sensed = state.sensed;
  return {
    pieces: parseFen(sensed?.fen ?? state.fen).pieces,
    cues: state.cues,
    lastMove: state.last_move,
    progress: sensed?.path ?? [],
    unknown: sensed?.unknown ?? [],
    styles,
  };
}

/** "1 ply", "2 plies": a number with its noun, in the plural unless it is 1. */
export function counted(number, one, many = `${one}s`) {
  return `${number} ${Number(number) === 1 ? one : many}`;
}

/** A player as the referee names them: "Ann (Black)", or "Black" while unnamed. */
export function playerWords(state, side) {
  const colour = side === "white" ? "White" : "Black";
  const name = state.headers?.[colour];
  return known(name) ? `${name} (${colour})` : colour;
}

/** Remember the board's orientation per page in localStorage (or ?flip=1). */
export function storedFlip(key) {
  const asked = new URLSearchParams(location.search).get("flip");
  if (asked !== null) return asked === "1";
  return localStorage.getItem(key) === "1";
}

export function storeFlip(key, flipped) {
  localStorage.setItem(key, flipped ? "1" : "0");
}

/** The players' names from the PDN headers ("?" when unknown). */
export function players(state) {
  const name = (tag, fallback) => {
    const value = state.headers?.[tag];
    return value && value !== "?" ? value : fallback;
  };
  return { black: name("Black", t("Black")), white: name("White", t("White")) };
}

/** One line saying what the board waits for now, or the result in words (with the rules it
 * cites only where ``codes``: the referee's page). */
export function stateLine(state, { codes = false } = {}) {
  if (state.result) return resultText(state, { codes });
  const turn = state.turn === "white" ? t("White to move") : t("Black to move");
  if (state.clock?.state === "paused") return t("PAUSED by the referee — {turn}", { turn });
  if (state.state) return trackerLine(state.state);
  return t("set up the position on the board ({turn})", { turn });
}

/** A running draw count in words (R-DRW-*). The server's words are English: another language
 * says the count, whose moves count and how far it has got, by its rule ID. */
export function countText(count) {
  if (language === "en") return count.text;
  const kind = {
    "repetition": t("repetition of the position"),
    "13 count": t("13 count"),
    "long line": t("long line"),
    "stronger-side count": t("count for the stronger side"),
    "quiet play": t("quiet play"),
  }[count.kind] ?? count.kind;
  const { made, limit } = count;
  const far = count.side
    ? t("{side} has made {made} of {limit} moves", { side: sideName(count.side), made, limit })
    : t("{made} of {limit}", { made, limit });
  return `${count.rule}: ${kind}: ${far}`;
}

/** ``head`` and the rule IDs ``text`` cites, each once: "Ganan las negras (R-END-1)". */
export function withRules(head, text) {
  const rules = [...new Set((text ?? "").match(/R-[A-Z]{3}-\d+/g) ?? [])];
  return rules.length ? `${head} (${rules.join(", ")})` : head;
}

/** The result in words, with the rule IDs it cites only where ``codes`` (the referee's page),
 * in the page's language. From a table that sends the words in English only (an older board
 * in a hall), another language says who won, and the rules by their IDs. */
export function resultText(state, { codes = false } = {}) {
  if (language === "en") return codes ? state.result_text : state.words.result;
  if (codes && state.result_said) return t(state.result_said.message, state.result_said.values);
  if (!codes && state.words.result_words?.[language]) return state.words.result_words[language];
  const head = { "1-0": t("Black wins."), "0-1": t("White wins."), "1/2-1/2": t("The game is drawn.") };
  const words = head[state.result] ?? t("The game is over.");
  return codes ? withRules(words, state.result_reason) : words;
}

/** What the board waits for: the tracker's words (``said``) in the page's language. From a
 * table that sends only the English ``detail`` (the hall's tiles, an older board), another
 * language shows a sentence the catalogue has translated, else what the state asks for in
 * general (the lit squares, with their marks, say where). */
export function trackerLine({ name, detail, said }) {
  if (said && language !== "en") return t(said.message, said.values);
  if (language === "en" || catalogue[detail]) return t(detail) || name.replaceAll("_", " ");
  const squares = detail.split(": ").at(-1);
  return {
    setup: t("set up the position"),
    to_move: detail.startsWith("White") ? t("White to move") : t("Black to move"),
    moving: t("move in progress"),
    continue_capture: t("continue the capture as the lit squares show"),
    remove_captured: t("remove the captured pieces: {squares}", { squares }),
    restore: t("restore the position as the lit squares show"),
    crowning: t("crown the new king"),
  }[name] ?? detail;
}

/** ``text``, the server's English, as it is on an English page; in another language its words
 * ``phrase`` (a state's ``*_said``), when the server sent them (an older table does not). */
export function inLanguage(phrase, text) {
  return phrase && language !== "en" ? t(phrase.message, phrase.values) : text;
}

/** What the opponent off the board and a hint are doing now, or "" (docs/opponents.md). */
export function opponentLine(state) {
  const parts = [];
  const opponent = state.opponent;
  if (opponent && !state.result && opponent.status !== "idle") {
    const side = sideName(opponent.side);
    const name = inLanguage(opponent.name_said, opponent.name);
    parts.push(`${name}, ${t("playing {side}", { side })}: ${inLanguage(opponent.said, opponent.text)}`);
  }
  // A remote game (docs/remote.md): the link down, or the two boards' records disagreeing.
  if (opponent?.kind === "remote" && !opponent.connected) {
    parts.push(t("the link to the other board is down: moves wait"));
  }
  if (opponent?.problem) parts.push(inLanguage(opponent.problem_said, opponent.problem));
  if (state.hint?.status === "thinking") parts.push(t("hint: looking for a good move…"));
  else if (state.hint?.status === "shown") parts.push(t("hint: {move} (lit on the board)", { move: state.hint.move }));
  return parts.join(" · ");
}

/** Why the server refused an action, in the page's language: a refusal's message looked up
 * in the catalogue, its places filled from its values (docs/api.md); else its detail as the
 * server words it, or "" if it gave none. */
export function refusalText({ detail, message, values }) {
  if (message) return t(message, values);
  if (typeof detail === "string") return detail;
  return Array.isArray(detail) ? detail.map((d) => `${d.loc.slice(1).join(".")}: ${d.msg}`).join("; ") : "";
}

/** Ask for a hint (POST /api/hint); resolves to "" or the reason none can be given. */
export async function askHint() {
  try {
    const response = await fetch("/api/hint", {
      method: "POST",
      // X-Poolboard: without it the server refuses a change (poolboard/web/guard.py, CSRF).
      headers: { "X-Poolboard": "1" },
    });
    if (response.ok) return "";
    return refusalText(await response.json()) || t("refused ({status})", { status: response.status });
  } catch (error) {
    return t("not sent: {error}", { error });
  }
}

/** Show the opponent line and the hint button as ``state`` has them. */
export function showOpponent(state, line, button) {
  const text = opponentLine(state);
  line.textContent = text;
  line.hidden = !text;
  button.hidden = !state.hints || Boolean(state.result);
  const computerToMove = state.opponent && state.turn === state.opponent.side;
  button.disabled = Boolean(computerToMove) || state.hint !== null;
}

/** A violation as one line naming its rule once, in the page's language (``said``: the
 * tracker's words and what they quote, each looked up in the catalogue). */
export function violationText(violation) {
  const { rule } = violation;
  const message = inLanguage(violation.said, violation.message);
  return rule && !message.includes(rule) ? `${rule}: ${message}` : message;
}

/** What stands wrong with the table now, as lines: a move the store could not keep (until writes
 * work again) and a lost sensor link (until it is back). */
export function standingFaults(state) {
  const lines = [];
  if (state.storage) lines.push(inLanguage(state.storage_said, state.storage));
  const link = state.link;
  if (link && !link.connected) lines.push(t("sensor link DOWN: {detail}", { detail: inLanguage(link.said, link.detail) }));
  return lines;
}

/** "Club night · round 3 · game 2 of 2": the event (unless ``event`` is false) and the game of
 * the match. */
export function matchLine(state, { event = true } = {}) {
  const parts = [];
  if (event && known(state.headers?.Event)) parts.push(state.headers.Event);
  const match = state.match ?? {};
  if (known(match.round)) parts.push(t("round {round}", { round: match.round }));
  if (match.game) parts.push(t("game {game} of {games}", { game: match.game, games: match.games }));
  return parts.join(" · ");
}

/** A side's points in the match so far (R-TRN-3), or null before the first result. */
export function matchPoints(state, side) {
  const match = state.match ?? {};
  if (!match.results?.length) return null;
  return match.score.find((entry) => entry.side === side)?.points ?? 0;
}

/** Fill a player's box: the name, the side line, and whether their time runs or it is their move. */
export function showPlayer(box, state, side, name) {
  box.querySelector(".name").textContent = name;
  // The side in words unless the name already is it (a game without players' names).
  box.querySelector(".pieces").textContent = sideLine(state, side, name !== sideName(side));
  box.classList.toggle("running", state.clock.running === side && state.clock.state === "running");
  box.classList.toggle("to-move", state.turn === side && !state.result);
}

/** Show the ticking clock on the faces of the #player-black and #player-white boxes. */
export function showClockFaces(clock) {
  for (const side of ["black", "white"]) {
    const left = clock.remaining(side);
    document.querySelector(`#player-${side} .clock`).textContent = left === null ? "" : formatClock(left);
  }
}

/** The text of a player's side line: pieces on the board and match points. */
export function sideLine(state, side, named = true) {
  const points = matchPoints(state, side);
  // The side in words as well: the swatch's colour is never the only sign of it.
  const left = state.pieces?.[side];
  const count = language === "en" ? state.words.pieces[side]
    : left === 1 ? t("1 piece") : t("{n} pieces", { n: left ?? "" });
  const pieces = named ? `${sideName(side)} · ${count}` : count;
  return points === null ? pieces : `${pieces} · ${t("match {points}", { points })}`;
}

/** "Black" or "White". */
export function sideName(side) {
  return side === "white" ? t("White") : t("Black");
}

/** A square and what stands on it, for a screen reader: "15: black man", "16: empty". */
export function describeSquare(pieces, square) {
  const piece = pieces.get(square);
  if (!piece) return t("{square}: empty", { square });
  const what = {
    black: piece.king ? t("black king") : t("black man"),
    white: piece.king ? t("white king") : t("white man"),
  }[piece.color] ?? (piece.king ? t("king") : t("man"));
  return `${square}: ${what}`;
}

/** The position in words: each side's men and kings by square. */
export function describePosition(pieces) {
  const parts = [];
  for (const color of ["black", "white"]) {
    for (const king of [false, true]) {
      const squares = [...pieces].filter(([, p]) => p.color === color && p.king === king)
        .map(([square]) => square).sort((a, b) => a - b);
      if (!squares.length) continue;
      const what = {
        black: king ? t("Black kings") : t("Black men"),
        white: king ? t("White kings") : t("White men"),
      }[color];
      parts.push(`${what} ${squares.join(", ")}`);
    }
  }
  return parts.length ? parts.join("; ") : t("empty board");
}

/** Tells a screen reader what happens in the game (an aria-live region): each new move, each
 * new violation (assertively), the result. ``polite`` and ``urgent`` are the live regions. */
export class Narrator {
  constructor(polite, urgent) {
    this.polite = polite;
    this.urgent = urgent;
    this.seen = null;
  }

  /** Announce what changed from the last state seen; the first state only sets the baseline. */
  update(state) {
    const now = {
      game: state.game_id, moves: state.moves.length, result: state.result,
      violation: state.violation ? `${state.violation.t}/${state.violation.rule}` : null,
    };
    const before = this.seen;
    this.seen = now;
    if (!before) return;
    const lines = [];
    if (before.game === now.game && now.moves > before.moves) {
      const firstWhite = state.start_fen.trim()[0].toUpperCase() === "W";
      for (let ply = before.moves + 1; ply <= now.moves; ply++) {
        const side = (ply % 2 === 1) !== firstWhite ? "black" : "white";
        lines.push(`${sideName(side)}: ${state.moves[ply - 1]}`);
      }
    } else if (before.game === now.game && now.moves < before.moves) {
      lines.push(t("moves taken back: {turn}", { turn: state.turn === "white" ? t("White to move") : t("Black to move") }));
    }
    if (now.result && now.result !== before.result) lines.push(stateLine(state));
    if (lines.length) this.polite.textContent = lines.join(". ");
    if (now.violation && now.violation !== before.violation) {
      this.urgent.textContent = violationText(state.violation);
    }
  }
}

function known(value) {
  return Boolean(value) && value !== "?" && value !== "-";
}
