// The hall's pages: every table live, standings, one table, the director's console.
// Reuses the board page's module (/static/poolboard.js) for boards, clocks and the live socket.
import {
  BoardView, ClockModel, connect, dateLocale, formatClock, language, loadLanguage, parseFen,
  refusalText, renderMoves, showConnection, showText, sideName, stateLine, t, trackerLine,
  withRules, wordPlies,
} from "/static/poolboard.js";

const page = document.body.dataset.page;
const $ = (id) => document.getElementById(id);
const tiles = new Map(); // table -> {tile, element, view, clock}
// The board is drawn with Black's side (squares 1-12) at the top: Black's row comes first.
const SIDES = ["black", "white"];

function el(tag, attributes = {}, text = "") {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (text) element.textContent = text;
  return element;
}

/** The hall (GET /api/hall), the page put in its language first (the hall's [display] or the
 * reader's choice, docs/web.md). */
async function loadHall() {
  const hall = await loadLanguage("/api/hall");
  $("event").textContent = hall.event;
  $("round").textContent = t("round {round}", { round: hall.round });
  return hall;
}

/** A result in words with the players' names ("Ann Lee (Black) wins — White resigned") from a
 * tile, a reported result or an audit line, in the page's language as the hall worded it
 * (poolboard/hall/event.py result_words: the board's own pages word it the same). */
function resultWords({ words, result_words: said }) {
  return said?.[language] ?? words ?? "";
}

/** What a tile says under the players: offline, the result in words, or what the board waits for. */
function tileStatus(tile) {
  if (tile.online === false) return t("OFFLINE");
  if (tile.online === null) return t("not connected yet");
  if (tile.words) return resultWords(tile);
  if (tile.link === false) return t("sensor link down");
  if (tile.clock && tile.clock.state === "paused") return t("clocks paused");
  const said = tile.waiting_said;
  return tile.waiting ? trackerLine({ name: tile.waiting, detail: tile.waiting_detail ?? "", said }) : "";
}

