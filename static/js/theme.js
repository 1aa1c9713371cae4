// Estoc: light or dark theme. Loaded in <head> without defer, so the remembered choice is applied
// before the first paint. Without JavaScript, theme.css follows prefers-color-scheme by its media.
//
// The dark theme is one stylesheet, <link id="theme-css" media="screen and (prefers-color-scheme: dark)">:
// a remembered choice only rewrites that media ("screen" for dark, "not all" for light) and sets
// Bootstrap's data-bs-theme on <html>. The choice is stored only when it differs from the system's,
// so a browser that never chose keeps following its system.
(function () {
  "use strict";
  var KEY = "estoc-theme";
  var SYSTEM_MEDIA = "screen and (prefers-color-scheme: dark)";
  var root = document.documentElement;
  var system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  function stored() {
    try {
      var value = window.localStorage.getItem(KEY);
      return value === "dark" || value === "light" ? value : "";
    } catch (error) {
      return ""; // storage disabled: the system decides
    }
  }

  function remember(value) {
    try {
      if (value) {
        window.localStorage.setItem(KEY, value);
      } else {
        window.localStorage.removeItem(KEY);
      }
    } catch (error) {
      // storage disabled: the choice lasts until the page is left
    }
  }

  var choice = stored();

  function systemTheme() {
    return system && system.matches ? "dark" : "light";
  }

  function effective() {
    return choice || systemTheme();
  }

  function apply() {
    var theme = effective();
    var sheet = document.getElementById("theme-css");
    if (sheet) {
      sheet.media = choice === "dark" ? "screen" : choice === "light" ? "not all" : SYSTEM_MEDIA;
    }
    var forced = document.getElementById("theme-css-forced");
    if (forced) {
      forced.media = choice === "dark" ? "screen" : "not all";
    }
    root.setAttribute("data-bs-theme", theme);
    root.setAttribute("data-theme-choice", choice || "system");
    var buttons = document.querySelectorAll("[data-theme-toggle]");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].setAttribute("aria-pressed", theme === "dark" ? "true" : "false");
      buttons[i].hidden = false;
    }
  }

  function toggle() {
    var next = effective() === "dark" ? "light" : "dark";
    choice = next === systemTheme() ? "" : next;
    remember(choice);
    apply();
  }

  // A remembered dark choice on a light system: the sheet's media did not match while the parser met
  // it, so the browser would paint before it arrives (a flash of the light theme). A stylesheet the
  // parser writes blocks the first paint; this one, while the page is still being parsed, does.
  if (choice === "dark" && systemTheme() !== "dark" && document.readyState === "loading") {
    var first = document.getElementById("theme-css");
    if (first) {
      document.write('<link rel="stylesheet" id="theme-css-forced" media="screen" href="' + first.href + '">');
    }
  }
  apply();

  if (system) {
    var onSystemChange = function () {
      if (!choice) {
        apply();
      }
    };
    if (system.addEventListener) {
      system.addEventListener("change", onSystemChange);
    } else if (system.addListener) {
      system.addListener(onSystemChange);
    }
  }
  // Another tab changed the choice: follow it.
  window.addEventListener("storage", function (event) {
    if (event.key === KEY || event.key === null) {
      choice = stored();
      apply();
    }
  });
  // The toggle may be drawn again by htmx: one delegated listener, and every new button gets its state.
  document.addEventListener("click", function (event) {
    var button = event.target instanceof Element ? event.target.closest("[data-theme-toggle]") : null;
    if (button) {
      event.preventDefault();
      toggle();
    }
  });
  document.addEventListener("DOMContentLoaded", apply);
  document.addEventListener("htmx:afterSettle", apply);
  // A printed page is always light (print.css resets the colours; Bootstrap's own follow the attribute).
  window.addEventListener("beforeprint", function () {
    root.setAttribute("data-bs-theme", "light");
  });
  window.addEventListener("afterprint", apply);
})();
