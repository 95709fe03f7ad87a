// The referee console (/referee): every action is a POST to /api/referee/... with the HTTP Basic
// credentials the browser asked for when the page was opened; the session audits each one.
import {
  BoardView, ClockModel, boardPicture, connect, countText, cueStyles, dateLocale, describeSquare, inLanguage, language,
  loadLanguage, matchLine, parseFen, players, playerWords, refusalText, renderMoves, sideName, t,
  showClockFaces, showConnection, showPlayer, showText, standingFaults, stateLine, violationText, wordPlies,
} from "/static/poolboard.js";

const view = new BoardView(document.getElementById("board"));
const clock = new ClockModel();
let styles = null;
let state = null;
let pressed = null; // the button the referee pressed last: its answer is shown beside it
// A position being set up by clicking squares (null: the board shows the game).
let editing = null;

document.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (button) pressed = button;
});
document.addEventListener("submit", (event) => {
  pressed = event.submitter ?? event.target.querySelector("button[type='submit']");
});

/** Show ``text`` beside the button pressed (the only answer shown: older ones go). */
function say(text, kind) {
  for (const old of document.querySelectorAll(".message.answer")) old.remove();
  const line = document.createElement("span");
  line.className = `message answer ${kind}`;
  line.setAttribute("role", kind === "error" ? "alert" : "status");
  line.textContent = text;
  (pressed ?? document.querySelector(".actions legend")).insertAdjacentElement("afterend", line);
}

async function act(action, body = null, done = "done") {
  const response = await fetch(`/api/referee/${action}`, {
    method: "POST",
    // X-Poolboard: without it the server refuses a change (poolboard/web/guard.py, CSRF).
    headers: { "Content-Type": "application/json", "X-Poolboard": "1" },
    body: body === null ? null : JSON.stringify(body),
  });
  if (response.ok) {
    say(done, "ok");
  } else {
    say(refusalText(await response.json()), "error");
  }
  refreshLogs();
}

function fields(form) {
  return Object.fromEntries(new FormData(form).entries());
}

function onSubmit(id, handler) {
  document.getElementById(id).addEventListener("submit", (event) => {
    event.preventDefault();
    handler(fields(event.target));
  });
}

/** The clock's state in words. */
function clockState(name) {
  return { ready: t("ready"), running: t("running"), paused: t("paused"), stopped: t("stopped") }[name] ?? name;
}

/** How grave a violation is, in words. */
function severity(name) {
  return { caution: t("caution"), violation: t("violation"), forfeit: t("forfeit") }[name] ?? name;
}

/** An audit entry's action in words; in English the log's own name for it ("pause"). */
function auditAction(action) {
  if (language === "en") return action;
  return {
    pause: t("paused the clocks"), resume: t("resumed the clocks"), adjust: t("adjusted a clock"),
    correct: t("corrected a move"), setup: t("set up a position"), count: t("called the count"),
    penalty: t("gave a penalty"), result: t("recorded the result"), void: t("voided moves"),
    details: t("set the game's details"), "extend-match": t("extended the match"),
    "next-game": t("started the next game"), "new-match": t("started a new match"),
    rewind: t("took moves back"),
  }[action] ?? action;
}

/** A field of a game's details or of an audit entry, by name; in English the server's name
 * for it ("time_control"). */
function fieldName(key) {
  if (language === "en") return key;
  return {
    side: t("side"), seconds: t("seconds"), ply: t("ply"), move: t("move"), dropped: t("moves dropped"),
    rule: t("rule"), severity: t("severity"), note: t("note"), how: t("how"), reason: t("reason"),
    moves: t("moves"), game: t("for"), games: t("games"), game_id: t("game"), black: t("Black"),
    white: t("White"), event: t("event"), site: t("site"), round: t("round"),
    time_control: t("time control"), result: t("result"), words: t("reason"),
  }[key] ?? key;
}

/** An audit entry's value in words where it is a word of the server's (a side, how a game
 * ended); in English as the server has it. */