function drawTile(tile) {
  let entry = tiles.get(tile.table);
  if (!entry) {
    const element = el("a", { class: "tile", href: `/table/${tile.table}`, "data-table": tile.table });
    const head = el("h2");
    const name = el("span", { class: "tile-name" }, t("table {table}", { table: tile.table }));
    head.append(name, el("span", { class: "tile-game" }));
    element.append(head);
    const board = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    board.classList.add("board", "mini");
    const info = el("div", { class: "tile-info" });
    for (const side of SIDES) {
      const line = el("p", { class: `player ${side}` });
      line.append(
        el("span", { class: "name", title: sideName(side) }),
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
  element.querySelector(".tile-game").textContent = tile.fen ? t("game {game}", { game: tile.game }) : "";
  const live = !tile.result && tile.online !== false;
  for (const side of SIDES) {
    const line = element.querySelector(`.player.${side}`);
    line.querySelector(".name").textContent = tile[side];
    line.classList.toggle("to-move", live && tile.turn === side);
    line.classList.toggle("running", live && tile.clock?.state === "running" && tile.clock.running === side);
  }
  const moves = Math.ceil(tile.plies / 2);
  element.querySelector(".tile-last").textContent = tile.last
    ? t("move {number}: {move}", { number: moves, move: tile.last })
    : tile.fen ? t("no move yet") : "";
  const state = element.querySelector(".tile-state");
  showText(state, tileStatus(tile));
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
  await loadHall();
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
    $("event").textContent = t("table {table}", { table });
    $("pdn-link").href = `/broadcast/round-${tile.round}-${table}.pdn`;
    const state = data.state;
    if (!state) {
      showText($("state-line"), tileStatus(tile));
      return;
    }
    clock.update(state.clock);
    view.render({ pieces: parseFen(state.fen).pieces, lastMove: state.last_move });
    renderMoves($("moves"), state);
    showText($("state-line"), tile.online === false ? t("OFFLINE") : stateLine(state));
    $("result").hidden = !tile.words;
    showText($("result"), resultWords(tile));
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
      line.querySelector(".name").textContent = `${tile[side]} (${sideName(side)})`;
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
  if (!response.ok) throw new Error(refusalText(answer) || `${response.status} ${response.statusText}`);
  return answer;
}

/** Show what came of a console action in `element`: "done" in green, or the refusal in red. */
function say(element, text, ok) {
  element.textContent = text;
  element.classList.toggle("refused", !ok);
  element.classList.toggle("done", ok);
}

/** A referee action at a table in words (a function: the words are those of the page's language). */
function actionWords(action) {
  return {
    pause: t("paused the clocks"), resume: t("resumed the clocks"), "adjust-clock": t("adjusted a clock"),
    "correct-move": t("corrected a move"), void: t("voided moves"), end: t("recorded the result"),
    result: t("declared a result"), penalty: t("gave a penalty"), "next-game": t("started the next game"),
    "new-match": t("started a new match"), details: t("sent the players"), position: t("set up a position"),
    count: t("called the count"),
  }[action] ?? action;
}

/** Someone's name and colour at a table: "Ann Lee (Black)". */
function who(tile, side) {
  return tile ? `${tile[side]} (${sideName(side)})` : sideName(side);
}

/** The ways a game can end, as the result form offers them, with the players' names. */
function outcomes(tile) {
  const wins = (side, why) => `${t("{player} wins", { player: who(tile, side) })} — ${why}`;
  return [
    ["resign:white", wins("black", t("White resigned"))],
    ["resign:black", wins("white", t("Black resigned"))],
    ["referee-win:black", wins("black", t("the referee's decision"))],
    ["referee-win:white", wins("white", t("the referee's decision"))],
    ["agree-draw:", `${t("Draw")} — ${t("agreed")}`],
    ["referee-draw:", `${t("Draw")} — ${t("the referee's decision")}`],
  ];
}

/** An alert in words. The hall's are English: another language says the words a table sent
 * with it (``said``: a violation's, a fault's), or what kind of alert it is, the result to
 * confirm in words, and the rules it cites by their IDs. */
function alertWords(alert, results) {
  if (language === "en") return alert.message;
  if (alert.said) return t(alert.said.message, alert.said.values); // a table's own words
  const [, round, table, game] = alert.ref.split(":");
  const reported = results.find((r) => String(r.round) === round && r.table === table && String(r.number) === game);
  if (alert.kind === "result" && reported) {
    return t("game {game}: {words}; confirm it", { game, words: resultWords(reported) });
  }
  const kind = {
    offline: t("the table is offline"), link: t("sensor link down"), fault: t("a fault at the table"),
    sync: t("the board is out of step with its record"), flag: t("time ran out"),
    violation: t("a violation at the table"), penalty: t("a penalty was given"),
    idle: t("no move for a long time"), result: t("a result to confirm"), protocol: t("a message the hall cannot read"),
    gap: t("messages missed"), unknown: t("a table the hall does not know"),
  }[alert.kind] ?? alert.kind;
  return withRules(kind, alert.message);
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

/** One audit line in words: [what, outcome, done]; a refusal in the page's language from its
 * message and values, when the hall kept them. */
function auditWords(entry) {
  const d = entry.data;
  if (entry.action.startsWith("table-")) {
    const action = entry.action.slice(6);
    const args = Object.entries(d.args ?? {}).filter(([, v]) => v !== "" && v !== null)
      .map(([k, v]) => `${k} ${v}`).join(", ");
    const what = `${t("table {table}", { table: d.table })}: ${actionWords(action)}${args ? ` (${args})` : ""}`;
    const error = d.message ? t(d.message, d.values) : d.error;
    const outcome = d.status === 200 ? t("done")
      : d.status === 409 ? t("not answered: {error}", { error }) : t("refused: {error}", { error });
    return [what, outcome, d.status === 200];
  }
  const seat = { round: d.round, table: d.table, game: d.game };
  const result = resultWords(d);
  const words = {
    "import-players": () => t("imported {n} players", { n: d.players }),
    player: () => t("registered {name}", { name: d.club ? `${d.name} (${d.club})` : d.name }),
    rename: () => t("renamed {name} to {new_name}", d),
    withdraw: () => t("withdrew {name}", d),
    pairing: () => t("round {round}, table {table}: {first} (Black in game 1) v {second}", d),
    unpair: () => t("round {round}, table {table}: pairing removed", d),
    "import-pairings": () => t("imported {n} pairings", { n: d.pairings }),
    "round-robin": () => t("drew a round robin of {n} rounds", { n: d.rounds }),
    round: () => t("started round {round}", d),
    confirm: () => `${t("confirmed round {round}, table {table}, game {game}", seat)}: ${result}`,
    reject: () => `${t("rejected round {round}, table {table}, game {game}", seat)}: ${result}`,
    dismiss: () => t("marked an alert seen"),
  }[entry.action];
  return [words ? words() : `${entry.action} ${JSON.stringify(d)}`, t("done"), true];
}

function option(value, text, selected = false) {
  const element = el("option", { value }, text);
  element.selected = selected;
  return element;
}

async function directorPage() {
  let hall = await loadHall();
  wordPlies(document.querySelector("form[data-action='void'] [name=plies]"));
  const byTable = () => new Map(hall.tables.map((tile) => [tile.table, tile]));
  $("action-table").replaceChildren(...hall.tables.map((tile) => option(tile.table, t("table {table}", { table: tile.table }))));
  $("pairing-table").replaceChildren(...hall.tables.map((tile) => option(tile.table, t("table {table}", { table: tile.table }))));

  // The referee forms name the chosen table's players.
  const showTable = () => {
    const tile = byTable().get($("action-table").value);
    if (!tile) return;
    const moves = Math.ceil(tile.plies / 2);
    const count = moves === 1 ? t("1 move") : t("{n} moves", { n: moves });
    const played = tile.last ? t("{moves}, last {move}", { moves: count, move: tile.last }) : count;
    const game = t("game {game}", { game: tile.game });
    const players = t("{black} v {white}", { black: who(tile, "black"), white: who(tile, "white") });
    showText($("table-line"), `${players} · ${game} · ${played} · ${tileStatus(tile)}`);
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
    $("round").textContent = t("round {round}", { round: info.round });
    showTable();
    $("alerts").replaceChildren(...alerts.map((alert) => {
      const when = new Date(alert.time * 1000).toLocaleTimeString(dateLocale());
      const li = el("li", { class: `alert ${alert.kind}`, "data-kind": alert.kind, "data-id": String(alert.id) });
      const what = el("span");
      showText(what, `${t("table {table}", { table: alert.table })}: ${alertWords(alert, results)} `);
      li.append(el("span", { class: "when" }, when), what);
      const button = el("button", { type: "button", class: "seen" }, t("seen"));
      button.addEventListener("click", () => post(`/api/director/alerts/${alert.id}/dismiss`).then(() => refresh()));
      li.append(button);
      return li;
    }));
    $("no-alerts").hidden = alerts.length > 0;
    $("results").replaceChildren(...results.map((r) => {
      const tr = el("tr", { "data-table": r.table, "data-game": String(r.number) });
      const words = el("td", { class: "words" });
      showText(words, resultWords(r));
      tr.append(el("td", {}, String(r.round)), el("td", {}, r.table), el("td", {}, String(r.number)), words);
      const td = el("td");
      if (r.confirmed_by) td.textContent = t("confirmed by {name}", { name: r.confirmed_by });
      else {
        const body = { round: r.round, table: r.table, game: r.number };
        const confirm = el("button", { type: "button", class: "confirm" }, t("confirm"));
        confirm.addEventListener("click", () => post("/api/director/confirm", body).then(() => refresh()));
        const reject = el("button", { type: "button", class: "reject", title: t("not a game of the match (a warm-up, a wrong set-up)") }, t("reject"));
        reject.addEventListener("click", () => post("/api/director/reject", body).then(() => refresh()));
        td.append(confirm, " ", reject);
      }
      tr.append(td);
      return tr;
    }));
    $("no-results").hidden = results.length > 0;
    $("audit").replaceChildren(...audit.slice(-100).reverse().map((a) => {
      const [what, outcome, done] = auditWords(a);
      const tr = el("tr", { class: done ? "" : "refused" });
      const [said, answer] = [el("td"), el("td")];
      showText(said, what);
      showText(answer, outcome);
      tr.append(el("td", {}, new Date(a.time).toLocaleString(dateLocale())), el("td", {}, a.actor), said, answer);
      return tr;
    }));
    if (!everything) return;
    $("round-line").textContent = info.started
      ? t("Round {round} is being played.", { round: info.started }) : t("No round has started yet.");
    const rounds = [...new Set([...info.rounds, info.started + 1])].filter((r) => r > 0).sort((a, b) => a - b);
    const wanted = Number($("round-number").value) || info.started + 1;
    $("round-number").replaceChildren(...rounds.map((r) => option(String(r), t("round {round}", { round: r }), r === wanted)));
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
      ...paired.map((r) => option(String(r), r <= info.started ? t("round {round} (started)", { round: r })
        : t("round {round}", { round: r }), String(r) === shown)),
      option("all", t("all rounds"), shown === "all"),
    );
    const listed = pairings.filter((p) => shown === "all" || String(p.round) === shown);
    $("pairings").replaceChildren(...listed.map((p) => pairingRow(p, info.started, refresh)));
  };

  // Referee actions: a button or a form each, answered in words.
  const act = async (action, body) => {
    const table = $("action-table").value;
    const where = t("table {table}", { table });
    try {
      await post(`/api/director/tables/${encodeURIComponent(table)}/${action}`, body);
      say($("action-answer"), `${where}: ${actionWords(action)} — ${t("done")}`, true);
    } catch (error) {
      say($("action-answer"), `${where}: ${t("not done")} — ${error.message}`, false);
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
      const said = (table, outcome) => outcome === "seated" ? t("seated")
        : answer.refused?.[table] ? t("not seated: {error}", { error: refusalText(answer.refused[table]) }) : outcome;
      const lines = Object.entries(answer.tables).map(([table, outcome]) => el("li", { class: outcome === "seated" ? "done" : "refused" },
        `${t("table {table}", { table })}: ${said(table, outcome)}`));
      $("round-answer").replaceChildren(el("li", { class: "done" }, t("round {round} started", { round })), ...lines);
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
      say($("players-answer"), t("{name} registered", { name }), true);
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
      say($("pairings-answer"), t("round {round}, table {table}: {first} v {second}", body), true);
    } catch (error) {
      say($("pairings-answer"), error.message, false);
    }
    refresh();
  });
  $("round-robin").addEventListener("click", async () => {
    try {
      const answer = await post("/api/director/round-robin");
      say($("pairings-answer"), t("a round robin of {n} rounds", { n: answer.rounds }), true);
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
      const imported = kind === "players" ? t("imported {n} players", { n: answer[kind] })
        : t("imported {n} pairings", { n: answer[kind] });
      say($("csv-answer"), imported, true);
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
    if (player.withdrawn) td.textContent = t("withdrawn");
    else {
      const rename = el("button", { type: "button", class: "rename" }, t("rename"));
      rename.addEventListener("click", () => {
        const input = el("input", { "aria-label": t("new name for {name}", { name: player.name }), maxlength: "80" });
        input.value = player.name;
        const save = el("button", { type: "button", class: "save" }, t("save"));
        save.addEventListener("click", async () => {
          try {
            await post("/api/director/players/rename", { name: player.name, new_name: input.value.trim() });
            say($("players-answer"), t("{name} is now {new_name}", { name: player.name, new_name: input.value.trim() }), true);
          } catch (error) {
            say($("players-answer"), error.message, false);
          }
          done();
        });
        name.replaceChildren(input, save);
        input.focus();
      });
      const withdraw = el("button", { type: "button", class: "withdraw" }, t("withdraw"));
      withdraw.addEventListener("click", async () => {
        if (!withdraw.classList.contains("sure")) {
          withdraw.classList.add("sure");
          withdraw.textContent = t("really withdraw {name}?", { name: player.name });
          return;
        }
        try {
          const answer = await post("/api/director/players/withdraw", { name: player.name });
          say($("players-answer"), t("{name} withdrawn; {n} seats in rounds to come freed", { name: player.name, n: answer.freed }), true);
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
    if (pairing.round <= started) td.textContent = t("started");
    else {
      const change = el("button", { type: "button", class: "change" }, t("change"));
      change.addEventListener("click", () => {
        $("pairing-round").value = String(pairing.round);
        $("pairing-table").value = pairing.table;
        $("pairing-first").value = pairing.first;
        $("pairing-second").value = pairing.second;
        $("pairing-first").focus();
      });
      const remove = el("button", { type: "button", class: "remove" }, t("remove"));
      remove.addEventListener("click", async () => {
        try {
          await post("/api/director/pairings/remove", { round: pairing.round, table: pairing.table });
          say($("pairings-answer"), t("round {round}, table {table}: nobody paired", pairing), true);
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

/** A phone stacks a list's rows and hides its heading row: each cell carries its column's
 * heading (data-label, in the page's language) for the stylesheet to show before it. */
function labelCells(table) {
  const heads = [...table.tHead.rows[0].cells].map((th) => th.textContent.trim());
  for (const row of table.tBodies[0].rows) {
    [...row.cells].forEach((td, i) => { if (heads[i]) td.dataset.label = heads[i]; });
  }
}
for (const table of document.querySelectorAll("table.grid")) {
  new MutationObserver(() => labelCells(table)).observe(table.tBodies[0], { childList: true });
}

({ hall: hallPage, standings: standingsPage, table: tablePage, director: directorPage })[page]();
