// The encounter viewer: open a live session or a dropped JSON-lines log; scrub a timeline whose
// states come from the server (state at event N), never from reducers written again here.
// All text from the server goes into the page as text (textContent), never as markup.
import { follow, getJson, postJson, setToken, token } from "./api.js";
import { drawCharts } from "./chart.js";
import { $, logItem, node } from "./dom.js";

const view = { base: null, name: null, version: 0, at: 0, lines: [], timeline: null, stop: null, stateSeq: 0 };

function status(text) { $("status").textContent = text; }

async function loadSessions() {
  const select = $("session-select");
  try {
    const list = await getJson("/sessions");
    select.replaceChildren(...list.sessions.map((s) => { const o = node("option", `${s.name} (${s.version} events)`); o.value = s.name; return o; }));
  } catch (e) { status(String(e.message || e)); }
}

function setVersion(version) {
  view.version = version;
  $("slider").max = String(version);
  $("version").textContent = String(version);
}

async function open(base, name, live) {
  if (view.stop) { view.stop(); view.stop = null; }
  view.base = base;
  view.name = name;
  view.lines = [];
  view.timeline = null;
  $("title").textContent = name;
  const state = await getJson(`${base}/state`);
  setVersion(state.version);
  await refresh();
  await show(state.version);
  if (live) {
    view.stop = follow(`${base}/events`, state.version, onEvent);
    status(`following session ${name} live`);
  } else {
    status(`replay ${name}: ${state.version} events`);
  }
}

let refreshing = null;
function onEvent(id, data, type) {
  if (type !== "message") { if (type === "refused") status(data.message || "refused"); return; }
  if (id <= view.version) return;
  if (!refreshing) view.wasAtEnd = view.at === view.version;
  const wasAtEnd = view.wasAtEnd;
  setVersion(id);
  if (refreshing) clearTimeout(refreshing);
  refreshing = setTimeout(async () => {
    refreshing = null;
    await refresh();
    if (wasAtEnd && $("follow").checked) await show(view.version);
    else renderLog();
  }, 150);
}

async function refresh() {
  const [log, timeline] = await Promise.all([getJson(`${view.base}/log`), getJson(`${view.base}/timeline`)]);
  view.lines = log.lines;
  view.timeline = timeline;
  if (log.version > view.version) setVersion(log.version);
}

async function show(at) {
  const seq = ++view.stateSeq;
  view.at = at;
  $("slider").value = String(at);
  $("position").textContent = String(at);
  const state = await getJson(`${view.base}/state?at=${at}`);
  if (seq !== view.stateSeq) return; // a later scrub won
  renderState(state);
  renderLog();
  drawCharts($("chart"), view.timeline, at);
}

function renderState(view_) {
  const s = view_.state;
  const fight = s.fight || {};
  const parts = [s.title || "", `${view_.ruleset}`, fight.phase || ""];
  if (fight.round) parts.push(`round ${fight.round}`);
  if (fight.result) parts.push(fight.result.winner ? `side ${fight.result.winner} wins` : "draw");
  $("fight").textContent = parts.filter(Boolean).join(" · ");
  const combatants = s.combatants || [];
  const byId = Object.fromEntries(combatants.map((c) => [c.id, c]));
  const order = (fight.order && fight.order.length ? fight.order : combatants.map((c) => c.id));
  const fighters = Object.fromEntries((fight.fighters || []).map((f) => [f.id, f]));
  $("tracker").replaceChildren(...order.map((id) => {
    const c = byId[id] || {};
    const initiative = (fighters[id] || {}).initiative;
    // ua2: the initiative value; ua3 (U-22): the declared action and the rating that ordered it
    const declared = c.declared;
    const init = initiative && initiative.value !== undefined ? ` (${initiative.value})`
      : declared ? ` (${declared.action.replace("_", " ")}${declared.targets && declared.targets.length ? " → " + declared.targets.join(", ") : ""}${declared.rating ? " " + declared.rating : ""})` : "";
    const li = node("li", `${id}${init}`);
    li.dataset.id = id;
    if (id === view_.turn) li.classList.add("now");
    if (c.status && c.status !== "active") li.classList.add("out");
    return li;
  }));
  const rows = combatants.map((c) => {
    const tr = document.createElement("tr");
    tr.dataset.id = c.id;
    const gauges = [];
    const point = view.timeline && view.timeline.points ? view.timeline.points.find((p) => p.position === view_.at) : null;
    const charted = point ? point.combatants.find((x) => x.id === c.id) : null;
    const maxWounds = c.max_wounds ?? c.wound_threshold ?? (charted ? charted.max_wounds : "");
    if (view_.ruleset === "ua3" && c.gauges) {
      // U-23: each shock gauge as hardened/failed notches
      for (const [name, g] of Object.entries(c.gauges)) gauges.push(`${name} ${g.hardened}/${g.failed}`);
    } else for (const key of ["meters", "shock", "gauges"]) {
      const g = c[key];
      if (g && typeof g === "object") for (const [name, v] of Object.entries(g)) {
        if (v && typeof v === "object") { const nums = Object.entries(v).filter(([, x]) => typeof x === "number" && x); if (nums.length) gauges.push(`${name} ${nums.map(([k, x]) => `${k} ${x}`).join("/")}`); }
        else if (typeof v === "number" && v) gauges.push(`${name} ${v}`);
      }
    }
    const cells = [c.id, c.side, `${c.wounds ?? ""}/${maxWounds ?? ""}`, c.status + (c.reaction ? `, ${c.reaction.kind}` : ""), gauges.join("; ")];
    tr.append(...cells.map((t) => node("td", String(t ?? ""))));
    tr.children[2].className = "wounds";
    tr.children[3].className = "status";
    // U-2 (ua3): the wound level the server's state names, in words, where the status does not say it
    if (c.wound_level && c.wound_level !== c.status) tr.children[3].append(" · ", node("span", c.wound_level, "level"));
    return tr;
  });
  $("combatants").tBodies[0].replaceChildren(...rows);
  renderConflicts(s);
}