function fieldValue(key, value) {
  if (language === "en") return value;
  if (value === null) return "—";
  const words = {
    side: { black: t("Black"), white: t("White") },
    severity: { caution: severity("caution"), forfeit: severity("forfeit") },
    how: {
      resign: t("a player resigns"), "agree-draw": t("draw agreed (R-END-2)"),
      "referee-win": t("referee awards the game"), "referee-draw": t("referee declares a draw (R-END-2)"),
    },
    game: { current: t("this game"), next: t("the next game") },
  }[key];
  return words?.[value] ?? value;
}

document.getElementById("pause").addEventListener("click", () => act("pause", null, t("clocks paused")));
document.getElementById("resume").addEventListener("click", () => act("resume", null, t("clocks running")));
onSubmit("adjust-form", ({ side, seconds }) =>
  act("adjust-clock", { side, seconds: Number(seconds) }, t("{side}: {seconds} s added", { side: sideName(side), seconds })));
onSubmit("correct-form", ({ ply, move }) =>
  act("correct-move", { ply: Number(ply), move: move.trim() }, t("ply {ply} corrected to {move}", { ply, move })));
onSubmit("count-form", ({ side }) => act("count", { side }, t("count invoked by {side}", { side: sideName(side) })));
onSubmit("penalty-form", (body) => {
  if (body.severity === "forfeit" && !confirm(t("Forfeit the game for {side} ({rule})?", { side: sideName(body.side), rule: body.rule }))) return;
  const recorded = body.severity === "forfeit" ? t("forfeit recorded for {side} ({rule})") : t("caution recorded for {side} ({rule})");
  act("penalty", body, recorded.replace("{side}", sideName(body.side)).replace("{rule}", body.rule));
});
onSubmit("end-form", ({ how, side, reason }) => {
  const who = playerWords(state, side);
  const words = {
    resign: t("{who} resigns", { who }),
    "agree-draw": t("a draw agreed"),
    "referee-win": t("the game awarded to {who}", { who }),
    "referee-draw": t("a draw declared by the referee"),
  }[how];
  if (!confirm(t("End the game: {words}?", { words }))) return;
  const body = { how, reason: reason.trim() };
  if (how === "resign" || how === "referee-win") body.side = side;
  act("end", body, t("game over: {words}", { words }));
});
onSubmit("details-form", (form) => {
  const body = Object.fromEntries(Object.entries(form).map(([k, v]) => [k, v.trim()]).filter(([, v]) => v));
  act("details", body, t("details set"));
});
onSubmit("void-form", ({ plies }) => {
  const one = Number(plies) === 1;
  if (!confirm(one ? t("Strike the last ply from the record?") : t("Strike the last {n} plies from the record?", { n: plies }))) return;
  act("void", { plies: Number(plies) }, one ? t("1 ply voided: put the pieces back as cued")
    : t("{n} plies voided: put the pieces back as cued", { n: plies }));
});
onSubmit("position-form", async ({ fen }) => {
  const next = state.result && !state.match?.over;
  const what = next ? t("Start the next game of the match (colours change) from this position?")
    : state.result ? t("Start a new match from this position?")
      : t("End this game and start a new one from this position?");
  if (!confirm(what)) return;
  await act("position", { fen: fen.trim() }, t("position set up: place the pieces as cued"));
  stopEditing();
});

// Setting a position up by clicking squares: each click puts the next piece on the square
// (empty, black man, black king, white man, white king, empty...); the FEN follows.
const CYCLE = [null, { color: "black", king: false }, { color: "black", king: true },
  { color: "white", king: false }, { color: "white", king: true }];
const fenInput = document.querySelector("#position-form input[name='fen']");
const turnSelect = document.querySelector("#position-form select[name='turn']");

/** A PDN FEN ("W:W21,K22:B1,2") of ``turn`` to move and ``pieces`` (Map square -> piece). */
function writeFen(turn, pieces) {
  const side = (color) => [...pieces].filter(([, p]) => p.color === color)
    .sort(([a], [b]) => a - b).map(([square, p]) => `${p.king ? "K" : ""}${square}`).join(",");
  return `${turn === "white" ? "W" : "B"}:W${side("white")}:B${side("black")}`;
}

