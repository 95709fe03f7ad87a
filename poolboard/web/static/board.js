// The virtual board (/board): the simulated sensor. Every change of occupancy is sent as a whole
// snapshot (POST /api/board), exactly what a reed board reports, so the real tracker does the rest.
import {
  BoardView, ClockModel, askHint, connect, cueStyles, describeSquare, loadLanguage, parseFen, t, players, renderMoves, showClockFaces,
  showConnection, showOpponent, showPlayer, showText, stateLine, storeFlip, storedFlip, violationText,
} from "/static/poolboard.js";

const view = new BoardView(document.getElementById("board"), { flipped: storedFlip("flip-board") });
const clock = new ClockModel();
const message = document.getElementById("message");
let styles = null;
let state = null;
let pieces = new Map(); // what stands on the board: square -> {color, king}
let hand = null; // the piece last lifted ({color, king, from}), put down by the next tap
let refusal = false; // the message shows the board's refusal of a move (a violation)
let drag = null;
let lastSent = null;
let pending = 0; // requests queued or in flight
let version = 0; // requests ever queued: a board read is stale if this moved meanwhile
let queue = Promise.resolve();

const key = (squares) => [...squares].sort((a, b) => a - b).join(",");

function say(text, kind = "") {
  showText(message, text);
  message.className = `message ${kind}`;
}

async function post(url, body) {
  try {
    const response = await fetch(url, {
      method: "POST",
      // X-Poolboard: without it the server refuses a change (poolboard/web/guard.py, CSRF).
      headers: { "Content-Type": "application/json", "X-Poolboard": "1" },
      body: JSON.stringify(body),
    });
    if (!response.ok) {
      const detail = (await response.json()).detail;
      say(typeof detail === "string" ? detail : detail.map((d) => d.msg).join("; "), "error");
    }
  } catch (error) {
    say(t("not sent: {error}", { error }), "error");
  }
}

/** Send requests one after another, in the order the hands made them. */
function send(url, body) {
  pending++;
  version++;
  queue = queue.then(() => post(url, body)).finally(() => pending--);
}

/** Queue a snapshot (in order, each one once) of `squares`. */
function report(squares) {
  const sorted = [...squares].sort((a, b) => a - b);
  if (key(sorted) === lastSent) return;
  lastSent = key(sorted);
  send("/api/board", { occupied: sorted });
}

/** Where the piece lifted from ``square`` may go (its legal moves' last squares). */
function targets(square) {
  if (square === null || !document.getElementById("show-legal").checked) return [];
  return (state?.legal ?? []).filter((m) => m.from === square).map((m) => m.path.at(-1));
}

function draw(shown = drag?.shown ?? pieces) {
  const lifted = drag?.piece ? drag.start : hand?.from ?? null;
  view.render({ pieces: shown, cues: state?.cues ?? {}, lastMove: null, styles, lifted, targets: targets(lifted) });
  document.getElementById("hand").textContent = hand ? inHand(hand) : "";
}

/** What the hand holds, in words: "in hand: a black piece from 11". */
function inHand({ color, king, from }) {
  const what = {
    black: king ? t("a black king") : t("a black piece"),
    white: king ? t("a white king") : t("a white piece"),
  }[color] ?? (king ? t("a king") : t("a piece"));
  return from ? t("in hand: {what} from {square}", { what, square: from }) : t("in hand: {what}", { what });
}

function fenPieces() {
  return state ? parseFen(state.fen).pieces : new Map();
}

/** Take the server's occupancy; colours from the recorded position where it matches. */
function reconcile(occupied) {
  const fen = fenPieces();
  const wanted = new Set(occupied);
  lastSent = key(occupied);
  if (key(wanted) === key(fen.keys())) {
    pieces = new Map(fen);
    hand = null; // everything stands where the record says: nothing is in a hand
  } else {
    for (const square of [...pieces.keys()]) if (!wanted.has(square)) pieces.delete(square);
    for (const square of wanted) {
      if (!pieces.has(square)) pieces.set(square, fen.get(square) ?? { color: "unknown", king: false });
    }
  }
  draw();
}

function tap(square) {
  if (pieces.has(square)) {
    hand = { ...pieces.get(square), from: square };
    pieces.delete(square);
  } else {
    const { color, king } = hand ?? fenPieces().get(square) ?? { color: "unknown", king: false };
    pieces.set(square, { color, king });
    hand = null;
  }
  report(pieces.keys());
  draw();
}

