// Shared by every page: the live connection, the board drawing, FEN, clocks and the move list.
// Plain ES module, no build step; the server is the one source of state and of the cue styles.

const SVG_NS = "http://www.w3.org/2000/svg";
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
  for (const text of ["", names.black, names.white]) {
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
      td.textContent = row[side];
      const ply = (row.number - 1) * 2 + index + 1 - (firstPly - 1);
      if (row[side] && ply === state.moves.length) td.classList.add("last");
      if (row[side] && onPly) {
        td.classList.add("pick");
        td.title = `ply ${ply}`;
        td.addEventListener("click", () => onPly(ply, row[side]));
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

/** Connect to /ws: onState(state) for the first (whole) state and every change; reconnects. */
export function connect(onState, onStatus = () => {}) {
  let delay = 500;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws`);
    socket.onopen = () => {
      delay = 500;
      onStatus(true);
    };
    socket.onmessage = (message) => onState(JSON.parse(message.data));
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
  element.textContent = live ? "live" : "reconnecting…";
  element.className = `conn ${live ? "live" : "down"}`;
}

function svg(tag, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (parent) parent.append(element);
  return element;
}

const CROWN = "M-17,8 L-20,-10 L-9,-1 L0,-14 L9,-1 L20,-10 L17,8 Z";

/** The board drawn in an <svg>: squares, cues as the LEDs show them, last move, pieces. */
export class BoardView {
  constructor(element, { flipped = false } = {}) {
    this.svg = element;
    this.flipped = flipped;
    element.setAttribute("viewBox", `0 0 ${8 * CELL} ${8 * CELL}`);
    element.setAttribute("role", "img");
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
    this.drawSquares();
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
    this.svg.setAttribute("aria-label", `board: ${pieces.size} pieces`);
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
  return { black: name("Black", "Black"), white: name("White", "White") };
}

/** One line saying what the board waits for now, or the result in words (with the rules it
 * cites only where ``codes``: the referee's page). */
export function stateLine(state, { codes = false } = {}) {
  if (state.result) return codes ? state.result_text : state.words.result;
  const turn = `${state.turn === "white" ? "White" : "Black"} to move`;
  if (state.clock?.state === "paused") return `PAUSED by the referee — ${turn}`;
  if (state.state) return state.state.detail || state.state.name.replaceAll("_", " ");
  return `set up the position on the board (${turn})`;
}

/** What the opponent off the board and a hint are doing now, or "" (docs/opponents.md). */
export function opponentLine(state) {
  const parts = [];
  const opponent = state.opponent;
  if (opponent && !state.result && opponent.status !== "idle") {
    const side = opponent.side === "white" ? "White" : "Black";
    parts.push(`${opponent.name}, playing ${side}: ${opponent.text}`);
  }
  // A remote game (docs/remote.md): the link down, or the two boards' records disagreeing.
  if (opponent?.kind === "remote" && !opponent.connected) {
    parts.push("the link to the other board is down: moves wait");
  }
  if (opponent?.problem) parts.push(opponent.problem);
  if (state.hint?.status === "thinking") parts.push("hint: looking for a good move…");
  else if (state.hint?.status === "shown") parts.push(`hint: ${state.hint.move} (lit on the board)`);
  return parts.join(" · ");
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
    const detail = (await response.json()).detail;
    return typeof detail === "string" ? detail : `refused (${response.status})`;
  } catch (error) {
    return `not sent: ${error}`;
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

/** A violation as one line naming its rule once. */
export function violationText(violation) {
  const { rule, message } = violation;
  return rule && !message.includes(rule) ? `${rule}: ${message}` : message;
}

/** What stands wrong with the table now, as lines: a move the store could not keep (until writes
 * work again) and a lost sensor link (until it is back). */
export function standingFaults(state) {
  const lines = [];
  if (state.storage) lines.push(state.storage);
  if (state.link && !state.link.connected) lines.push(`sensor link DOWN: ${state.link.detail}`);
  return lines;
}

/** "Club night · round 3 · game 2 of 2": the event (unless ``event`` is false) and the game of
 * the match. */
export function matchLine(state, { event = true } = {}) {
  const parts = [];
  if (event && known(state.headers?.Event)) parts.push(state.headers.Event);
  const match = state.match ?? {};
  if (known(match.round)) parts.push(`round ${match.round}`);
  if (match.game) parts.push(`game ${match.game} of ${match.games}`);
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
  box.querySelector(".pieces").textContent = sideLine(state, side);
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
export function sideLine(state, side) {
  const points = matchPoints(state, side);
  const pieces = state.words.pieces[side];
  return points === null ? pieces : `${pieces} · match ${points}`;
}

function known(value) {
  return Boolean(value) && value !== "?" && value !== "-";
}
