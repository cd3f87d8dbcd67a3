// Line charts drawn as SVG, from the server's timeline: wounds of each combatant over the log (in
// the edition's words: ua2's points left, ua3's wounds taken with each one's threshold, U-2),
// then one chart per character with a line for each meter's or gauge's hardened and failed
// notches (M2-*, U-23). Axes: event positions with round starts below, values at the left. A
// series starts when its combatant joins.
const NS = "http://www.w3.org/2000/svg";
// dark enough to read on white (WCAG AA for large text and lines)
const COLOURS = ["#b3001b", "#1d3557", "#1b7a6e", "#8a5a00", "#6a4c93", "#b34700", "#2f5f8a", "#4a4a4a"];
const TEXT = "#333";

function el(name, attrs = {}) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

function text(x, y, value, attrs = {}) {
  const t = el("text", { x, y, fill: TEXT, ...attrs });
  t.textContent = value;
  return t;
}

// Round numbers for a value axis up to `max`: 0, and a few steps of 1, 2 or 5 × 10^k.
function valueTicks(max) {
  const raw = max / 4;
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) || power;
  const ticks = [];
  for (let v = 0; v <= max; v += step) ticks.push(v);
  return ticks;
}

// series: [{label, values (one per point; null before the combatant joins), line (a value to mark)}]
function lineChart(title, axisLabel, points, series, cursor, width) {
  const longest = Math.max(4, ...series.map((s) => s.label.length + (s.line ? 5 : 0)));
  const left = 44, right = Math.min(Math.round(width * 0.42), 12 + 6.4 * longest), top = 18, bottom = 34;
  const height = Math.max(150, top + bottom + 24 + series.length * 12);
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": title });
  svg.dataset.chart = title;
  svg.append(text(left, 12, title, { "font-weight": "bold" }));
  const positions = points.map((p) => p.position);
  const xs = positions.length ? positions[positions.length - 1] || 1 : 1;
  let ymax = 1;
  for (const s of series) {
    for (const v of s.values) if (v !== null) ymax = Math.max(ymax, v);
    if (s.line) ymax = Math.max(ymax, s.line);
  }
  const x = (p) => left + ((width - left - right) * p) / xs;
  const y = (v) => height - bottom - ((height - top - bottom) * v) / ymax;
  const axes = el("g", { class: "axes" });
  axes.append(el("line", { x1: left, y1: y(0), x2: width - right, y2: y(0), stroke: "#666" }));
  axes.append(el("line", { x1: left, y1: y(0), x2: left, y2: top, stroke: "#666" }));
  for (const v of valueTicks(ymax)) {
    axes.append(el("line", { x1: left - 3, x2: left, y1: y(v), y2: y(v), stroke: "#666" }));
    axes.append(text(left - 5, y(v) + 3, String(v), { "text-anchor": "end", class: "tick-value" }));
  }
  const eventStep = valueTicks(xs)[1] || 1;
  for (let p = 0; p <= xs; p += eventStep) {
    axes.append(el("line", { x1: x(p), x2: x(p), y1: y(0), y2: y(0) + 3, stroke: "#666" }));
    axes.append(text(x(p), y(0) + 12, String(p), { "text-anchor": "middle", class: "tick-event" }));
  }
  let round = 0;
  for (const p of points) {
    if (p.round > round) {  // a round starts here
      round = p.round;
      axes.append(el("line", { x1: x(p.position), x2: x(p.position), y1: top, y2: y(0), stroke: "#ddd" }));
      axes.append(text(x(p.position), y(0) + 24, `r${round}`, { "text-anchor": "middle", class: "tick-round" }));
    }
  }
  axes.append(text(left, height - 2, `event (r: round starts) · ${axisLabel}`, { class: "axis-label" }));
  svg.append(axes);
  series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const start = s.values.findIndex((v) => v !== null);
    if (start < 0) return;
    const shown = s.values.slice(start);
    const coords = shown.map((v, k) => `${x(positions[start + k]).toFixed(1)},${y(v ?? 0).toFixed(1)}`).join(" ");
    const line = el("polyline", { points: coords, fill: "none", stroke: colour, "stroke-width": 2 });
    line.dataset.series = s.label;
    line.dataset.start = String(start);
    line.dataset.values = shown.map((v) => v ?? 0).join(",");
    svg.append(line);
    if (s.line) {
      const mark = el("line", { x1: x(positions[start]), x2: width - right, y1: y(s.line), y2: y(s.line), stroke: colour, "stroke-dasharray": "5 3", class: "threshold" });
      mark.dataset.series = s.label;
      mark.dataset.value = String(s.line);
      svg.append(mark);
    }
    svg.append(text(width - right + 6, top + 10 + i * 12, s.label + (s.line ? ` (${s.line})` : ""), { fill: colour }));
  });
  svg.append(el("line", { class: "cursor", x1: x(cursor), x2: x(cursor), y1: top, y2: y(0) }));
  return svg;
}

export function drawCharts(container, timeline, cursor) {
  container.replaceChildren();
  if (!timeline || !timeline.points.length) return;
  const points = timeline.points;
  const ids = [];
  for (const p of points) for (const c of p.combatants) if (!ids.includes(c.id)) ids.push(c.id);
  const at = (p, id) => p.combatants.find((c) => c.id === id);
  const words = timeline.words || {};  // the ruleset's own words for what is charted
  const wounds = ids.map((id) => {
    const values = points.map((p) => { const c = at(p, id); return c ? c.wounds : null; });
    const last = [...points].reverse().map((p) => at(p, id)).find(Boolean);
    return { label: id, values, line: words.wound_line && last ? last.max_wounds : 0 };
  });
  const title = words.wound_line ? `${words.wounds || "wounds"} (dashed: ${words.wound_line})` : words.wounds || "wounds";
  // drawn at the panel's own width, so that its text keeps its size on a phone
  const width = Math.max(320, Math.min(900, container.clientWidth || 640));
  const chart = lineChart(title, words.wounds_axis || "wounds", points, wounds, cursor, width);
  chart.dataset.chart = words.wounds || "wounds";
  container.append(chart);
  notchCharts(container, points, ids, at, cursor, words, width);
}

// One chart per character, a line for each meter's (M2) or gauge's (U-23) hardened and failed
// notches: every one that has a notch somewhere in the log.
function notchCharts(container, points, ids, at, cursor, words, width) {
  for (const id of ids) {
    const keys = [];
    for (const p of points) {
      const c = at(p, id);
      if (c) for (const k of Object.keys(c.gauges)) if (/\.(hardened|failed)$/.test(k) && !keys.includes(k)) keys.push(k);
    }
    const series = keys
      .map((k) => ({ label: k.split(".").slice(1).join(" "),
        values: points.map((p) => { const c = at(p, id); return c ? c.gauges[k] || 0 : null; }) }))
      .filter((s) => s.values.some((v) => v));
    if (!series.length) continue;
    const svg = lineChart(`${id}: ${words.mind || "gauges"}`, "notches", points, series, cursor, width);
    svg.dataset.character = id;
    container.append(svg);
  }
}
