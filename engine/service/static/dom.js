// Small DOM helpers the pages share. Every text from the server goes in as text (textContent),
// never as markup.
export const $ = (id) => document.getElementById(id);

export function node(tag, text, cls) {
  const n = document.createElement(tag);
  if (text !== undefined) n.textContent = text;
  if (cls) n.className = cls;
  return n;
}

export function button(text, onClick, cls) {
  const b = node("button", text, cls);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

export function select(options, value) {
  const s = document.createElement("select");
  for (const [v, label] of options) {
    const o = node("option", label);
    o.value = v;
    s.append(o);
  }
  if (value !== undefined) s.value = value;
  return s;
}

export function labelled(text, control) {
  const l = node("label", text + " ");
  l.append(control);
  return l;
}

// The status line of a page: what just happened, or what went wrong (one line).
export function say(text, bad = false) {
  const s = $("status");
  if (!s) return;
  s.textContent = text;
  s.classList.toggle("bad", bad);
}

// Runs `fn` at most once per `ms`, after the last call (live updates arrive in bursts).
export function debounced(fn, ms) {
  let timer = null;
  return () => { if (timer) clearTimeout(timer); timer = setTimeout(() => { timer = null; fn(); }, ms); };
}

// The events that strike out earlier ones (undo, redo, amend): the log is read again after them.
export const MARKERS = new Set(["command_undone", "command_redone", "command_amended"]);

// One line of a narrated log (the server's EventView): its explanation with rule ids, the exact
// odds of its checks, struck through with what did it when undone or superseded.
export function logItem(l) {
  const li = node("li");
  li.value = l.position;
  li.dataset.position = String(l.position);
  li.append(node("span", l.explanation, "text"));
  if (l.odds) li.append(node("span", `(${l.odds})`, "odds"));
  if (l.struck) { li.classList.add("struck"); li.append(node("span", `(${l.note})`, "note")); }
  return li;
}
