// The installed app's service worker (served at /sw.js, docs/install.md): the page's own
// files kept for a fast start, a clear offline page when the network is gone, and one
// version at a time. The server writes BUILD (a hash of every file here) and FILES (their
// paths) into this file as it serves it: a new version of the site is a new worker, which
// fetches the new files meanwhile and takes over at the next start, never a page of old
// and new files mixed.
const BUILD = "__SCOPA_BUILD__";
const FILES = __SCOPA_FILES__;
const CACHE = `scopa-${BUILD}`;
const OFFLINE = "/static/offline.html";
// paths the server answers with the page itself (the rest are the API, files, documents),
// written in by the server from its own list of them
const PAGES = __SCOPA_PAGES__.map((source) => new RegExp(source));

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(["/", ...FILES])));
});

self.addEventListener("activate", (event) => {
  // the old versions' files go; on a first visit this worker serves the page at once
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("scopa-") && k !== CACHE)
      .map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

async function offline() {
  const page = await caches.match(OFFLINE, { cacheName: CACHE });
  return page || new Response("You are offline · Sei offline", {
    status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

async function page() {
  if (self.navigator.onLine === false) return offline();
  const kept = await caches.match("/", { cacheName: CACHE });
  if (kept) return kept;
  try {
    return await fetch("/");
  } catch {
    return offline();
  }
}

async function file(request) {
  const kept = await caches.match(request, { cacheName: CACHE });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) {
    const copy = response.clone();
    caches.open(CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    if (PAGES.some((re) => re.test(url.pathname))) event.respondWith(page());
    return;
  }
  if (url.pathname.startsWith("/static/")) event.respondWith(file(request));
});
