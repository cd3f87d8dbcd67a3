// The HTTP API, as the viewer uses it: JSON over fetch, with the bearer token when there is one.
const tokenKey = "ua-token";

export function token() { return sessionStorage.getItem(tokenKey) || ""; }
export function setToken(value) { sessionStorage.setItem(tokenKey, value); }

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

export async function postJson(path, value) {
  const r = await fetch(path, {
    method: "POST",
    headers: headers({ "Content-Type": "application/json" }),
    body: JSON.stringify(value),
  });
  const body = await r.json();
  if (!r.ok) throw new Error(`${body.where ? body.where + ": " : ""}${body.message}`);
  return body;
}

// Server-Sent Events read over fetch (so that the token can go in a header), resumed after
// the last id seen when the connection drops. `onEvent(id, data)`; returns a stop function.
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
            const data = [];
            for (const line of block.split(/\r?\n/)) {
              if (line.startsWith("id:")) id = Number(line.slice(3).trim());
              else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
            }
            if (id !== null && data.length) {
              last = id;
              onEvent(id, JSON.parse(data.join("\n")));
            }
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
