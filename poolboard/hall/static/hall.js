// The hall's pages: every table live, standings, one table, the director's console.
// Reuses the board page's module (/static/poolboard.js) for boards, clocks and the live socket.
import {
  BoardView, ClockModel, connect, formatClock, parseFen, renderMoves, showConnection, stateLine,
} from "/static/poolboard.js";

const page = document.body.dataset.page;
const $ = (id) => document.getElementById(id);
const tiles = new Map(); // table -> {tile, element, view, clock}

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

function tileStatus(tile) {
  if (tile.online === false) return "OFFLINE";
  if (tile.online === null) return "not connected yet";
  if (tile.result) return `${tile.result} — ${tile.reason ?? ""}`;
  if (tile.link === false) return "sensor link down";
  return tile.waiting_detail || tile.waiting || "";
}

function drawTile(tile) {
  let entry = tiles.get(tile.table);
  if (!entry) {
    const element = el("a", { class: "tile", href: `/table/${tile.table}`, "data-table": tile.table });
    element.append(el("h2", {}, `table ${tile.table}`));
    const board = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    board.classList.add("board", "mini");
    element.append(board);
    for (const name of ["white", "black"]) {
      const line = el("p", { class: `player ${name}` });
      line.append(el("span", { class: "name" }), el("span", { class: "clock" }));
      element.append(line);
    }
    element.append(el("p", { class: "tile-state" }));
    $("tiles").append(element);
    entry = { element, view: new BoardView(board), clock: new ClockModel() };
    tiles.set(tile.table, entry);
  }
  entry.tile = tile;
  if (tile.fen) entry.clock.update(tile.clock); // nothing heard yet: no clock to show
  const { element } = entry;
  element.classList.toggle("offline", tile.online === false);
  element.classList.toggle("finished", Boolean(tile.result));
  element.dataset.plies = String(tile.plies);
  element.dataset.last = tile.last ?? "";
  for (const side of ["black", "white"]) {
    element.querySelector(`.${side} .name`).textContent = tile[side];
  }
  element.querySelector(".tile-state").textContent = `game ${tile.game} · ${tile.plies} plies · ${tileStatus(tile)}`;
  if (tile.fen) entry.view.render({ pieces: parseFen(tile.fen).pieces });
}

function tickClocks() {
  for (const { element, clock } of tiles.values()) {
    for (const side of ["black", "white"]) {
      const left = clock.remaining(side);
      element.querySelector(`.${side} .clock`).textContent = left === null ? "" : formatClock(left);
    }
  }
}

async function hallPage() {
  const hall = await loadHall();
  hall.tables.forEach(drawTile);
  connect((update) => update.forEach(drawTile), (live) => showConnection($("conn"), live));
  setInterval(tickClocks, 200);
  if (location.pathname === "/big") {
    document.body.classList.add("big");
    // Big screen: eight tables at a time, cycling every 10 s when there are more.
    let first = 0;
    const cycle = () => {
      const all = [...tiles.values()];
      all.forEach(({ element }, index) => {
        element.hidden = all.length > 8 && !(index >= first && index < first + 8);
      });
      first = first + 8 >= all.length ? 0 : first + 8;
    };
    cycle();
    setInterval(cycle, 10000);
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
    $("result").hidden = !state.result;
    $("result").textContent = state.result ? `${state.result} — ${state.result_reason}` : "";
  };
  await refresh();
  connect((update) => {
    if (update.some((t) => t.table === table)) refresh();
  }, (live) => showConnection($("conn"), live));
  setInterval(() => {
    if (!tile) return;
    for (const [slot, side] of [["top", "white"], ["bottom", "black"]]) {
      const left = clock.remaining(side);
      $(`player-${slot}`).querySelector(".name").textContent = tile[side];
      $(`player-${slot}`).querySelector(".clock").textContent = left === null ? "" : formatClock(left);
    }
  }, 200);
}

