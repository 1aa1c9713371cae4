// The players' view (issue 16): htmx's SSE extension swaps each pushed state in; this script says
// whether the view is live, and falls back to fetching the state every few seconds where the
// browser has no EventSource. Without JavaScript, its « Actualiser » link reloads it.
(function () {
  "use strict";
  var POLL_MS = 5000;
  var view = document.getElementById("player");
  var status = document.getElementById("live-status");
  if (!view || !status) {
    return;
  }
  function say(text, live) {
    status.textContent = text;
    status.classList.toggle("is-live", Boolean(live));
  }
  if (!("EventSource" in window)) {
    view.removeAttribute("sse-connect");
    say("Mise à jour toutes les 5\u00a0secondes", false);
    var target = document.getElementById("player-state");
    window.setInterval(function () {
      fetch(view.dataset.stateUrl, { credentials: "same-origin" })
        .then(function (response) {
          if (response.status === 404) {
            return Promise.reject(new Error("gone"));
          }
          return response.ok ? response.text() : Promise.reject(new Error(String(response.status)));
        })
        .then(function (html) {
          target.innerHTML = html;
        })
        .catch(function () {
          say("Hors ligne\u202f: nouvel essai dans 5\u00a0secondes", false);
        });
    }, POLL_MS);
    return;
  }
  document.body.addEventListener("htmx:sseOpen", function () {
    say("En direct", true);
  });
  document.body.addEventListener("htmx:sseError", function () {
    say("Reconnexion…", false);
  });
  document.body.addEventListener("htmx:sseMessage", function (event) {
    if (event.detail && event.detail.type === "revoked") {
      say("Lien retiré", false); // sse-close="revoked" closes the stream
    }
  });
})();