// U-16 (ua3): each conflict on the gridiron as the server's state has it: the spaces in the
// order it gives, the token's, the two sides and their stakes, whose roll is next or who won.
function renderConflicts(s) {
  const conflicts = s.conflicts || [];
  const coercions = s.coercions || [];
  $("conflicts-panel").hidden = !conflicts.length && !coercions.length;
  const items = conflicts.map((k) => {
    const box = node("div", undefined, "conflict");
    box.dataset.id = k.id;
    if (k.result) box.classList.add("over");
    box.append(node("h3", `conflict ${k.id}${k.about ? `: ${k.about}` : ""}`));
    const [a, b] = k.sides;
    const track = node("ol", undefined, "gridiron");
    for (const space of k.spaces || []) {
      const cell = node("li", space.name);
      cell.dataset.space = space.space;
      if (space.space === k.token) { cell.classList.add("token"); cell.setAttribute("aria-current", "true"); }
      track.append(cell);
    }
    box.append(sideLine(a), track, sideLine(b));
    const length = k.compressed ? `compressed, ${k.exchanges} exchanges each` : "open-ended";
    let now;
    if (k.result) {
      const winner = k.result.winner ? k.sides.find((x) => x.key === k.result.winner) : null;
      now = winner ? `over: side ${winner.key.toUpperCase()} (${winner.name}) wins` : "over: neither side wins";
      if (k.result.reason) now += ` (${k.result.reason})`;
    } else {
      const next = k.sides.find((x) => x.key === k.to_roll);
      now = next ? `side ${next.key.toUpperCase()} (${next.name}) to roll` : "";
    }
    box.append(node("p", [now, length].filter(Boolean).join(" · "), "conflict-now"));
    return box;
  });
  const waiting = coercions.map((x) => node("p", `${x.coercer} coerces ${x.target}${x.threat ? ` (${x.threat})` : ""}: ${x.target} acquiesces or takes a ${x.gauge} ${x.rank} stress check`, "coercion"));
  $("conflicts").replaceChildren(...items, ...waiting);
}

function sideLine(side) {
  const rolls = side.actor ? `${side.actor} rolls ${side.roll || ""}`.trim() : `rating ${side.rating}`;
  const line = node("p", `${side.key.toUpperCase()}: ${side.name}, for ${side.stake} (${rolls}; ${side.rolls} rolled)`, "side");
  line.dataset.side = side.key;
  return line;
}

function renderLog() {
  const items = view.lines.filter((l) => l.type !== "command_recorded").map((l) => {
    const li = logItem(l);
    if (l.position > view.at) li.classList.add("future");
    li.addEventListener("click", () => { if (l.position < view.version) $("follow").checked = false; show(l.position); });
    return li;
  });
  $("log").replaceChildren(...items);
  const current = [...$("log").children].filter((li) => Number(li.dataset.position) <= view.at).pop();
  if (current) { current.classList.add("current"); current.scrollIntoView({ block: "nearest" }); }
}

async function openFile(file) {
  try {
    const text = await file.text();
    const made = await postJson("/replays", { log: text });
    await open(`/replays/${encodeURIComponent(made.session)}`, file.name, false);
  } catch (e) { status(`could not open ${file.name}: ${e.message || e}`); }
}

let scrubbing = null;
function wire() {
  $("open-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = $("session-select").value;
    if (name) open(`/sessions/${encodeURIComponent(name)}`, name, true).catch((err) => status(String(err.message || err)));
  });
  $("slider").addEventListener("input", () => {
    const at = Number($("slider").value);
    if (at < view.version) $("follow").checked = false;  // looking back: stay there as events arrive
    $("position").textContent = String(at);
    if (scrubbing) clearTimeout(scrubbing);
    scrubbing = setTimeout(() => show(at), 60);
  });
  $("file-input").addEventListener("change", () => { const f = $("file-input").files[0]; if (f) openFile(f); });
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); const f = e.dataTransfer.files[0]; if (f) openFile(f); });
  $("token").addEventListener("change", () => { setToken($("token").value); loadSessions(); });
}

async function start() {
  wire();
  const health = await (await fetch("/health", { headers: token() ? { Authorization: `Bearer ${token()}` } : {} })).json().catch(() => ({}));
  if (health.auth || health.error === "unauthorized") $("token-label").hidden = false;
  await loadSessions();
  const wanted = new URLSearchParams(location.search).get("session");
  if (wanted) {
    $("session-select").value = wanted;
    await open(`/sessions/${encodeURIComponent(wanted)}`, wanted, true).catch((err) => status(String(err.message || err)));
  }
  document.body.dataset.ready = "1";
}

start();
