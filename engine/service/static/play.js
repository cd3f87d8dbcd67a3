// The player page (/play/NAME#TOKEN): the player's characters, whose turn it is, their open
// requests (rule, target, exact odds; dice or "roll for me"; choices as buttons), declarations
// for the round, their turn's action, a passion on a failed roll (C-10); live over SSE. The
// token comes from the link's fragment and goes out only as a bearer header.
import { follow, getJson, getOptional, postJson, sessionOfPath, tokenFromFragment } from "./api.js";
import { declareForm, passionButtons, turnForm } from "./actions.js";
import { $, MARKERS, debounced, logItem, say } from "./dom.js";
import { requestCard } from "./requests.js";
import { characterCard, fightLine } from "./sheet.js";

const name = sessionOfPath();
const base = `/sessions/${encodeURIComponent(name)}`;
const page = { me: null, view: null, passions: {}, requests: null, version: 0, drawn: "" };

async function send(command) {
  try {
    const done = await postJson(`${base}/commands`, { command });
    if (done.status === 202) { say("waiting on the dice or choices asked below"); await loadRequests(); }
    else say(lastLine(done.events) || "done");
  } catch (e) { say(String(e.message || e), true); }
}

async function answer(id, body) {
  try {
    const done = await postJson(`${base}/requests/${encodeURIComponent(id)}`, body);
    say(done.status === 202 ? "answered; more is asked below" : lastLine(done.events) || "answered");
    await loadRequests();
  } catch (e) { say(String(e.message || e), true); }
}

async function spend(body) {
  try {
    const done = await postJson(`${base}/passions`, body);
    say(lastLine(done.events) || `${body.passion} spent`);
  } catch (e) { say(String(e.message || e), true); }
}

function lastLine(events) {
  const lines = (events || []).filter((e) => e.type !== "command_recorded" && e.explanation);
  return lines.length ? lines[lines.length - 1].explanation : "";
}

async function loadRequests() {
  const listed = await getOptional(`${base}/requests`);
  page.requests = listed ? listed.requests.filter((r) => page.me.characters.includes(r.character)) : null;
  renderRequests();
}

function renderRequests() {
  const open = page.requests || [];
  $("requests-panel").hidden = !open.length;
  $("requests").replaceChildren(...open.map((r) => requestCard(r, answer)));
}

// The state, passions left (and the log, when it is new or something in it was struck out).
async function load(first = Promise.all([getJson(`${base}/state`), page.log ? null : getJson(`${base}/log`)])) {
  const [view, log] = await first;
  if (log) page.log = log;
  const mine = page.me.characters;
  const passions = await Promise.all(mine.map((who) => getJson(`${base}/passions/${encodeURIComponent(who)}`)));
  page.view = view;
  page.version = view.version;
  if (log) page.shown = Math.max(page.shown || 0, log.version);
  page.passions = Object.fromEntries(mine.map((who, i) => [who, passions[i]]));
  render(view, log);
}

function render(view, log) {
  const me = page.me;
  $("fight").textContent = fightLine(view);
  const fight = view.state.fight || {};
  const fighters = Object.fromEntries((fight.fighters || []).map((f) => [f.id, f]));
  const byId = Object.fromEntries(view.state.combatants.map((c) => [c.id, c]));
  const mine = me.characters.filter((id) => byId[id]);
  $("characters").replaceChildren(...mine.map((id) => characterCard(byId[id], {
    ruleset: view.ruleset, words: me.words, fighter: fighters[id], passions: page.passions[id], turn: view.turn,
  })));
  // the round's declarations (U-22, C2-4), this character's action on its turn, a passion
  const moves = [];
  for (const id of mine) {
    const c = byId[id];
    if (c.status !== "active") continue;
    if (fight.phase === "declare" && !(view.ruleset === "ua3" && c.declared)) moves.push(declareForm(view, id, send));
    if (view.turn === id) moves.push(turnForm(view, id, send));
    const passion = passionButtons(id, page.passions[id], spend);
    if (passion) moves.push(passion);
  }
  // a re-render would drop half-picked dice: redraw the moves only when what they offer changed
  const offered = JSON.stringify([fight.phase, fight.round, view.turn, mine.map((id) => [byId[id].status, byId[id].declared]), mine.map((id) => page.passions[id])]);
  if (offered !== page.drawn) {
    page.drawn = offered;
    $("act").replaceChildren(...moves);
  }
  $("act-panel").hidden = !moves.length;
  // the newest first: on a phone what just happened is at the top
  if (log) $("log").replaceChildren(...log.lines.filter((l) => l.type !== "command_recorded").slice(-LATEST).reverse().map(logItem));
}

const LATEST = 12;

// A new event shows at once (the stream carries its explanation); the state follows in one reload.
function onEvent(id, data, type) {
  if (type === "request") { loadRequests().catch((e) => say(String(e.message || e), true)); return; }
  if (type === "refused") { say(`this link no longer works: ${data.message}`, true); return; }
  if (id <= page.shown) return;
  page.shown = id;
  if (MARKERS.has(data.type)) page.log = null;  // strikes: read the log again
  else if (data.type !== "command_recorded") {
    $("log").prepend(logItem(data));
    while ($("log").children.length > LATEST) $("log").lastElementChild.remove();
  }
  refresh();
}

const refresh = debounced(() => load().catch((e) => say(String(e.message || e), true)), 60);

async function start() {
  tokenFromFragment();
  const first = Promise.all([getJson(`${base}/state`), getJson(`${base}/log`)]);
  first.catch(() => {});  // a refused token is said once, below
  try {
    page.me = await getJson(`${base}/me`);
  } catch (e) {
    $("who").textContent = "This link does not open a session";
    say(String(e.message || e), true);
    document.body.dataset.ready = "1";
    return;
  }
  const me = page.me;
  $("who").textContent = me.role === "viewer" ? `${me.name} watches ${name}` : `${me.name} plays ${me.characters.join(", ")}`;
  await Promise.all([load(first), loadRequests()]);
  follow(`${base}/events`, page.version, onEvent);
  document.body.dataset.ready = "1";
  document.body.dataset.interactive = String(Math.round(performance.now()));
}

start().catch((e) => say(String(e.message || e), true));
