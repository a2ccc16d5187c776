// The page of `python -m catena serve`: it draws what the server's JSON API says (catena/web.py)
// and sends it the person's clicks.  Each tab plays its own game, by the id the server gave it.
"use strict";

const NEW_GAME_FIELDS = ["size", "game_type", "scoring", "you", "komi", "colour", "stone",
                         "iterations", "seconds", "seed"];
let game = null;          // the last state the server sent
let busy = false;         // a request that makes the engine work is under way

const $ = (id) => document.getElementById(id);

class Refusal extends Error {}

async function api(method, path, body) {
  const options = {method, headers: {"Content-Type": "application/json"}};
  if (body !== undefined) options.body = JSON.stringify(body);
  const response = await fetch(path, options);
  let data;
  try {
    data = await response.json();
  } catch (error) {
    throw new Refusal(`the server answered ${response.status} ${response.statusText}`);
  }
  if (!response.ok) throw new Refusal(data.error || response.statusText);
  return data;
}

function say(text, kind) {
  const message = $("message");
  message.textContent = text || "";
  message.className = kind || "";
}

function engineBudget() {
  if (!game) return "";
  const {iterations, seconds} = game.engine;
  return seconds ? `up to ${seconds} s` : `${iterations} iterations`;
}

function setBusy(text) {
  busy = Boolean(text);
  document.body.classList.toggle("busy", busy);
  $("thinking").hidden = !busy;
  $("thinking-text").textContent = text || "";
  if (busy) $("status").textContent = text;
  for (const id of ["undo", "hint", "take-button", "komi-submit", "colour-black", "colour-white", "start",
                    "load", "engine-apply"]) {
    $(id).disabled = busy || (id === "undo" && !(game && game.can_undo))
                          || (id === "hint" && !(game && game.to_act === "you"));
  }
}

function render(state) {
  game = state;
  document.body.dataset.game = state.id;
  document.body.dataset.phase = state.phase;
  document.body.dataset.turn = state.to_act || "";
  $("board").innerHTML = state.board;
  $("status").textContent = state.status;
  const moves = $("moves");
  moves.replaceChildren();
  for (const entry of state.moves) {
    const item = document.createElement("li");
    item.textContent = entry.text;
    item.className = entry.by;
    item.dataset.kind = entry.kind;
    item.dataset.value = entry.value;
    moves.appendChild(item);
  }
  moves.scrollTop = moves.scrollHeight;
  const yourSetup = state.to_act === "you";
  $("komi-form").hidden = !(yourSetup && state.phase === "komi");
  $("komi-input").min = state.komi_range[0];
  $("komi-input").max = state.komi_range[1];
  $("colour-choice").hidden = !(yourSetup && state.phase === "colour");
  $("take-button").hidden = !state.can_take_button;
  $("engine-iterations").value = state.engine.iterations || "";
  $("engine-seconds").value = state.engine.seconds || "";
  $("hint-text").replaceChildren();
  setBusy(null);
}

// Everything that changes the game goes through here: one request at a time, then the engine's
// turn if it has one, with the "thinking" state shown while it searches.
async function act(request, after) {
  if (busy) {
    say("Wait: the engine is still thinking.", "error");
    return;
  }
  try {
    const state = await request();
    say("");
    render(state);
    if (after) after(state);
    await engineTurn();
  } catch (error) {
    if (error instanceof Refusal) say(`Refused: ${error.message}`, "error");
    else say(`Something went wrong: ${error.message}`, "error");
    setBusy(null);
  }
}

async function engineTurn() {
  while (game && game.engine_to_act) {
    setBusy(`The engine is thinking (${engineBudget()})…`);
    render(await api("POST", `/api/games/${game.id}/engine`));
  }
}

function play(cell) {
  if (!game) return;
  act(() => api("POST", `/api/games/${game.id}/move`, {move: cell}));
}

function fieldsOf(form) {
  const fields = {};
  for (const [name, value] of new FormData(form)) {
    if (value !== "") fields[name] = value;
  }
  return fields;
}

