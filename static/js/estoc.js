// Estoc: small enhancements on top of htmx. The pages work without this file.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // A bestiary select fills its fields as soon as it changes (the "Charger" button does it without JS).
  document.addEventListener(
    "change",
    function (event) {
      var select = event.target;
      if (!(select instanceof HTMLSelectElement) || !select.dataset.load || !select.value) {
        return;
      }
      event.stopPropagation(); // the live scene will be redrawn with the whole form
      var form = select.form;
      if (!form || !window.htmx) {
        return;
      }
      window.htmx.ajax("GET", form.getAttribute("action"), {
        source: form,
        target: "#calculator",
        swap: "outerHTML",
        values: { _load: select.dataset.load },
      });
    },
    true
  );

  // Typing a die moves on to the next one once the value is as long as the die's largest face.
  document.addEventListener("input", function (event) {
    var input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.classList.contains("die")) {
      return;
    }
    var width = parseInt(input.dataset.width || "0", 10);
    if (!width || input.value.length < width) {
      return;
    }
    var dice = Array.prototype.slice.call(document.querySelectorAll("input.die"));
    var next = dice[dice.indexOf(input) + 1];
    if (next) {
      next.focus();
      next.select();
    }
  });
})();
