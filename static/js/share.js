// Shared result page: PNG of the frames (modern-screenshot, vendored) and copy buttons.
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
          say("La capture a échoué ; utilisez l'impression ou la vue capture.");
        })
        .finally(function () {
          node.classList.remove("capturing");
          png.disabled = false;
        });
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
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(area.value).then(done, function () {
          document.execCommand("copy");
          done();
        });
      } else {
        document.execCommand("copy");
        done();
      }
    });
  });
})();
