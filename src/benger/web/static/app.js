// BenGER study: autosave via fetch, server-driven countdown, live rubric total. No external libraries.
(function () {
  "use strict";
  var csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
  var strings = {};
  try { strings = JSON.parse(document.getElementById("i18n").textContent); } catch (e) { strings = {}; }
  function T(text) { return strings[text] || text; }
  // Inclusive upper raw bound of grade points 0..18 (mirrors benger.judge.GRADE_UPPER_BOUNDS; the server recomputes).
  var BOUNDS = [12, 25, 38, 49, 53, 56, 59, 63, 66, 69, 73, 76, 79, 83, 86, 89, 93, 96, 100];

  function gradePoints(raw) {
    var r = Math.floor(raw + 0.5);
    for (var i = 0; i < BOUNDS.length; i++) { if (r <= BOUNDS[i]) { return i; } }
    return 18;
  }

  function status(text) {
    var el = document.getElementById("autosave-status");
    if (el) { el.textContent = text; }
  }

  function autosave(form) {
    var url = form.getAttribute("data-autosave");
    var timer = null;
    var inflight = false;
    function save() {
      if (inflight) { timer = setTimeout(save, 300); return; }
      inflight = true;
      fetch(url, {method: "POST", body: new FormData(form), headers: {"X-CSRF-Token": csrf, "Accept": "application/json"},
                  credentials: "same-origin"})
        .then(function (resp) {
          if (resp.status === 409 || resp.status === 401) { window.location.reload(); return null; }
          return resp.json();
        })
        .then(function (data) {
          if (data && data.status === "saved") { status(T("Gespeichert um") + " " + new Date().toLocaleTimeString(document.documentElement.lang)); }
          else if (data && data.error) { status(T("Nicht gespeichert") + ": " + data.error); }
        })
        .catch(function () { status(T("Speichern fehlgeschlagen – Verbindung prüfen")); })
        .finally(function () { inflight = false; });
    }
    form.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(save, 700);
    });
  }

  function hms(left) {
    var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
    return String(h).padStart(2, "0") + ":" + String(m).padStart(2, "0") + ":" + String(s).padStart(2, "0");
  }

  // Visible hh:mm:ss (role=timer, not announced every second); warnings at 15 and 5 minutes go to a live region.
  function countdown(el) {
    var end = Date.now() + parseInt(el.getAttribute("data-remaining"), 10) * 1000;
    var warning = document.getElementById("timer-warning");
    var bar = document.getElementById("timer-bar");
    var warned = {};
    function warn(minutes) {
      if (warned[minutes]) { return; }
      warned[minutes] = true;
      if (warning) { warning.textContent = T(minutes === 15 ? "Noch 15 Minuten." : "Noch 5 Minuten – bitte zum Ende kommen."); }
      if (bar) { bar.classList.add(minutes === 15 ? "warn-15" : "warn-5"); }
    }
    function tick() {
      var left = Math.max(0, Math.round((end - Date.now()) / 1000));
      el.textContent = hms(left);
      if (left <= 15 * 60 && left > 5 * 60) { warn(15); }
      if (left <= 5 * 60 && left > 0) { warn(5); }
      if (left <= 0) {
        el.textContent = T("Zeit abgelaufen – Ihr letzter Entwurf wird abgegeben …");
        // The server submits the last autosaved draft; reload once its grace period has passed.
        setTimeout(function () { window.location.reload(); }, 3500);
        return;
      }
      setTimeout(tick, 1000);
    }
    tick();
  }

  function formatNumber(x) {
    return x.toLocaleString(document.documentElement.lang, {minimumFractionDigits: 1, maximumFractionDigits: 1});
  }

  function liveTotal(form) {
    var inputs = form.querySelectorAll("input.points");
    function update() {
      var sum = 0, filled = 0;
      inputs.forEach(function (i) {
        var v = parseFloat(i.value.replace(",", "."));
        if (!isNaN(v)) { sum += v; filled++; }
      });
      document.getElementById("total").textContent = filled ? formatNumber(sum) : "–";
      var complete = filled === inputs.length && sum >= 0 && sum <= 100;
      var gp = complete ? gradePoints(sum) : null;
      document.getElementById("grade-points").textContent = gp === null ? "–" : gp;
      document.getElementById("passed").textContent = gp === null ? "" : (gp >= 4 ? T("bestanden") : T("nicht bestanden"));
    }
    form.addEventListener("input", update);
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-autosave]").forEach(autosave);
    var cd = document.getElementById("countdown");
    if (cd) { countdown(cd); }
    var work = document.getElementById("work-form");
    if (work) {
      work.addEventListener("submit", function (event) {
        if (!window.confirm(work.getAttribute("data-confirm"))) { event.preventDefault(); }
      });
    }
    var grade = document.getElementById("grade-form");
    if (grade) { liveTotal(grade); }
    // Margin notes: the passage selected in the solution goes into the new note's "Stelle" field.
    var take = document.getElementById("take-selection");
    if (take) {
      take.addEventListener("click", function () {
        var selection = window.getSelection();
        var solution = document.getElementById("solution-text");
        var quote = document.getElementById("new-note-quote");
        if (selection && solution && quote && selection.anchorNode && solution.contains(selection.anchorNode)) {
          quote.value = selection.toString().trim().slice(0, 300);
          quote.dispatchEvent(new Event("input", {bubbles: true}));
          document.getElementById("new-note-text").focus();
        }
      });
    }
    document.querySelectorAll("button.copy").forEach(function (button) {
      button.addEventListener("click", function () {
        var source = document.getElementById(button.getAttribute("data-copy"));
        var note = button.parentNode.querySelector(".copy-status");
        function done() { if (note) { note.textContent = T("Kopiert"); } }
        source.select();
        if (navigator.clipboard) { navigator.clipboard.writeText(source.value).then(done, function () { document.execCommand("copy"); done(); }); }
        else { document.execCommand("copy"); done(); }
      });
    });
  });
})();
