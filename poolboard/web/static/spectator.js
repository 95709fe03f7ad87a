// The spectator page (/ and /big): the live board, clocks, moves, counts, the match and result.
import {
  BoardView, ClockModel, Narrator, askHint, boardPicture, connect, countText, cueStyles, formatClock,
  language, loadLanguage, matchLine, players, renderMoves, showConnection, showOpponent, showPlayer,
  showText, standingFaults, stateLine, storeFlip, storedFlip, t, violationText,
} from "/static/poolboard.js";

const big = location.pathname === "/big" || new URLSearchParams(location.search).get("big") === "1";
document.body.classList.toggle("big", big);

const view = new BoardView(document.getElementById("board"), { flipped: storedFlip("flip-spectator") });
const clock = new ClockModel();
let styles = null;
let state = null;
const narrator = new Narrator(document.getElementById("said"), document.getElementById("said-urgent"));

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
  document.getElementById("match-line").textContent = matchLine(state, { event: false });
  document.title = `${names.black} – ${names.white} · ${event}`;
  for (const [box, side] of playerBoxes()) {
    box.className = `player ${side}`;
    box.dataset.side = side;
    showPlayer(box, state, side, names[side]);
  }
  const paused = state.clock.state === "paused";
  const control = state.words.time_control_words?.[language] ?? state.words.time_control;
  document.getElementById("clock-note").textContent =
    `${control}${paused ? t(" · paused by the referee") : ""}`;
  showText(document.getElementById("state-line"), stateLine(state));
  showOpponent(state, document.getElementById("opponent-line"), document.getElementById("hint"));
  document.getElementById("paused").hidden = !paused || Boolean(state.result);
  const over = document.getElementById("game-over");
  over.hidden = !state.result;
  showText(over, state.result ? stateLine(state) : "");
  const result = document.getElementById("result");
  result.hidden = !state.result;
  result.textContent = state.result ? t("result {result}", { result: state.result }) : "";
  const counts = document.getElementById("counts");
  counts.replaceChildren(...state.counts.map((count) => {
    const li = document.createElement("li");
    showText(li, countText(count));
    return li;
  }));
  // Only what stands now: a violation goes once the position is restored, a move the store
  // could not keep once writes work again, a lost sensor link once it is back.
  const alerts = document.getElementById("alerts");
  const now = [state.violation && violationText(state.violation), ...standingFaults(state)];
  alerts.replaceChildren(...now.filter(Boolean).map((text) => {
    const li = document.createElement("li");
    showText(li, text);
    return li;
  }));
  renderMoves(document.getElementById("moves"), state, { limit: big ? 12 : 0 });
  document.getElementById("pdn-link").href = `/api/games/${state.game_id}.pdn`;
  view.render(boardPicture(state, styles));
  tickClocks();
}

document.getElementById("hint").addEventListener("click", async () => {
  const message = document.getElementById("hint-message");
  message.textContent = await askHint();
  message.className = "message error";
});
document.getElementById("flip").addEventListener("click", () => {
  view.setFlipped(!view.flipped);
  storeFlip("flip-spectator", view.flipped);
  if (state) show();
});
const fullscreen = document.getElementById("fullscreen");
fullscreen.hidden = !document.fullscreenEnabled;
fullscreen.addEventListener("click", () => {
  if (document.fullscreenElement) document.exitFullscreen();
  else document.documentElement.requestFullscreen();
});

const info = await loadLanguage();
document.getElementById("board-link").hidden = !info.virtual_board;
if (big) {
  fetch("/api/phone").then((r) => r.json()).then((phone) => {
    const qr = document.getElementById("phone-qr");
    const caption = document.getElementById("phone-caption");
    if (phone.reachable) {
      qr.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(phone.svg)}`;
      caption.textContent = t("Follow on your phone: {url}", { url: phone.url });
    } else {
      qr.hidden = true;
      caption.textContent = t(
        "Phones cannot reach this board: it listens on this machine only ([web] host in the config, docs/web.md).",
      );
    }
    document.getElementById("phone").hidden = false;
  });
}

styles = await cueStyles();
connect((next) => {
  state = next;
  clock.update(state.clock);
  show();
  narrator.update(state);
}, (live) => showConnection(document.getElementById("conn"), live));
setInterval(tickClocks, 100);