function showEditing() {
  fenInput.value = writeFen(turnSelect.value, editing);
  view.render({ pieces: editing, styles });
  document.getElementById("edit-position").textContent = t("stop editing");
  document.getElementById("board").classList.add("editing");
}

function stopEditing() {
  editing = null;
  document.getElementById("edit-position").textContent = t("click squares to set up");
  document.getElementById("board").classList.remove("editing");
  if (state) show();
}

document.getElementById("edit-position").addEventListener("click", () => {
  if (editing) {
    stopEditing();
    return;
  }
  const start = parseFen(fenInput.value || state.fen);
  editing = start.pieces;
  turnSelect.value = start.turn;
  showEditing();
  document.getElementById("board").scrollIntoView({ block: "nearest" });
});
document.getElementById("clear-position").addEventListener("click", () => {
  editing = new Map();
  showEditing();
});
turnSelect.addEventListener("change", () => {
  if (editing) showEditing();
});
/** Put the next piece of the cycle on ``square`` of the position being set up. */
function cycle(square) {
  if (!editing) return;
  const now = editing.get(square) ?? null;
  const at = CYCLE.findIndex((p) => (p === null ? now === null : now !== null && p.color === now.color && p.king === now.king));
  const next = CYCLE[(at + 1) % CYCLE.length];
  if (next) editing.set(square, next);
  else editing.delete(square);
  showEditing();
}
document.getElementById("board").addEventListener("click", (event) => {
  const square = view.squareAt(event.clientX, event.clientY);
  if (square !== null) cycle(square);
});
document.getElementById("next-game").addEventListener("click", () => {
  if (!confirm(t("Start the next game? The players change colours."))) return;
  act("next-game", null, t("next game started: set up the board"));
});
document.getElementById("extend-match").addEventListener("click", () => {
  if (!confirm(t("Extend the match by 2 games?"))) return;
  act("extend-match", { games: 2 }, t("match extended by 2 games"));
});
document.getElementById("new-match").addEventListener("click", () => {
  if (!confirm(t("Start a new match (game 1, a fresh clock)?"))) return;
  act("new-match", null, t("new match started: set up the board"));
});

function cell(row, text) {
  const td = document.createElement("td");
  td.textContent = text;
  row.append(td);
}

async function refreshLogs() {
  const audit = await fetch("/api/referee/audit");
  if (audit.ok) {
    const rows = (await audit.json()).reverse().map((entry) => {
      const tr = document.createElement("tr");
      cell(tr, new Date(entry.time).toLocaleTimeString(dateLocale()));
      cell(tr, entry.actor);
      cell(tr, auditAction(entry.action));
      // A field left empty (a result with no reason given) says nothing.
      const given = Object.entries(entry.data).filter(([, v]) => v !== "" && v !== null);
      cell(tr, given.map(([k, v]) => `${fieldName(k)}: ${fieldValue(k, v)}`).join(", "));
      return tr;
    });
    document.getElementById("audit").replaceChildren(...rows);
  }
  const games = await fetch("/api/games");
  if (games.ok) {
    const rows = (await games.json()).reverse().map((game) => {
      const tr = document.createElement("tr");
      cell(tr, `#${game.id}`);
      cell(tr, `${game.headers.Black ?? "?"} – ${game.headers.White ?? "?"}`);
      const plies = game.plies === 1 ? t("1 ply") : t("{n} plies", { n: game.plies });
      cell(tr, `${game.result ?? "*"} (${plies})`);
      const td = document.createElement("td");
      const link = document.createElement("a");
      link.href = `/api/games/${game.id}.pdn`;
      link.textContent = "PDN";
      link.download = "";
      td.append(link);
      tr.append(td);
      return tr;
    });
    document.getElementById("games").replaceChildren(...rows);
  }
}

function tickClocks() {
  showClockFaces(clock);
}

