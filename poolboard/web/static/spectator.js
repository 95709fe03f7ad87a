// The spectator page (/ and /big): the live board, clocks, moves, counts and result.
import {
  BoardView, ClockModel, connect, cueStyles, formatClock, parseFen, players, renderMoves,
  showConnection, stateLine, storeFlip, storedFlip,
} from "/static/poolboard.js";

const big = location.pathname === "/big" || new URLSearchParams(location.search).get("big") === "1";
document.body.classList.toggle("big", big);

const view = new BoardView(document.getElementById("board"), { flipped: storedFlip("flip-spectator") });
const clock = new ClockModel();
let styles = null;
let state = null;

function playerBoxes() {
  // The side nearest the viewer is at the bottom: White unless the board is flipped.
  const [top, bottom] = view.flipped ? ["white", "black"] : ["black", "white"];
  return [
    [document.getElementById("player-top"), top],
    [document.getElementById("player-bottom"), bottom],
  ];
}

function tickClocks() {
  if (!state) return;
  for (const [box, side] of playerBoxes()) {
    const left = clock.remaining(side);
    const face = box.querySelector(".clock");
    face.textContent = left === null ? "" : formatClock(left);
    box.classList.toggle("low", left !== null && left < 60 && state.clock.state === "running");
  }
}

function show() {
  const names = players(state);
  const event = state.headers?.Event && state.headers.Event !== "?" ? state.headers.Event : "poolboard";
  document.getElementById("event").textContent = event;
  document.title = `${names.black} – ${names.white} · ${event}`;
  for (const [box, side] of playerBoxes()) {
    box.querySelector(".name").textContent = names[side];
    box.className = `player ${side}`;
    box.dataset.side = side;
    box.classList.toggle("running", state.clock.running === side && state.clock.state === "running");
    box.classList.toggle("to-move", state.turn === side && !state.result);
  }
  const paused = state.clock.state === "paused" ? " · paused by the referee" : "";
  document.getElementById("clock-note").textContent = `${state.clock.control}${paused}`;
  document.getElementById("state-line").textContent = stateLine(state);
  const result = document.getElementById("result");
  result.hidden = !state.result;
  result.textContent = state.result ? `${state.result}  ${state.result_reason ?? ""}` : "";
  const counts = document.getElementById("counts");
  counts.replaceChildren(...state.counts.map((count) => {
    const li = document.createElement("li");
    li.textContent = count.text;
    return li;
  }));
  const alerts = document.getElementById("alerts");
  const recent = [...state.violations.slice(-2), ...state.faults.slice(-1)];
  alerts.replaceChildren(...recent.map((item) => {
    const li = document.createElement("li");
    li.textContent = item.rule ? `${item.rule}: ${item.message}` : item.message;
    return li;
  }));
  renderMoves(document.getElementById("moves"), state, { limit: big ? 14 : 0 });
  document.getElementById("pdn-link").href = `/api/games/${state.game_id}.pdn`;
  view.render({ pieces: parseFen(state.fen).pieces, cues: state.cues, lastMove: state.last_move, styles });
  tickClocks();
}

document.getElementById("flip").addEventListener("click", () => {
  view.setFlipped(!view.flipped);
  storeFlip("flip-spectator", view.flipped);
  if (state) show();
});

fetch("/api/info").then((r) => r.json()).then((info) => {
  document.getElementById("board-link").hidden = !info.virtual_board;
});

styles = await cueStyles();
connect((next) => {
  state = next;
  clock.update(state.clock);
  show();
}, (live) => showConnection(document.getElementById("conn"), live));
setInterval(tickClocks, 100);
