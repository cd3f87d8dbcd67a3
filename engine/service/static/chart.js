// Small line charts drawn as SVG: wounds and the other gauges of each combatant over the log.
const NS = "http://www.w3.org/2000/svg";
const COLOURS = ["#d62828", "#1d3557", "#2a9d8f", "#e9c46a", "#6a4c93", "#f4a261", "#457b9d", "#8d99ae"];

function el(name, attrs = {}) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

// series: [{label, values: [number per point]}]; positions: the x of each point.
function lineChart(title, positions, series, cursor) {
  const width = 640, left = 34, right = 150, top = 14, bottom = 16;
  const height = Math.max(120, top + bottom + 12 + series.length * 11);
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, role: "img" });
  svg.dataset.chart = title;
  const caption = el("text", { x: left, y: 10 });
  caption.textContent = title;
  svg.append(caption);
  const xs = positions.length ? positions[positions.length - 1] || 1 : 1;
  let ymax = 1;
  for (const s of series) for (const v of s.values) ymax = Math.max(ymax, v);
  const x = (p) => left + ((width - left - right) * p) / xs;
  const y = (v) => height - bottom - ((height - top - bottom) * v) / ymax;
  svg.append(el("line", { x1: left, y1: y(0), x2: width - right, y2: y(0), stroke: "#ccc" }));
  const axis = el("text", { x: 2, y: y(ymax) + 4 });
  axis.textContent = String(ymax);
  svg.append(axis);
  series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const points = s.values.map((v, k) => `${x(positions[k]).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const line = el("polyline", { points, fill: "none", stroke: colour, "stroke-width": 1.5 });
    line.dataset.series = s.label;
    line.dataset.values = s.values.join(",");
    svg.append(line);
    const label = el("text", { x: width - right + 4, y: top + 10 + i * 11, fill: colour });
    label.textContent = s.label;
    svg.append(label);
  });
  svg.append(el("line", { class: "cursor", x1: x(cursor), x2: x(cursor), y1: top, y2: height - bottom }));
  return svg;
}

export function drawCharts(container, timeline, cursor) {
  container.replaceChildren();
  if (!timeline || !timeline.points.length) return;
  const points = timeline.points;
  const positions = points.map((p) => p.position);
  const ids = [];
  for (const p of points) for (const c of p.combatants) if (!ids.includes(c.id)) ids.push(c.id);
  const at = (p, id) => p.combatants.find((c) => c.id === id);
  const wounds = ids.map((id) => ({ label: id, values: points.map((p) => (at(p, id) || {}).wounds || 0) }));
  const words = timeline.words || {};  // the ruleset's own words for what is charted
  container.append(lineChart(words.wounds || "wounds", positions, wounds, cursor));
  if (timeline.ruleset === "ua3") { shockCharts(container, points, positions, ids, at, cursor, words); return; }
  // the ruleset's other gauges (ua2's meters), summed per combatant
  const gauges = new Set();
  for (const p of points) for (const c of p.combatants) for (const k of Object.keys(c.gauges)) gauges.add(k.split(".").slice(0, 2).join("."));
  const groups = [...gauges].filter((g) => points.some((p) => p.combatants.some((c) => sumOf(c, g) > 0)));
  if (groups.length) {
    const series = [];
    for (const id of ids) {
      const values = points.map((p) => { const c = at(p, id); return c ? groups.reduce((t, g) => t + sumOf(c, g), 0) : 0; });
      if (values.some((v) => v > 0)) series.push({ label: id, values });
    }
    const title = `${words.mind || "gauges"} notches`;
    container.append(lineChart(title, positions, series, cursor));
  }
}

function sumOf(combatant, group) {
  let total = 0;
  for (const [k, v] of Object.entries(combatant.gauges)) if (k === group || k.startsWith(group + ".")) total += v;
  return total;
}

// ua3 (U-23): one chart per character, a line for each shock gauge's hardened and failed notches
// (every gauge that has a notch somewhere in the log).
function shockCharts(container, points, positions, ids, at, cursor, words) {
  for (const id of ids) {
    const keys = [];
    for (const p of points) {
      const c = at(p, id);
      if (c) for (const k of Object.keys(c.gauges)) if (k.startsWith("gauges.") && !keys.includes(k)) keys.push(k);
    }
    const series = keys
      .map((k) => ({ key: k, label: k.slice("gauges.".length).replace(".hardened", " hardened").replace(".failed", " failed"),
        values: points.map((p) => (at(p, id) || { gauges: {} }).gauges[k] || 0) }))
      .filter((s) => s.values.some((v) => v > 0));
    if (!series.length) continue;
    const svg = lineChart(`${id}: ${words.mind || "gauges"}`, positions, series, cursor);
    svg.dataset.character = id;
    container.append(svg);
  }
}