let lastGame = null;
function show() {
  const names = players(state);
  for (const side of ["black", "white"]) {
    showPlayer(document.getElementById(`player-${side}`), state, side, names[side]);
  }
  document.getElementById("clock-note").textContent = `${state.clock.control} · ${t("clock {state}", { state: clockState(state.clock.state) })}`;
  const match = state.match ?? {};
  document.getElementById("match-game").textContent =
    `${matchLine(state)}${match.results?.length ? ` · ${t("score")} ${match.score.map((p) => `${p.name} ${p.points}`).join(", ")}` : ""}${match.over ? t(" · the match is over") : ""}`;
  document.getElementById("match-results").replaceChildren(...(match.results ?? []).map((r) => {
    const li = document.createElement("li");
    li.textContent = `${t("game {game}:", { game: r.game })} ${r.result} ${inLanguage(r.said, r.text)}`;
    return li;
  }));
  document.getElementById("next-game").disabled = !state.result || Boolean(match.over);
  document.getElementById("extend-match").disabled = !match.over;
  const pending = Object.entries(state.pending ?? {});
  const fresh = state.moves.length === 0 && state.clock.state === "ready" && !state.result;
  const forNext = state.result ? t("applies to the next game") : t("names: this game's players; the rest: the next game");
  const set = pending.map(([k, v]) => `${fieldName(k)} ${v}`).join(", ");
  document.getElementById("details-for").textContent = fresh
    ? t("applies to this game (no move yet) and the next")
    : `${forNext}${pending.length ? t("; set for it: {details}", { details: set }) : ""}`;
  showText(document.getElementById("state-line"), stateLine(state, { codes: true }));
  document.getElementById("counts").replaceChildren(...state.counts.map((count) => {
    const li = document.createElement("li");
    showText(li, language === "en" ? `${count.rule}: ${count.text}` : countText(count));
    return li;
  }));
  const violations = state.violations.slice(-4).map((v) =>
    `${v.side ? sideName(v.side) : ""} (${severity(v.severity)}${v.mended ? t(", mended") : ""}): ${violationText(v)}`);
  // The sensor's last word on its squares (flickering, stuck, unreadable, quiet again).
  const sensor = state.faults.filter((f) => f.event === "fault").slice(-1).map((f) => inLanguage(f.said, f.message));
  document.getElementById("alerts").replaceChildren(...[...standingFaults(state), ...sensor, ...violations].map((text) => {
    const li = document.createElement("li");
    showText(li, text);
    return li;
  }));
  renderMoves(document.getElementById("moves"), state, {
    onPly: (ply, move) => {
      const form = document.getElementById("correct-form");
      form.ply.value = ply;
      form.move.value = move;
      form.move.focus();
    },
  });
  if (state.game_id !== lastGame) {
    const form = document.getElementById("details-form");
    for (const [key, value] of Object.entries(state.details ?? {})) {
      if (form[key] && value !== "?") form[key].value = value;
    }
  }
  if (!editing && (state.game_id !== lastGame || !fenInput.value)) fenInput.value = state.fen;
  lastGame = state.game_id;
  if (!editing) view.render(boardPicture(state, styles));
  tickClocks();
}

fetch("/api/referee/whoami").then((r) => r.json()).then((who) => {
  document.getElementById("who").textContent = who.referee ? `— ${who.referee}` : "";
});
await loadLanguage();
wordPlies(document.getElementById("void-form").plies);
styles = await cueStyles();
// From the keyboard: the arrows or a square's number go over the board, which says what stands
// there (the position being set up, else the game's); Enter puts the next piece there.
view.enableKeyboard(cycle, (square) => {
  const pieces = editing ?? (state ? parseFen(state.fen).pieces : new Map());
  document.getElementById("cursor-line").textContent = t("square {square}", { square: describeSquare(pieces, square) });
});
let logsDue = false;
function refreshLogsSoon() {
  // Play on the board changes the state many times a move; the logs need no such haste.
  if (logsDue) return;
  logsDue = true;
  setTimeout(() => {
    logsDue = false;
    refreshLogs();
  }, 1000);
}

connect((next) => {
  state = next;
  clock.update(state.clock);
  show();
  refreshLogsSoon();
}, (live) => showConnection(document.getElementById("conn"), live));
setInterval(tickClocks, 100);
