// The GM console (/gm/NAME): the tracker, every character, the open requests (who is being
// waited on; answered here for an absent player), the NPCs' turns, any action for anyone, undo,
// redo, amend from the log, rulings, invites. Keys for the common steps (see the header).
import { follow, getJson, getOptional, getText, postJson, sessionOfPath, setToken, token, tokenFromFragment } from "./api.js";
import { declareForm, turnForm } from "./actions.js";
import { $, MARKERS, button, debounced, logItem, node, say } from "./dom.js";
import { requestCard } from "./requests.js";
import { characterCard, fightLine } from "./sheet.js";

const name = sessionOfPath();
const base = `/sessions/${encodeURIComponent(name)}`;
const gm = { me: null, view: null, version: 0, requests: null, stop: null, drawn: "" };

function lastLine(events) {
  const lines = (events || []).filter((e) => e.type !== "command_recorded" && e.explanation);
  return lines.length ? lines[lines.length - 1].explanation : "";
}

async function post(path, body, done = "done") {
  try {
    const result = await postJson(`${base}${path}`, body);
    if (result.status === 202) say("waiting: see the open requests");
    else say(lastLine(result.events || (result.turns || []).flatMap((t) => t.events || [])) || done);
    if (result.status === 202) await loadRequests();
    return result;
  } catch (e) { say(String(e.message || e), true); return null; }
}

const send = (command) => post("/commands", { command });
const answer = (id, body) => post(`/requests/${encodeURIComponent(id)}`, body, "answered").then(loadRequests);

const actions = {
  begin: () => send({ command: gm.view && gm.view.ruleset === "ua3" ? "ua3_begin_fight" : "begin_fight" }),
  close: () => send(gm.view && gm.view.ruleset === "ua3" ? { command: "ua3_declare", declarations: [], close: true } : { command: "declare", declarations: [] }),
  npc: () => post("/npc", { all: true }, "the NPCs acted"),
  undo: () => post("/undo", undefined, "undone"),
  redo: () => post("/redo", undefined, "redone"),
};

async function loadRequests() {
  const listed = await getOptional(`${base}/requests`);
  gm.requests = listed ? listed.requests : null;
  $("requests-note").textContent = listed === null ? "this server does not ask for requests yet" : listed.requests.length ? "" : "no one is being waited on";
  $("requests").replaceChildren(...(gm.requests || []).map((r) => requestCard(r, answer, { forAbsent: true })));
}

async function loadParticipants() {
  const listed = await getJson(`${base}/participants`);
  $("participants").replaceChildren(...listed.participants.map((p) => {
    const li = node("li", `${p.id} ${p.role} ${p.name}${p.characters.length ? " plays " + p.characters.join(", ") : ""} [${p.status}] `);
    li.dataset.id = p.id;
    if (p.status === "invited") li.append(button("Revoke", async () => {
      try { await postJson(`${base}/participants/${encodeURIComponent(p.id)}`, undefined, "DELETE"); say(`${p.name}'s link no longer works`); }
      catch (e) { say(String(e.message || e), true); }
      loadParticipants();
    }, "revoke"));
    return li;
  }));
}

async function invite(body) {
  try {
    const made = await postJson(`${base}/participants`, body);
    const link = $("invite-link");
    link.hidden = false;
    link.value = made.link;
    link.select();
    say(`invite for ${made.participant.name}: give them the link (shown once)`);
    await loadParticipants();
  } catch (e) { say(String(e.message || e), true); }
}

// The state (and the log, when it is new or something in it was struck out) from the server.
async function load(first = Promise.all([getJson(`${base}/state`), gm.log ? null : getJson(`${base}/log`)])) {
  const [view, log] = await first;
  gm.view = view;
  gm.version = view.version;
  if (log) { gm.log = log; gm.shown = Math.max(gm.shown || 0, log.version); }
  render(view, log);
}

function render(view, log) {
  $("fight").textContent = fightLine(view);
  const s = view.state;
  const fight = s.fight || {};
  const byId = Object.fromEntries(s.combatants.map((c) => [c.id, c]));
  const fighters = Object.fromEntries((fight.fighters || []).map((f) => [f.id, f]));
  const order = fight.order && fight.order.length ? fight.order : s.combatants.map((c) => c.id);
  $("tracker").replaceChildren(...order.map((id) => {
    const li = node("li", id);
    li.dataset.id = id;
    if (id === view.turn) li.classList.add("now");
    if (byId[id] && byId[id].status !== "active") li.classList.add("out");
    return li;
  }));
  const played = gm.me.played || {};
  $("characters").replaceChildren(...s.combatants.map((c) => characterCard(c, {
    ruleset: view.ruleset, words: gm.me.words, fighter: fighters[c.id], player: played[c.id], turn: view.turn,
  })));
  const actor = $("actor");
  const chosen = actor.value;
  actor.replaceChildren(...s.combatants.map((c) => { const o = node("option", `${c.id}${played[c.id] ? ` (${played[c.id]})` : " (NPC)"}`); o.value = c.id; return o; }));
  actor.value = byId[chosen] && chosen !== gm.lastTurn ? chosen : view.turn || chosen || (s.combatants[0] || {}).id || "";
  gm.lastTurn = view.turn;
  renderAct();
  const boxes = $("invite-characters");
  if (boxes.children.length !== s.combatants.length) boxes.replaceChildren(...s.combatants.map((c) => {
    const box = node("input");
    box.type = "checkbox";
    box.value = c.id;
    const l = node("label", c.id);
    l.prepend(box);
    return l;
  }));
  if (log) {
    $("log").replaceChildren(...log.lines.map((l) => logLine(l)));
    $("log").scrollTop = $("log").scrollHeight;  // the log's own end, never the page's scroll
  }
}

