// Estoc: registers the service worker (calculator/pwa.py, /sw.js) once the page has loaded.
// It precaches the static files and shows a French page when the server cannot be reached.
(function () {
  "use strict";
  var script = document.currentScript;
  var url = script && script.getAttribute("data-worker");
  var scope = (script && script.getAttribute("data-scope")) || "/";
  if (!url || !("serviceWorker" in navigator) || !window.isSecureContext) {
    return;
  }
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url, { scope: scope }).catch(function () {
      // no worker (private browsing, blocked storage): the site works as before
    });
  });
})();