await loadLanguage();
view.enableKeyboard(tap, (square) => {
  document.getElementById("cursor-line").textContent = t("square {square}", { square: describeSquare(pieces, square) });
});
const svgElement = document.getElementById("board");
svgElement.addEventListener("pointerdown", (event) => {
  const square = view.squareAt(event.clientX, event.clientY);
  if (square === null) return;
  svgElement.setPointerCapture(event.pointerId);
  drag = { start: square, current: square, piece: pieces.get(square) ?? null, moved: false, shown: null };
  event.preventDefault();
});

svgElement.addEventListener("pointermove", (event) => {
  if (!drag || !drag.piece) return;
  const square = view.squareAt(event.clientX, event.clientY);
  if (square === drag.current) return;
  drag.current = square;
  drag.moved = true;
  // The piece slides: off its start, over each square it crosses (a light square or the edge
  // of the board: between squares, no switch closed).
  const base = new Set(pieces.keys());
  base.delete(drag.start);
  if (square !== null) base.add(square);
  report(base);
  const shown = new Map(pieces);
  shown.delete(drag.start);
  if (square !== null && !shown.has(square)) shown.set(square, drag.piece);
  drag.shown = shown;
  draw();
});

function endDrag(event) {
  if (!drag) return;
  const { start, current, piece, moved } = drag;
  drag = null;
  if (!moved) {
    if (event.type === "pointerup") tap(start);
    return;
  }
  pieces.delete(start);
  if (current !== null && !pieces.has(current)) {
    pieces.set(current, piece);
    if (hand?.from === start) hand = null;
  } else {
    hand = { ...piece, from: start }; // dropped off the board, or onto another piece
  }
  report(pieces.keys());
  draw();
}
svgElement.addEventListener("pointerup", endDrag);
svgElement.addEventListener("pointercancel", endDrag);

document.getElementById("setup").addEventListener("click", () => {
  pieces = new Map(fenPieces());
  hand = null;
  report(pieces.keys());
  draw();
});
document.getElementById("clear").addEventListener("click", () => {
  pieces = new Map();
  hand = null;
  report([]);
  draw();
});
document.getElementById("show-legal").addEventListener("change", () => draw());
for (const button of document.querySelectorAll("[data-lever]")) {
  button.addEventListener("click", () => {
    say(button.dataset.lever === "black" ? t("Black's lever pressed") : t("White's lever pressed"), "ok");
    send("/api/lever", { side: button.dataset.lever });
  });
}
for (const button of document.querySelectorAll("[data-adjust]")) {
  button.addEventListener("click", () => {
    say(button.dataset.adjust === "black" ? t('Black announced "adjust"') : t('White announced "adjust"'), "ok");
    send("/api/adjust", { side: button.dataset.adjust });
  });
}
document.getElementById("hint").addEventListener("click", async () => {
  const refused = await askHint();
  say(refused, "error");  // on success the opponent line follows the hint
});
document.getElementById("flip").addEventListener("click", () => {
  view.setFlipped(!view.flipped);
  storeFlip("flip-board", view.flipped);
  draw();
});

function tickClocks() {
  showClockFaces(clock);
}

async function refreshBoard() {
  // Only a read that no request of ours overtook can be trusted over what the hands did.
  if (drag || pending) return;
  const asked = version;
  const response = await fetch("/api/board");
  if (!response.ok) return;
  const { occupied } = await response.json();
  if (!drag && !pending && version === asked) reconcile(occupied);
}

styles = await cueStyles();
connect((next) => {
  state = next;
  clock.update(state.clock);
  const names = players(state);
  for (const side of ["black", "white"]) {
    showPlayer(document.getElementById(`player-${side}`), state, side, names[side]);
  }
  showText(document.getElementById("state-line"), stateLine(state));
  showOpponent(state, document.getElementById("opponent-line"), document.getElementById("hint"));
  // The reason a move was refused, until the position is restored.
  if (state.violation) {
    say(t("refused: {why}", { why: violationText(state.violation) }), "error");
    refusal = true;
  } else if (refusal) {
    say("");
    refusal = false;
  }
  renderMoves(document.getElementById("moves"), state);
  draw();
  tickClocks();
  refreshBoard();
}, (live) => showConnection(document.getElementById("conn"), live));
setInterval(tickClocks, 100);
