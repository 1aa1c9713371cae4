// Estoc's service worker (calculator/pwa.py serves it at /sw.js, scope "/").
// - the static files are precached at install, in a cache named after their version;
// - a page is always asked of the network; if the server cannot be reached, the offline page answers;
// - POST requests, the API and other sites are never handled nor cached.
"use strict";
const CONFIG = {{ config|safe }};
const CACHE = "estoc-static-" + CONFIG.version;
const UNREACHABLE = new Set([502, 503, 504]); // a proxy in front of a stopped server

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(CONFIG.precache.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("estoc-") && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
});

function offlinePage() {
  return caches.match(CONFIG.offline, { cacheName: CACHE, ignoreVary: true }).then(
    (page) =>
      page ||
      new Response("<!DOCTYPE html><html lang=\"fr\"><title>Estoc</title><p>Le serveur d'Estoc est injoignable.</p></html>", {
        status: 503,
        headers: { "Content-Type": "text/html; charset=utf-8" },
      })
  );
}

function fromNetwork(request) {
  return fetch(request).then((response) => (UNREACHABLE.has(response.status) ? offlinePage() : response), offlinePage);
}

function staticFile(request) {
  return caches.open(CACHE).then((cache) => {
    const network = () =>
      fetch(request).then((response) => {
        if (response.ok && response.type === "basic") {
          cache.put(request, response.clone());
        }
        return response;
      });
    if (CONFIG.staticFirst === "cache") {
      return cache.match(request, { ignoreVary: true }).then((hit) => hit || network());
    }
    return network().catch(() => cache.match(request, { ignoreVary: true }).then((hit) => hit || Response.error()));
  });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") {
    return; // POST (resolve, share, encounters) goes to the server untouched
  }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith(CONFIG.api)) {
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(fromNetwork(request));
  } else if (url.pathname.startsWith(CONFIG.static)) {
    event.respondWith(staticFile(request));
  }
  // anything else (htmx fragments, downloads) is the browser's own business
});