async function post(url, body, type = "application/json") {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": type, "X-Poolboard": "1" },
    body: type === "application/json" ? JSON.stringify(body) : body,
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(typeof answer.detail === "string" ? answer.detail : JSON.stringify(answer.detail));
  return answer;
}

async function directorPage() {
  const hall = await loadHall();
  for (const tile of hall.tables) $("action-table").append(el("option", {}, tile.table));
  const refresh = async () => {
    const [alerts, results, audit, pairings, info] = await Promise.all(
      ["/api/director/alerts", "/api/results", "/api/director/audit", "/api/pairings", "/api/hall"]
        .map((url) => fetch(url).then((r) => r.json())),
    );
    $("round").textContent = `round ${info.round}`;
    $("alerts").replaceChildren(...alerts.map((alert) => {
      const li = el("li", { class: `alert ${alert.kind}`, "data-kind": alert.kind }, `table ${alert.table}: ${alert.message} `);
      const button = el("button", { type: "button" }, "seen");
      button.addEventListener("click", () => post(`/api/director/alerts/${alert.id}/dismiss`).then(refresh));
      li.append(button);
      return li;
    }));
    $("results").replaceChildren(...results.map((r) => {
      const tr = el("tr", { "data-table": r.table });
      tr.append(el("td", {}, `round ${r.round}`), el("td", {}, `table ${r.table}`), el("td", {}, `game ${r.number}`), el("td", {}, `${r.result} ${r.reason}`));
      const td = el("td");
      if (r.confirmed_by) td.textContent = `confirmed by ${r.confirmed_by}`;
      else {
        const body = { round: r.round, table: r.table, game: r.number };
        const confirm = el("button", { type: "button", class: "confirm" }, "confirm");
        confirm.addEventListener("click", () => post("/api/director/confirm", body).then(refresh));
        const reject = el("button", { type: "button", class: "reject", title: "not a game of the match" }, "reject");
        reject.addEventListener("click", () => post("/api/director/reject", body).then(refresh));
        td.append(confirm, " ", reject);
      }
      tr.append(td);
      return tr;
    }));
    $("pairings").replaceChildren(...pairings.map((p) => {
      const tr = el("tr");
      tr.append(el("td", {}, `round ${p.round}`), el("td", {}, `table ${p.table}`), el("td", {}, `${p.first} – ${p.second}`));
      return tr;
    }));
    $("audit").replaceChildren(...audit.slice(-50).map((a) => el("li", {}, `${a.time} ${a.actor} ${a.action} ${JSON.stringify(a.data)}`)));
  };
  $("action-form").addEventListener("submit", async (submitted) => {
    submitted.preventDefault();
    const table = $("action-table").value;
    const action = $("action-name").value;
    try {
      const text = $("action-args").value.trim();
      await post(`/api/director/tables/${table}/${action}`, text ? JSON.parse(text) : {});
      $("action-answer").textContent = `table ${table}: ${action} done`;
    } catch (error) {
      $("action-answer").textContent = `table ${table}: ${action} refused: ${error.message}`;
    }
    refresh();
  });
  $("round-form").addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    post("/api/director/round", { round: Number($("round-number").value) }).then(refresh);
  });
  $("round-robin").addEventListener("click", () => post("/api/director/round-robin").then(refresh));
  $("csv-form").addEventListener("submit", async (submitted) => {
    submitted.preventDefault();
    const kind = $("csv-kind").value;
    try {
      const answer = await post(`/api/director/${kind}.csv`, $("csv-text").value, "text/csv");
      $("csv-answer").textContent = `imported ${answer[kind]} ${kind}`;
    } catch (error) {
      $("csv-answer").textContent = error.message;
    }
    refresh();
  });
  await refresh();
  connect(() => refresh(), (live) => showConnection($("conn"), live));
}

({ hall: hallPage, standings: standingsPage, table: tablePage, director: directorPage })[page]();
