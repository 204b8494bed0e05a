// Validation page: its progress (judgements done of total) polled from the progress JSON while it runs; the
// page reloads once it has ended (the result table). No external libraries.
(function () {
  "use strict";
  var facts = document.getElementById("validation-facts");
  if (!facts || facts.getAttribute("data-active") !== "1" || !window.fetch) { return; }
  function set(id, text) { var el = document.getElementById(id); if (el) { el.textContent = text; } }
  var active = ["queued", "running", "cancelling"];
  function poll() {
    fetch(facts.getAttribute("data-progress"), { headers: { "Accept": "application/json" } })
      .then(function (response) { return response.json(); })
      .then(function (state) {
        set("validation-status", state.status);
        document.getElementById("validation-status").setAttribute("data-status", state.status);
        set("validation-done", String(state.done));
        set("validation-total", String(state.total));
        set("validation-message", state.message || "–");
        if (active.indexOf(state.status) < 0) { window.location.reload(); return; }
        window.setTimeout(poll, 1000);
      })
      .catch(function () { window.setTimeout(poll, 2000); });
  }
  window.setTimeout(poll, 500);
})();
