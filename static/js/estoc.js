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

  // A live redraw also rewrites the « Ajuster » lines whose fields changed since the last live
  // request (the server is told which): a line says only its own fields, and a change that moves
  // other fields (settle) redraws the whole calculator anyway. A request dropped from the queue
  // (hx-sync "queue last") keeps its lines for the next one.
  var changedLines = {};
  document.addEventListener(
    "change",
    function (event) {
      var target = event.target;
      var block = target instanceof Element ? target.closest("#scenario-form details.adjust") : null;
      if (!block) {
        return;
      }
      Array.prototype.forEach.call(block.querySelectorAll(".adjust-line[data-key]"), function (line) {
        changedLines[line.dataset.key + ":" + line.dataset.row] = true;
      });
    },
    true
  );
  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (!(elt instanceof Element) || !elt.classList.contains("choices")) {
      return;
    }
    var keys = Object.keys(changedLines);
    changedLines = {};
    if (keys.length) {
      event.detail.parameters._adjusted = keys.join(",");
    }
  });

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
    if (resolve && resolve.disabled) {
      event.preventDefault();
      return;
    }
    if (!resolve || input.type === "checkbox" || input.type === "radio") {
      return;
    }
    event.preventDefault();
    form.requestSubmit(resolve);
  });

  // Navigation: on a small screen the links fold behind « Menu ».
  document.addEventListener("click", function (event) {
    var toggle = event.target instanceof Element && event.target.closest(".nav-toggle");
    if (!toggle) {
      return;
    }
    var links = document.getElementById(toggle.getAttribute("aria-controls"));
    var open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    if (links) {
      links.classList.toggle("open", open);
    }
  });

  // The action bar is fixed at the bottom of a small screen: the page keeps room for it, and on a
  // large screen the story lands just below it.
  function measureActionBar() {
    var bar = document.getElementById("live");
    var root = document.documentElement;
    document.body.classList.toggle("has-action-bar", !!bar);
    if (bar) {
      root.style.setProperty("--action-bar-height", bar.offsetHeight + 16 + "px");
    }
  }
  if (window.ResizeObserver) {
    var barObserver = new ResizeObserver(measureActionBar);
    var observeBar = function () {
      var bar = document.getElementById("live");
      barObserver.disconnect();
      if (bar) {
        barObserver.observe(bar);
      }
      measureActionBar();
    };
    document.addEventListener("DOMContentLoaded", observeBar);
    document.addEventListener("htmx:afterSettle", observeBar);
  }

  function isFixed(element) {
    return window.getComputedStyle(element).position === "fixed";
  }

  // A new result comes into view: its story at the top of the screen (phone) or of the side column.
  function revealStory() {
    var story = document.getElementById("story");
    if (!story) {
      return;
    }
    var side = story.closest(".calc-side");
    var bar = document.getElementById("live");
    if (side && side.scrollHeight > side.clientHeight && window.getComputedStyle(side).overflowY !== "visible") {
      var offset = bar && !isFixed(bar) ? bar.offsetHeight + 8 : 8;
      side.scrollTop += story.getBoundingClientRect().top - side.getBoundingClientRect().top - offset;
      var sideTop = side.getBoundingClientRect().top;
      if (sideTop < 0 || sideTop > window.innerHeight / 2) {
        side.scrollIntoView({ block: "start" });
      }
    } else {
      story.scrollIntoView({ block: "start" });
    }
  }

  // The first field in error: its panels open, the page scrolls there and the field has the focus.
  function revealError(root) {
    var field = (root || document).querySelector("#scenario-form .is-invalid, .die-input.has-error input");
    if (!field) {
      return false;
    }
    for (var node = field.parentElement; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") {
        node.open = true;
      }
    }
    field.scrollIntoView({ block: "center" });
    field.focus({ preventScroll: true });
    return true;
  }

  // A redraw of the whole calculator (a bestiary pick, a settled change) keeps the panels the game
  // master had opened: « Ajuster » blocks by their key, sections by their title.
  function panelKey(details) {
    var summary = details.querySelector(":scope > summary");
    return details.dataset.adjust ? "adjust:" + details.dataset.adjust : "title:" + (summary ? summary.textContent.replace(/\s+/g, " ").trim() : "");
  }
  var openPanels = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    openPanels = null;
    if (target && target.id === "calculator") {
      openPanels = {};
      Array.prototype.forEach.call(target.querySelectorAll("#scenario-form details[open]"), function (d) {
        openPanels[panelKey(d)] = true;
      });
    }
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!openPanels) {
      return;
    }
    var calculator = document.getElementById("calculator");
    if (calculator) {
      Array.prototype.forEach.call(calculator.querySelectorAll("#scenario-form details:not([open])"), function (d) {
        if (openPanels[panelKey(d)]) {
          d.open = true;
        }
      });
    }
    openPanels = null;
  });

  // A live redraw of exactly what was just resolved is dropped: leaving a field by tapping
  // « Résoudre » fires its change event, whose redraw would arrive after the result and draw the
  // scene as it was before the exchange (Quadrature's living sheet after « Résoudre »).
  function formState(form) {
    var parts = [];
    new FormData(form).forEach(function (value, name) {
      if (name.charAt(0) !== "_" && typeof value === "string") {
        parts.push(name + "=" + value);
      }
    });
    return parts.join("&");
  }
  var resolvedState = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    var form = document.getElementById("scenario-form");
    if (!form) {
      return;
    }
    if (elt === form) {
      resolvedState = formState(form);
    } else if (elt instanceof Element && elt.classList.contains("choices") && resolvedState !== null) {
      if (formState(form) === resolvedState) {
        event.preventDefault();
      } else {
        resolvedState = null;
      }
    }
  });

  // Resolving: the button is disabled (hx-disabled-elt) and shows progress; the results are busy.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (!(form instanceof HTMLFormElement) || form.id !== "scenario-form") {
      return;
    }
    var side = document.querySelector(".calc-side");
    if (side) {
      side.setAttribute("aria-busy", "true");
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var side = document.querySelector(".calc-side");
    if (side) {
      side.removeAttribute("aria-busy");
    }
    var xhr = event.detail.xhr;
    if (xhr && xhr.status > 0 && xhr.status < 400) {
      clearThrottled();
    }
  });

  // A rate limit's message (calculator/limits.py, swapped into #throttled): closed by its button,
  // by the next answered request, or once its wait is over.
  var throttledTimer = null;
  function clearThrottled() {
    var slot = document.getElementById("throttled");
    if (slot && slot.firstElementChild) {
      slot.replaceChildren();
    }
    window.clearTimeout(throttledTimer);
  }
  document.addEventListener("htmx:afterSwap", function (event) {
    var alert = event.detail.target && event.detail.target.id === "throttled" &&
      event.detail.target.querySelector("[data-retry-after]");
    if (alert) {
      window.clearTimeout(throttledTimer);
      throttledTimer = window.setTimeout(clearThrottled, 1000 * Number(alert.dataset.retryAfter || 60));
    }
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-dismiss-throttled]")) {
      clearThrottled();
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target;
    if (!target || (target.id !== "result" && target.id !== "calculator")) {
      return;
    }
    if (!revealError(target.id === "calculator" ? target : document)) {
      revealStory();
    }
  });
  document.addEventListener("DOMContentLoaded", function () {
    // a full page (no JavaScript redirect, permalink): the errors first, else the result's anchor
    if (!revealError(document) && window.location.hash === "#result") {
      revealStory();
    }
  });

  // « Vider les dés » empties the dice boxes in place; « Relancer » empties them before resolving
  // (without JavaScript both go to the server, which does the same).
  document.addEventListener("click", function (event) {
    var button = event.target instanceof Element && event.target.closest("#clear-dice-button, #reroll-button");
    if (!button || !window.htmx) {
      return;
    }
    var dice = document.querySelectorAll("input.die");
    Array.prototype.forEach.call(dice, function (input) {
      input.value = "";
    });
    var seed = document.querySelector('#scenario-form [name="seed"]');
    if (seed) {
      seed.value = "";
    }
    if (button.id === "clear-dice-button") {
      event.preventDefault();
      if (dice.length) {
        dice[0].focus();
      }
    }
  }, true);

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

  // Encounter « Agir »: whoever a single role holds (the attacker, the adversary) is taken in the
  // list roles (defenders, allies): unticked there, disabled, and the role named beside it.
  function markTaken(form) {
    var held = {};
    form.querySelectorAll("select[data-role-label]").forEach(function (select) {
      if (select.value && !held[select.value]) {
        held[select.value] = select.getAttribute("data-role-label");
      }
    });
    form.querySelectorAll("fieldset[data-role-label] input[type=checkbox]").forEach(function (box) {
      var holder = held[box.value] || "";
      if (holder) {
        box.checked = false;
      }
      box.disabled = Boolean(holder);
      var note = box.parentNode.querySelector(".taken-by");
      if (note) {
        note.hidden = !holder;
        note.textContent = holder ? "(" + holder + ")" : "";
      }
    });
  }

  document.addEventListener("change", function (event) {
    var form = event.target instanceof HTMLSelectElement && event.target.closest("form[data-one-role-each]");
    if (form) {
      markTaken(form);
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