function startGame(fields) {
  const engine = fieldsOf($("engine-form"));
  const body = Object.assign({}, engine, fields);
  act(() => api("POST", "/api/games", body), () => {
    const query = new URLSearchParams(body).toString();
    history.replaceState(null, "", query ? `?${query}` : location.pathname);
  });
}

async function showHint() {
  if (busy || !game) return;
  setBusy("The engine is analysing…");
  try {
    const state = await api("POST", `/api/games/${game.id}/hint`);
    render(state);
    const hint = state.hint;
    if (hint.heatmap) $("board").innerHTML = hint.heatmap;
    const text = $("hint-text");
    const head = document.createElement("p");
    head.textContent = hint.moves ? "The engine suggests, best first:" : `The engine suggests ${hint.advice}.`;
    text.appendChild(head);
    if (hint.moves) {
      const list = document.createElement("ol");
      for (const line of hint.moves) {
        const item = document.createElement("li");
        item.textContent = line.text;
        list.appendChild(item);
      }
      text.appendChild(list);
    }
  } catch (error) {
    say(`Refused: ${error.message}`, "error");
    setBusy(null);
  }
}

async function save() {
  if (!game) return;
  try {
    const saved = await api("GET", `/api/games/${game.id}/record`);
    $("record-text").value = saved.record || "(a game loaded from a position string has no record from the "
                                          + "empty board: save its position string)";
    $("position-text").value = saved.position || "(no position before the komi is chosen)";
    const link = $("download");
    link.href = URL.createObjectURL(new Blob([saved.record || saved.position || ""], {type: "text/plain"}));
    link.download = saved.record ? "catena-game.txt" : "catena-position.txt";
    link.textContent = saved.record ? "download the record" : "download the position string";
    link.hidden = false;
    say("Saved: the record and the position string are below.");
  } catch (error) {
    say(`Refused: ${error.message}`, "error");
  }
}

function setUp() {
  $("board").addEventListener("click", (event) => {
    const cell = event.target.closest("[data-cell]");
    if (cell) play(cell.dataset.cell);
  });
  $("take-button").addEventListener("click", () => play("button"));
  $("undo").addEventListener("click", () => act(() => api("POST", `/api/games/${game.id}/undo`)));
  $("hint").addEventListener("click", showHint);
  $("save").addEventListener("click", save);
  $("komi-form").addEventListener("submit", (event) => {
    event.preventDefault();
    act(() => api("POST", `/api/games/${game.id}/komi`, {komi: $("komi-input").value}));
  });
  for (const id of ["colour-black", "colour-white"]) {
    $(id).addEventListener("click", (event) => act(() => api("POST", `/api/games/${game.id}/colour`,
                                                             {colour: event.target.dataset.colour})));
  }
  $("engine-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const fields = fieldsOf(event.target);
    act(() => api("POST", `/api/games/${game.id}/strength`,
                  {iterations: fields.iterations || null, seconds: fields.seconds || null}),
        () => say("The engine's setting is changed."));
  });
  $("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    startGame(fieldsOf(event.target));
  });
  $("load-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const body = Object.assign(fieldsOf($("engine-form")), {text: $("load-text").value});
    if ($("load-you").value) body.you = $("load-you").value;
    act(() => api("POST", "/api/games/load", body));
  });

  // The address can start a game: /?size=4&komi=0&colour=black (any field of the new-game form,
  // and iterations, seconds, seed); the form shows what it asked for.
  const asked = new URLSearchParams(location.search);
  const fields = {};
  for (const name of NEW_GAME_FIELDS) {
    if (asked.has(name)) fields[name] = asked.get(name);
  }
  for (const [name, value] of Object.entries(fields)) {
    const input = document.querySelector(`[name="${name}"]`);
    if (input) input.value = value;
  }
  startGame(Object.assign(fieldsOf($("new-game")), fields));
}

document.addEventListener("DOMContentLoaded", setUp);