function renderAct() {
  const view = gm.view;
  const who = $("actor").value;
  const c = view.state.combatants.find((x) => x.id === who);
  const offered = JSON.stringify([who, view.version]);
  if (!c || offered === gm.drawn) return;
  gm.drawn = offered;
  const forms = [];
  if ((view.state.fight || {}).phase === "declare") forms.push(declareForm(view, who, send));
  if (view.turn === who) forms.push(turnForm(view, who, send));
  if (!forms.length) forms.push(node("p", `${who} does not act now; any command for them goes in the command box`));
  $("act").replaceChildren(...forms);
}

// A log line; a command's line can be amended (its command, corrected, goes in the box).
function logLine(l) {
  const li = logItem(l);
  if (l.type === "command_recorded" && !l.struck && l.command) li.append(button("amend", () => amendFrom(l.command), "amend"));
  return li;
}

// The command as it was issued (from the exported log) into the box, to correct and send as an amend.
async function amendFrom(number) {
  try {
    const lines = (await getText(`${base}/export`)).split("\n").filter(Boolean).map((x) => JSON.parse(x));
    const found = lines.find((x) => x.data && x.data.type === "command_recorded" && x.data.id === number);
    if (!found) { say(`command ${number} is not in the log`, true); return; }
    $("command").value = JSON.stringify(found.data.issued, null, 1);
    $("amend").value = String(number);
    $("command").focus();
    say(`correct command ${number}, then send it: what followed re-resolves with its dice`);
  } catch (e) { say(String(e.message || e), true); }
}

function wire() {
  for (const [id, run] of Object.entries(actions)) $(id).addEventListener("click", run);
  $("actor").addEventListener("change", () => { gm.drawn = ""; renderAct(); });
  $("command-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    let command;
    try { command = JSON.parse($("command").value); } catch (err) { say(`the command is not JSON: ${err.message}`, true); return; }
    const number = Number($("amend").value);
    const done = number ? await post("/amend", { number, command }, `command ${number} amended`) : await send(command);
    if (done) { $("amend").value = ""; }
  });
  $("ruling-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const note = $("ruling").value.trim();
    if (note) send({ command: "ruling", note }).then((done) => { if (done) $("ruling").value = ""; });
  });
  $("invite-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const characters = [...$("invite-characters").querySelectorAll("input:checked")].map((b) => b.value);
    const body = { characters };
    if ($("invite-name").value.trim()) body.player = $("invite-name").value.trim();
    invite(body);
  });
  $("invite-viewer").addEventListener("click", () => invite({ viewer: true }));
  $("token").addEventListener("change", () => { setToken($("token").value); start(); });
  document.addEventListener("keydown", (e) => {
    const typing = e.target.closest("input, textarea, select");
    if (typing && e.key === "Escape") { typing.blur(); return; }  // out of a field: the keys work again
    if (e.ctrlKey || e.metaKey || e.altKey || typing) return;
    const keys = { n: actions.npc, c: actions.close, b: actions.begin, u: actions.undo, r: actions.redo };
    if (e.key === "/") { e.preventDefault(); $("command").focus(); return; }
    const run = keys[e.key];
    if (run) { e.preventDefault(); run(); }
  });
}

// A new event shows in the log at once (the stream carries its explanation); the state, and the
// log's strikes after an undo or amend, follow a moment later in one reload for a burst of events.
function onEvent(id, data, type) {
  if (type === "request") { loadRequests().catch((e) => say(String(e.message || e), true)); return; }
  if (type === "refused") { say(data.message || "refused", true); return; }
  if (id <= gm.shown) return;
  gm.shown = id;
  if (MARKERS.has(data.type)) gm.log = null;  // strikes: read the whole log again
  $("log").append(logLine(data));
  $("log").scrollTop = $("log").scrollHeight;
  refresh();
}

const refresh = debounced(() => load().catch((e) => say(String(e.message || e), true)), 60);

async function start() {
  if (gm.stop) { gm.stop(); gm.stop = null; }
  // everything the console shows at once, asked together
  const first = Promise.all([getJson(`${base}/state`), getJson(`${base}/log`)]);
  first.catch(() => {});  // a refused token is said once, below
  try {
    gm.me = await getJson(`${base}/me`);
  } catch (e) {
    $("token-label").hidden = false;
    say(`${e.message || e}${token() ? "" : " — give the GM token"}`, true);
    document.body.dataset.ready = "1";
    return;
  }
  if (gm.me.role !== "gm") { say("this is the GM's console: a player's link opens /play", true); document.body.dataset.ready = "1"; return; }
  $("title").textContent = `GM console · ${name}`;
  await Promise.all([load(first), loadRequests(), loadParticipants()]);
  gm.stop = follow(`${base}/events`, gm.version, onEvent);
  document.body.dataset.ready = "1";
  document.body.dataset.interactive = String(Math.round(performance.now()));
}

tokenFromFragment();
wire();
start().catch((e) => say(String(e.message || e), true));
