// The hall's pages: every table live, standings, one table, the director's console.
// Reuses the board page's module (/static/poolboard.js) for boards, clocks and the live socket.
import {
  BoardView, ClockModel, connect, formatClock, parseFen, renderMoves, showConnection, stateLine,
} from "/static/poolboard.js";

const page = document.body.dataset.page;
const $ = (id) => document.getElementById(id);
const tiles = new Map(); // table -> {tile, element, view, clock}
// The board is drawn with Black's side (squares 1-12) at the top: Black's row comes first.
const SIDES = ["black", "white"];
const SIDE_NAME = { black: "Black", white: "White" };

function el(tag, attributes = {}, text = "") {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (text) element.textContent = text;
  return element;
}

async function loadHall() {
  const hall = await (await fetch("/api/hall")).json();
  $("event").textContent = hall.event;
  $("round").textContent = `round ${hall.round}`;
  return hall;
}

/** What a tile says under the players: offline, the result in words, or what the board waits for. */
function tileStatus(tile) {
  if (tile.online === false) return "OFFLINE";
  if (tile.online === null) return "not connected yet";
  if (tile.words) return tile.words;
  if (tile.link === false) return "sensor link down";
  if (tile.clock && tile.clock.state === "paused") return "clocks paused";
  return tile.waiting_detail || tile.waiting || "";
}

function drawTile(tile) {
  let entry = tiles.get(tile.table);
  if (!entry) {
    const element = el("a", { class: "tile", href: `/table/${tile.table}`, "data-table": tile.table });
    const head = el("h2");
    head.append(el("span", { class: "tile-name" }, `table ${tile.table}`), el("span", { class: "tile-game" }));
    element.append(head);
    const board = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    board.classList.add("board", "mini");
    const info = el("div", { class: "tile-info" });
    for (const side of SIDES) {
      const line = el("p", { class: `player ${side}` });
      line.append(
        el("span", { class: "name", title: SIDE_NAME[side] }),
        el("span", { class: "clock" }),
      );
      info.append(line);
    }
    info.append(el("p", { class: "tile-last" }), el("p", { class: "tile-state" }));
    const box = el("div", { class: "board-box" });
    box.append(board);
    element.append(box, info);
    $("tiles").append(element);
    entry = { element, view: new BoardView(board), clock: new ClockModel() };
    tiles.set(tile.table, entry);
    layoutBig();
  }
  entry.tile = tile;
  if (tile.fen) entry.clock.update(tile.clock); // nothing heard yet: no clock to show
  const { element } = entry;
  element.classList.toggle("offline", tile.online === false);
  element.classList.toggle("finished", Boolean(tile.result));
  element.dataset.plies = String(tile.plies);
  element.dataset.last = tile.last ?? "";
  element.querySelector(".tile-game").textContent = tile.fen ? `game ${tile.game}` : "";
  const live = !tile.result && tile.online !== false;
  for (const side of SIDES) {
    const line = element.querySelector(`.player.${side}`);
    line.querySelector(".name").textContent = tile[side];
    line.classList.toggle("to-move", live && tile.turn === side);
    line.classList.toggle("running", live && tile.clock?.state === "running" && tile.clock.running === side);
  }
  const moves = Math.ceil(tile.plies / 2);
  element.querySelector(".tile-last").textContent = tile.last
    ? `move ${moves}: ${tile.last}`
    : tile.fen ? "no move yet" : "";
  const state = element.querySelector(".tile-state");
  state.textContent = tileStatus(tile);
  state.classList.toggle("ended", Boolean(tile.words));
  if (tile.fen) entry.view.render({ pieces: parseFen(tile.fen).pieces });
}

function tickClocks() {
  for (const { element, clock } of tiles.values()) {
    for (const side of SIDES) {
      const left = clock.remaining(side);
      element.querySelector(`.${side} .clock`).textContent = left === null ? "" : formatClock(left);
    }
  }
}

// -- the big screen: every table at once (up to BIG_PAGE, then pages of them cycling) --------

const BIG_PAGE = 12;
let bigFirst = 0;

