// Runs pages: live progress of a run from its server-sent events (EventSource); no external libraries.
(function () {
  "use strict";
  var facts = document.getElementById("run-facts");
  if (!facts || facts.getAttribute("data-active") !== "1" || !window.EventSource) { return; }
  function set(id, text) { var el = document.getElementById(id); if (el) { el.textContent = text; } }
  function cell(row, field, text) { var el = row.querySelector('[data-field="' + field + '"]'); if (el) { el.textContent = text; } }
  var source = new EventSource(facts.getAttribute("data-events"));
  source.onmessage = function (event) {
    var state = JSON.parse(event.data);
    set("run-status", state.status);
    document.getElementById("run-status").setAttribute("data-status", state.status);
    set("run-message", state.message || "–");
    var p = state.progress;
    if (!p) { return; }
    p.stages.forEach(function (s) {
      var row = document.querySelector('#progress tr[data-stage="' + s.stage + '"]');
      if (!row) { return; }
      var done = row.querySelector('[data-field="finished"]');
      if (done) { done.firstChild.textContent = s.finished + " "; }
      cell(row, "total", String(s.total));
      cell(row, "failed", String(s.failed));
      cell(row, "excluded", String(s.excluded));
      cell(row, "remaining", String(s.remaining));
      cell(row, "tokens", String(s.input_tokens + s.output_tokens));
      cell(row, "cost", s.cost_usd.toFixed(4));
    });
    set("run-eta", p.eta_s === null ? "–" : Math.round(p.eta_s) + " s");
    set("run-reused", String(p.reused));
  };
  source.addEventListener("end", function () {
    source.close();
    window.location.reload();  // the finished page: results links, failures, resume
  });
})();
