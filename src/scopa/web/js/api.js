// The server's HTTP API (docs/server-protocol.md). Errors throw with the server's message.

async function request(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const detail = Array.isArray(data.detail)
      ? data.detail.map((d) => d.msg).join("; ")
      : data.detail || res.statusText;
    const err = new Error(detail);
    err.status = res.status;
    throw err;
  }
  return data;
}

export const api = {
  meta: () => request("GET", "/api/meta"),
  tables: () => request("GET", "/api/tables"),
  table: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`),
  createTable: (body) => request("POST", "/api/tables", body),
  invite: (code) => request("GET", `/api/invites/${encodeURIComponent(code)}`),
  join: (code, body) => request("POST", `/api/invites/${encodeURIComponent(code)}/join`, body),
  matches: () => request("GET", "/api/matches?limit=20"),
  match: (id) => request("GET", `/api/matches/${encodeURIComponent(id)}`),
  verify: (url) => request("GET", url),
};