/** The grid (columns, rows) that makes `count` tiles of a given shape largest in width x height. */
function bestGrid(count, width, height, shape) {
  let best = { columns: 1, rows: count, size: 0 };
  for (let columns = 1; columns <= count; columns++) {
    const rows = Math.ceil(count / columns);
    const size = Math.min(width / columns / shape, height / rows); // the tile's height
    if (size > best.size) best = { columns, rows, size };
  }
  return best;
}

function layoutBig() {
  if (!document.body.classList.contains("big")) return;
  const all = [...tiles.values()];
  const shown = all.slice(bigFirst, bigFirst + BIG_PAGE);
  all.forEach(({ element }) => { element.hidden = !shown.some((entry) => entry.element === element); });
  const box = $("tiles");
  const top = box.getBoundingClientRect().top;
  const width = box.clientWidth;
  const height = window.innerHeight - top;
  // A tile: the board (square) beside its lines; wider than high by SHAPE.
  const grid = bestGrid(Math.max(1, shown.length), width, height, 2.1);
  box.style.gridTemplateColumns = `repeat(${grid.columns}, minmax(0, 1fr))`;
  box.style.gridTemplateRows = `repeat(${grid.rows}, minmax(0, 1fr))`;
  box.style.setProperty("--unit", `${Math.max(8, grid.size / 14)}px`);
}

async function hallPage() {
  const hall = await loadHall();
  if (location.pathname === "/big") document.body.classList.add("big");
  hall.tables.forEach(drawTile);
  connect((update) => update.forEach(drawTile), (live) => showConnection($("conn"), live));
  setInterval(tickClocks, 200);
  if (document.body.classList.contains("big")) {
    layoutBig();
    window.addEventListener("resize", layoutBig);
    setInterval(() => {
      bigFirst = bigFirst + BIG_PAGE >= tiles.size ? 0 : bigFirst + BIG_PAGE;
      layoutBig();
    }, 10000);
  }
}

async function standingsPage() {
  const refresh = async () => {
    const data = await (await fetch("/api/standings")).json();
    $("event").textContent = data.event;
    $("standings").replaceChildren(...data.standings.map((s) => {
      const tr = el("tr");
      for (const value of [s.place, s.name, s.club, s.points, s.games, s.wins, s.draws, s.losses, s.buchholz]) {
        tr.append(el("td", {}, String(value)));
      }
      return tr;
    }));
  };
  await refresh();
  showConnection($("conn"), true);
  setInterval(refresh, 5000);
}

async function tablePage() {
  await loadHall();
  const table = decodeURIComponent(location.pathname.split("/").pop());
  const view = new BoardView($("board"));
  const clock = new ClockModel();
  let tile = null;
  $("pdn-link").href = "/broadcast/";
  const refresh = async () => {
    const data = await (await fetch(`/api/tables/${encodeURIComponent(table)}`)).json();
    tile = data.tile;
    $("event").textContent = `table ${table}`;
    $("pdn-link").href = `/broadcast/round-${tile.round}-${table}.pdn`;
    const state = data.state;
    if (!state) {
      $("state-line").textContent = tileStatus(tile);
      return;
    }
    clock.update(state.clock);
    view.render({ pieces: parseFen(state.fen).pieces, lastMove: state.last_move });
    renderMoves($("moves"), state);
    $("state-line").textContent = tile.online === false ? "OFFLINE" : stateLine(state);
    $("result").hidden = !tile.words;
    $("result").textContent = tile.words;
  };
  await refresh();
  connect((update) => {
    if (update.some((t) => t.table === table)) refresh();
  }, (live) => showConnection($("conn"), live));
  setInterval(() => {
    if (!tile) return;
    // The board is drawn with Black at the top: Black's line first.
    const live = !tile.result && tile.online !== false;
    for (const [slot, side] of [["top", "black"], ["bottom", "white"]]) {
      const left = clock.remaining(side);
      const line = $(`player-${slot}`);
      line.querySelector(".name").textContent = `${tile[side]} (${SIDE_NAME[side]})`;
      line.querySelector(".clock").textContent = left === null ? "" : formatClock(left);
      line.classList.toggle("to-move", live && tile.turn === side);
      line.classList.toggle("running", live && tile.clock?.state === "running" && tile.clock.running === side);
    }
  }, 200);
}

