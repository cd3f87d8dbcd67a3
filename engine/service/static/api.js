// The HTTP API, as the viewer uses it: JSON over fetch, with the bearer token when there is one.
const tokenKey = "ua-token";

export function token() { return sessionStorage.getItem(tokenKey) || ""; }
export function setToken(value) { sessionStorage.setItem(tokenKey, value); }

// An invite link carries its token in the fragment (never sent to a server, never in a log):
// keep it for this tab and take it out of the address bar.
export function tokenFromFragment() {
  const given = decodeURIComponent(location.hash.slice(1));
  if (given) {
    setToken(given);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return token();
}

// The session a page is for: the last part of its path (/gm/NAME, /play/NAME).
export function sessionOfPath() {
  return decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
}

function headers(extra = {}) {
  const h = { ...extra };
  if (token()) h.Authorization = `Bearer ${token()}`;
  return h;
}

export async function getJson(path) {
  const r = await fetch(path, { headers: headers() });
  const body = await r.json();
  if (!r.ok) throw new Error(`${body.message}${body.hint ? ` (${body.hint})` : ""}`);
  return body;
}

export async function postJson(path, value, method = "POST") {
  const r = await fetch(path, {
    method,
    headers: headers(value === undefined ? {} : { "Content-Type": "application/json" }),
    body: value === undefined ? undefined : JSON.stringify(value),
  });
  const body = await r.json();
  if (!r.ok) throw new Error(`${body.where ? body.where + ": " : ""}${body.message}${body.hint ? ` (${body.hint})` : ""}`);
  return { status: r.status, ...body };
}

export async function getText(path) {
  const r = await fetch(path, { headers: headers() });
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
  return r.text();
}

// A GET that says "absent" (null) for a 404 rather than failing: for what a server may not have yet.
export async function getOptional(path) {
  const r = await fetch(path, { headers: headers() });
  if (r.status === 404 || r.status === 405) return null;
  const body = await r.json();
  if (!r.ok) throw new Error(`${body.message}${body.hint ? ` (${body.hint})` : ""}`);
  return body;
}

// Server-Sent Events read over fetch (so that the token can go in a header), resumed after
// the last log position seen when the connection drops. `onEvent(id, data, type)`: a log event
// (type "message"), or another type (a `request` event: its id is never a log position).
// Returns a stop function.
export function follow(path, after, onEvent) {
  let last = after;
  let stopped = false;
  let controller = null;
  async function run() {
    while (!stopped) {
      controller = new AbortController();
      try {
        const r = await fetch(`${path}?after=${last}`, {
          headers: headers({ Accept: "text/event-stream", "Last-Event-ID": String(last) }),
          signal: controller.signal,
        });
        if (r.status === 401 || r.status === 403) {  // revoked, or never allowed: retrying cannot help
          stopped = true;
          onEvent(null, await r.json(), "refused");
          return;
        }
        const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0 || (cut = buffer.indexOf("\r\n\r\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + (buffer.startsWith("\r\n", cut) ? 4 : 2));
            let id = null;
            let type = "message";
            const data = [];
            for (const line of block.split(/\r?\n/)) {
              if (line.startsWith("id:")) id = line.slice(3).trim();
              else if (line.startsWith("event:")) type = line.slice(6).trim();
              else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
            }
            if (!data.length) continue;
            if (type === "event") type = "message";  // a log event (the server names them so)
            if (type === "message" && id !== null) {
              last = Number(id);
              onEvent(last, JSON.parse(data.join("\n")), type);
            } else if (type !== "message") onEvent(id, JSON.parse(data.join("\n")), type);
          }
        }
      } catch (e) {
        if (stopped) return;
      }
      if (!stopped) await new Promise((done) => setTimeout(done, 1000));
    }
  }
  run();
  return () => { stopped = true; if (controller) controller.abort(); };
}
