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
      window.htmx.ajax("POST", form.getAttribute("action"), {
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
  // Enter in a field of the calculator resolves (the form's first button would be a "Charger").
  document.addEventListener("keydown", function (event) {
    var input = event.target;
    if (event.key !== "Enter" || event.isComposing || !(input instanceof HTMLInputElement)) {
      return;
    }
    var form = input.form;
    var resolve = form && form.id === "scenario-form" && document.getElementById("resolve-button");
    if (!resolve || input.type === "checkbox" || input.type === "radio") {
      return;
    }
    event.preventDefault();
    form.requestSubmit(resolve);
  });

  // Encounter: Ctrl+Z undoes, Ctrl+Y (or Ctrl+Shift+Z) redoes, unless a field is being edited.
  document.addEventListener("keydown", function (event) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) {
      return;
    }
    var target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) {
      return;
    }
    var key = event.key.toLowerCase();
    var id = key === "z" && !event.shiftKey ? "undo-button" : key === "y" || (key === "z" && event.shiftKey) ? "redo-button" : "";
    var button = id && document.getElementById(id);
    if (!button) {
      return;
    }
    event.preventDefault();
    if (!button.disabled) {
      button.form.requestSubmit(button);
    }
  });

  // A button with data-confirm asks before its form is sent.
  document.addEventListener("submit", function (event) {
    var button = event.submitter;
    if (button && button.dataset.confirm && !window.confirm(button.dataset.confirm)) {
      event.preventDefault();
    }
  }, true);
})();