// -- the director's console ------------------------------------------------------------------

async function post(url, body, type = "application/json") {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": type, "X-Poolboard": "1" },
    body: type === "application/json" ? JSON.stringify(body ?? {}) : body,
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = answer.detail;
    const text = typeof detail === "string" ? detail
      : Array.isArray(detail) ? detail.map((d) => `${d.loc.slice(1).join(".")}: ${d.msg}`).join("; ")
        : `${response.status} ${response.statusText}`;
    throw new Error(text);
  }
  return answer;
}

/** Show what came of a console action in `element`: "done" in green, or the refusal in red. */
function say(element, text, ok) {
  element.textContent = text;
  element.classList.toggle("refused", !ok);
  element.classList.toggle("done", ok);
}

const ACTION_WORDS = {
  pause: "paused the clocks", resume: "resumed the clocks", "adjust-clock": "adjusted a clock",
  "correct-move": "corrected a move", void: "voided moves", end: "recorded the result",
  result: "declared a result", penalty: "gave a penalty", "next-game": "started the next game",
  "new-match": "started a new match", details: "sent the players", position: "set up a position",
  count: "called the count",
};

/** Someone's name and colour at a table: "Ann Lee (Black)". */
function who(tile, side) {
  return tile ? `${tile[side]} (${SIDE_NAME[side]})` : SIDE_NAME[side];
}

/** The ways a game can end, as the result form offers them, with the players' names. */
function outcomes(tile) {
  return [
    ["resign:white", `${who(tile, "black")} wins — White resigned`],
    ["resign:black", `${who(tile, "white")} wins — Black resigned`],
    ["referee-win:black", `${who(tile, "black")} wins — the referee's decision`],
    ["referee-win:white", `${who(tile, "white")} wins — the referee's decision`],
    ["agree-draw:", "Draw — agreed"],
    ["referee-draw:", "Draw — the referee's decision"],
  ];
}

/** The body of a referee action from its form. */
function actionBody(action, form) {
  const data = Object.fromEntries(new FormData(form));
  if (action === "adjust-clock") return { side: data.side, seconds: Number(data.seconds) };
  if (action === "correct-move") return { ply: Number(data.ply), move: data.move.trim() };
  if (action === "void") return { plies: Number(data.plies) };
  if (action === "penalty") return { side: data.side, rule: data.rule, severity: data.severity, note: data.note };
  if (action === "end") {
    const [how, side] = data.outcome.split(":");
    return { how, ...(side ? { side } : {}), reason: data.reason.trim() };
  }
  return {};
}

/** One audit line in words: [what, outcome]. */
function auditWords(entry) {
  const d = entry.data;
  if (entry.action.startsWith("table-")) {
    const action = entry.action.slice(6);
    const args = Object.entries(d.args ?? {}).filter(([, v]) => v !== "" && v !== null)
      .map(([k, v]) => `${k} ${v}`).join(", ");
    const what = `table ${d.table}: ${ACTION_WORDS[action] ?? action}${args ? ` (${args})` : ""}`;
    const outcome = d.status === 200 ? "done"
      : d.status === 409 ? `not answered: ${d.error}` : `refused: ${d.error}`;
    return [what, outcome];
  }
  const words = {
    "import-players": () => `imported ${d.players} players`,
    player: () => `registered ${d.name}${d.club ? ` (${d.club})` : ""}`,
    rename: () => `renamed ${d.name} to ${d.new_name}`,
    withdraw: () => `withdrew ${d.name}`,
    pairing: () => `round ${d.round}, table ${d.table}: ${d.first} (Black in game 1) v ${d.second}`,
    unpair: () => `round ${d.round}, table ${d.table}: pairing removed`,
    "import-pairings": () => `imported ${d.pairings} pairings`,
    "round-robin": () => `drew a round robin of ${d.rounds} rounds`,
    round: () => `started round ${d.round}`,
    confirm: () => `confirmed round ${d.round}, table ${d.table}, game ${d.game}: ${d.words ?? ""}`,
    reject: () => `rejected round ${d.round}, table ${d.table}, game ${d.game}: ${d.words ?? ""}`,
    dismiss: () => `marked an alert seen`,
  }[entry.action];
  return [words ? words() : `${entry.action} ${JSON.stringify(d)}`, "done"];
}

