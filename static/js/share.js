// Shared result page: PNG of the frames (modern-screenshot, vendored), copy buttons, « Copier le
// lien » and the wikitext's options (issue 19, item 3).
(function () {
  "use strict";
  var status = document.getElementById("share-status");
  function say(text) {
    if (status) {
      status.textContent = text;
    }
  }

  var png = document.getElementById("download-png");
  if (png) {
    png.addEventListener("click", function () {
      var node = document.querySelector(png.dataset.target);
      if (!node || !window.modernScreenshot) {
        say("La capture n'est pas disponible dans ce navigateur.");
        return;
      }
      png.disabled = true;
      node.classList.add("capturing"); // the image keeps its 720 px layout whatever the screen
      window.modernScreenshot
        .domToPng(node, { scale: 1, backgroundColor: "#ffffff" })
        .then(function (dataUrl) {
          var link = document.createElement("a");
          link.href = dataUrl;
          link.download = png.dataset.filename;
          document.body.appendChild(link);
          link.click();
          link.remove();
          say("Image enregistrée.");
        })
        .catch(function () {
          say("La capture a échoué\u202f; utilisez l'impression ou la vue capture.");
        })
        .finally(function () {
          node.classList.remove("capturing");
          png.disabled = false;
        });
    });
  }

  // « Copier le lien »: the clipboard API; refused or absent, the visible read-only input holding
  // the link is selected so that the visitor copies it themselves.
  var copyLink = document.getElementById("copy-link");
  if (copyLink) {
    var linkInput = document.querySelector(copyLink.dataset.link);
    var linkStatus = document.querySelector(copyLink.dataset.status) || status;
    var tell = function (text) {
      if (linkStatus) {
        linkStatus.textContent = ""; // the same words again are announced again
        window.setTimeout(function () {
          linkStatus.textContent = text;
        }, 30);
      }
    };
    var selectLink = function () {
      linkInput.focus();
      linkInput.select();
      tell("Le lien est sélectionné\u202f: copiez-le (Ctrl+C, ou appui long puis «\u202fCopier\u202f»).");
    };
    copyLink.addEventListener("click", function () {
      if (!linkInput) {
        return;
      }
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(linkInput.value).then(function () {
          tell("Lien copié.");
        }, selectLink);
      } else {
        selectLink();
      }
    });
  }

  // The wikitext's options: without JavaScript the GET form reloads the page; here the wikitext
  // shown and the wiki.txt link follow each change without a reload.
  var wikiForm = document.getElementById("wiki-options");
  if (wikiForm && window.fetch && window.URLSearchParams && window.FormData) {
    var wikiArea = document.querySelector(wikiForm.dataset.target);
    var wikiLink = document.querySelector(wikiForm.dataset.download);
    var refresh = function () {
      var params = new URLSearchParams();
      new FormData(wikiForm).forEach(function (value, key) {
        if (value) {
          params.append(key, value);
        }
      });
      var query = params.toString() ? "?" + params.toString() : "";
      return fetch(wikiForm.dataset.wiki + query, { headers: { Accept: "text/plain" } })
        .then(function (response) {
          return response.text().then(function (body) {
            if (!response.ok) {
              throw new Error(body);
            }
            return body;
          });
        })
        .then(function (body) {
          wikiArea.value = body;
          if (wikiLink) {
            wikiLink.href = wikiForm.dataset.wiki + query;
          }
          var errors = document.getElementById("wiki-errors");
          if (errors) {
            errors.remove();
          }
          window.history.replaceState(null, "", wikiForm.action + query);
          say("Wikitexte mis à jour.");
        })
        .catch(function (error) {
          say(error.message || "Le wikitexte n'a pas pu être mis à jour.");
        });
    };
    wikiForm.addEventListener("change", refresh);
    wikiForm.addEventListener("submit", function (event) {
      event.preventDefault();
      refresh();
    });
  }

  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var area = document.querySelector(button.dataset.copy);
      if (!area) {
        return;
      }
      area.select();
      var done = function () {
        say("Copié dans le presse-papiers.");
      };
      var byHand = function () {
        var copied = false;
        try {
          copied = document.execCommand("copy");
        } catch (e) {
          copied = false;
        }
        say(copied ? "Copié dans le presse-papiers." : "Le texte est sélectionné\u202f: copiez-le (Ctrl+C, ou appui long).");
      };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(area.value).then(done, byHand);
      } else {
        byHand();
      }
    });
  });
})();