function option(value, text, selected = false) {
  const element = el("option", { value }, text);
  element.selected = selected;
  return element;
}

async function directorPage() {
  let hall = await loadHall();
  const byTable = () => new Map(hall.tables.map((tile) => [tile.table, tile]));
  $("action-table").replaceChildren(...hall.tables.map((t) => option(t.table, `table ${t.table}`)));
  $("pairing-table").replaceChildren(...hall.tables.map((t) => option(t.table, `table ${t.table}`)));

  // The referee forms name the chosen table's players.
  const showTable = () => {
    const tile = byTable().get($("action-table").value);
    if (!tile) return;
    const state = tile.online === false ? "OFFLINE" : tile.words || tile.waiting_detail || "";
    $("table-line").textContent = `${who(tile, "black")} v ${who(tile, "white")} · game ${tile.game} · `
      + `${Math.ceil(tile.plies / 2)} moves${tile.last ? `, last ${tile.last}` : ""} · ${state}`;
    for (const select of document.querySelectorAll("select.side")) {
      const chosen = select.value;
      select.replaceChildren(...SIDES.map((side) => option(side, who(tile, side), side === chosen)));
    }
    const outcome = document.querySelector("select.outcome");
    const chosen = outcome.value;
    outcome.replaceChildren(...outcomes(tile).map(([value, text]) => option(value, text, value === chosen)));
  };
  $("action-table").addEventListener("change", showTable);
  $("pairings-round").addEventListener("change", () => refresh());

  // Everything after the director's own action; only what the tables change when they change
  // (so a list being edited is not redrawn under the director's hands).
  const refresh = async (everything = true) => {
    const urls = ["/api/director/alerts", "/api/results", "/api/director/audit", "/api/hall"];
    if (everything) urls.push("/api/pairings", "/api/players");
    const [alerts, results, audit, info, pairings, players] = await Promise.all(
      urls.map((url) => fetch(url).then((r) => r.json())),
    );
    hall = info;
    $("round").textContent = `round ${info.round}`;
    showTable();
    $("alerts").replaceChildren(...alerts.map((alert) => {
      const when = new Date(alert.time * 1000).toLocaleTimeString();
      const li = el("li", { class: `alert ${alert.kind}`, "data-kind": alert.kind, "data-id": String(alert.id) });
      li.append(el("span", { class: "when" }, when), el("span", {}, `table ${alert.table}: ${alert.message} `));
      const button = el("button", { type: "button", class: "seen" }, "seen");
      button.addEventListener("click", () => post(`/api/director/alerts/${alert.id}/dismiss`).then(() => refresh()));
      li.append(button);
      return li;
    }));
    $("no-alerts").hidden = alerts.length > 0;
    $("results").replaceChildren(...results.map((r) => {
      const tr = el("tr", { "data-table": r.table, "data-game": String(r.number) });
      tr.append(el("td", {}, String(r.round)), el("td", {}, r.table), el("td", {}, String(r.number)), el("td", { class: "words" }, r.words));
      const td = el("td");
      if (r.confirmed_by) td.textContent = `confirmed by ${r.confirmed_by}`;
      else {
        const body = { round: r.round, table: r.table, game: r.number };
        const confirm = el("button", { type: "button", class: "confirm" }, "confirm");
        confirm.addEventListener("click", () => post("/api/director/confirm", body).then(() => refresh()));
        const reject = el("button", { type: "button", class: "reject", title: "not a game of the match (a warm-up, a wrong set-up)" }, "reject");
        reject.addEventListener("click", () => post("/api/director/reject", body).then(() => refresh()));
        td.append(confirm, " ", reject);
      }
      tr.append(td);
      return tr;
    }));
    $("no-results").hidden = results.length > 0;
    $("audit").replaceChildren(...audit.slice(-100).reverse().map((a) => {
      const [what, outcome] = auditWords(a);
      const tr = el("tr", { class: outcome === "done" ? "" : "refused" });
      tr.append(el("td", {}, new Date(a.time).toLocaleString()), el("td", {}, a.actor), el("td", {}, what), el("td", {}, outcome));
      return tr;
    }));
    if (!everything) return;
    $("round-line").textContent = info.started
      ? `Round ${info.started} is being played.` : "No round has started yet.";
    const rounds = [...new Set([...info.rounds, info.started + 1])].filter((r) => r > 0).sort((a, b) => a - b);
    const wanted = Number($("round-number").value) || info.started + 1;
    $("round-number").replaceChildren(...rounds.map((r) => option(String(r), `round ${r}`, r === wanted)));
    const active = players.filter((p) => !p.withdrawn).map((p) => p.name);
    for (const id of ["pairing-first", "pairing-second"]) {
      const chosen = $(id).value;
      $(id).replaceChildren(...active.map((name) => option(name, name, name === chosen)));
    }
    if (!$("pairing-round").value) $("pairing-round").value = String(info.started + 1);
    $("players").replaceChildren(...players.map((p) => playerRow(p, refresh)));
    const paired = [...new Set(pairings.map((p) => p.round))];
    const shown = $("pairings-round").value || String(paired.find((r) => r > info.started) ?? paired[0] ?? "all");
    $("pairings-round").replaceChildren(
      ...paired.map((r) => option(String(r), `round ${r}${r <= info.started ? " (started)" : ""}`, String(r) === shown)),
      option("all", "all rounds", shown === "all"),
    );
    const listed = pairings.filter((p) => shown === "all" || String(p.round) === shown);
    $("pairings").replaceChildren(...listed.map((p) => pairingRow(p, info.started, refresh)));
  };

  // Referee actions: a button or a form each, answered in words.
  const act = async (action, body) => {
    const table = $("action-table").value;
    const label = ACTION_WORDS[action] ?? action;
    try {
      await post(`/api/director/tables/${encodeURIComponent(table)}/${action}`, body);
      say($("action-answer"), `table ${table}: ${label} — done`, true);
    } catch (error) {
      say($("action-answer"), `table ${table}: not done — ${error.message}`, false);
    }
    refresh();
  };
  for (const button of document.querySelectorAll("button.act")) {
    button.addEventListener("click", () => act(button.dataset.action, {}));
  }
  for (const form of document.querySelectorAll("form.act")) {
    form.addEventListener("submit", (submitted) => {
      submitted.preventDefault();
      act(form.dataset.action, actionBody(form.dataset.action, form));
    });
  }

  $("round-form").addEventListener("submit", async (submitted) => {
    submitted.preventDefault();
    const round = Number($("round-number").value);
    try {
      const answer = await post("/api/director/round", { round });
      const lines = Object.entries(answer.tables).map(([table, outcome]) => el("li", { class: outcome === "seated" ? "done" : "refused" }, `table ${table}: ${outcome}`));
      $("round-answer").replaceChildren(el("li", { class: "done" }, `round ${round} started`), ...lines);
    } catch (error) {
      $("round-answer").replaceChildren(el("li", { class: "refused" }, error.message));
    }
    refresh();
  });
  $("player-form").addEventListener("submit", async (submitted) => {
    submitted.preventDefault();
    const name = $("player-name").value.trim();
    try {
      await post("/api/director/players", { name, club: $("player-club").value.trim() });
      say($("players-answer"), `${name} registered`, true);
      $("player-name").value = "";
      $("player-club").value = "";
    } catch (error) {
      say($("players-answer"), error.message, false);
    }
    refresh();
  });
  $("pairing-form").addEventListener("submit", async (submitted) => {
    submitted.preventDefault();
    const body = {
      round: Number($("pairing-round").value), table: $("pairing-table").value,
      first: $("pairing-first").value, second: $("pairing-second").value,
    };
    try {
      await post("/api/director/pairings", body);
      say($("pairings-answer"), `round ${body.round}, table ${body.table}: ${body.first} v ${body.second}`, true);
    } catch (error) {
      say($("pairings-answer"), error.message, false);
    }
    refresh();
  });
  $("round-robin").addEventListener("click", async () => {
    try {
      const answer = await post("/api/director/round-robin");
      say($("pairings-answer"), `a round robin of ${answer.rounds} rounds`, true);
    } catch (error) {
      say($("pairings-answer"), error.message, false);
    }
    refresh();
  });
  $("csv-form").addEventListener("submit", async (submitted) => {
    submitted.preventDefault();
    const kind = $("csv-kind").value;
    try {
      const answer = await post(`/api/director/${kind}.csv`, $("csv-text").value, "text/csv");
      say($("csv-answer"), `imported ${answer[kind]} ${kind}`, true);
    } catch (error) {
      say($("csv-answer"), error.message, false);
    }
    refresh();
  });

  /** A player's line: rename in place, withdraw (asked twice). */
  function playerRow(player, done) {
    const tr = el("tr", { "data-player": player.name, class: player.withdrawn ? "withdrawn" : "" });
    const name = el("td", {}, player.name);
    tr.append(name, el("td", {}, player.club));
    const td = el("td");
    if (player.withdrawn) td.textContent = "withdrawn";
    else {
      const rename = el("button", { type: "button", class: "rename" }, "rename");
      rename.addEventListener("click", () => {
        const input = el("input", { "aria-label": `new name for ${player.name}`, maxlength: "80" });
        input.value = player.name;
        const save = el("button", { type: "button", class: "save" }, "save");
        save.addEventListener("click", async () => {
          try {
            await post("/api/director/players/rename", { name: player.name, new_name: input.value.trim() });
            say($("players-answer"), `${player.name} is now ${input.value.trim()}`, true);
          } catch (error) {
            say($("players-answer"), error.message, false);
          }
          done();
        });
        name.replaceChildren(input, save);
        input.focus();
      });
      const withdraw = el("button", { type: "button", class: "withdraw" }, "withdraw");
      withdraw.addEventListener("click", async () => {
        if (!withdraw.classList.contains("sure")) {
          withdraw.classList.add("sure");
          withdraw.textContent = `really withdraw ${player.name}?`;
          return;
        }
        try {
          const answer = await post("/api/director/players/withdraw", { name: player.name });
          say($("players-answer"), `${player.name} withdrawn; ${answer.freed} seats in rounds to come freed`, true);
        } catch (error) {
          say($("players-answer"), error.message, false);
        }
        done();
      });
      td.append(rename, " ", withdraw);
    }
    tr.append(td);
    return tr;
  }

  /** A pairing's line: changed or removed until its round starts. */
  function pairingRow(pairing, started, done) {
    const tr = el("tr", { "data-round": String(pairing.round), "data-table": pairing.table });
    tr.append(el("td", {}, String(pairing.round)), el("td", {}, pairing.table), el("td", {}, pairing.first), el("td", {}, pairing.second));
    const td = el("td");
    if (pairing.round <= started) td.textContent = "started";
    else {
      const change = el("button", { type: "button", class: "change" }, "change");
      change.addEventListener("click", () => {
        $("pairing-round").value = String(pairing.round);
        $("pairing-table").value = pairing.table;
        $("pairing-first").value = pairing.first;
        $("pairing-second").value = pairing.second;
        $("pairing-first").focus();
      });
      const remove = el("button", { type: "button", class: "remove" }, "remove");
      remove.addEventListener("click", async () => {
        try {
          await post("/api/director/pairings/remove", { round: pairing.round, table: pairing.table });
          say($("pairings-answer"), `round ${pairing.round}, table ${pairing.table}: nobody paired`, true);
        } catch (error) {
          say($("pairings-answer"), error.message, false);
        }
        done();
      });
      td.append(change, " ", remove);
    }
    tr.append(td);
    return tr;
  }

  await refresh();
  // Live: a table's change refreshes the console, at most twice a second.
  let pending = false;
  connect(() => {
    if (pending) return;
    pending = true;
    setTimeout(() => { pending = false; refresh(false); }, 500);
  }, (live) => showConnection($("conn"), live));
}

({ hall: hallPage, standings: standingsPage, table: tablePage, director: directorPage })[page]();
