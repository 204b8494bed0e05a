// BenGER study: autosave via fetch, server-driven countdown, live rubric total. No external libraries.
(function () {
  "use strict";
  var csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
  var strings = {};
  try { strings = JSON.parse(document.getElementById("i18n").textContent); } catch (e) { strings = {}; }
  function T(text) { return strings[text] || text; }
  // Grade points of a raw total under the rubric's inclusive upper bounds (benger.judge.grade_points: half
  // points round up); the page takes the bounds from the rubric, and the server recomputes.
  function gradePoints(raw, bounds) {
    var r = Math.floor(raw + 0.5);
    for (var i = 0; i < bounds.length; i++) { if (r <= bounds[i]) { return i; } }
    return bounds.length - 1;
  }

  // A number as the server reads it (benger.study._review.score: float() after every "," became "."): digits
  // with an optional point and exponent, blanks around; anything else ("7abc", "7,5,3") is no number.
  var NUMBER = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;
  function pointsOf(text) {
    var t = text.replace(/,/g, ".");
    return NUMBER.test(t) ? parseFloat(t) : NaN;
  }

  // The server's clock: offset = server time - browser time, measured on load and on every save
  // (midpoint of request and answer); the countdown never trusts the browser's own clock.
  var clock = {offset: 0};
  function serverNow() { return Date.now() + clock.offset; }
  function measure(sentAt, receivedAt, serverTime) {
    if (typeof serverTime === "number") { clock.offset = serverTime - (sentAt + receivedAt) / 2; }
  }
  function timeOf(ms) { return new Date(ms).toLocaleTimeString(document.documentElement.lang); }

  function status(state, text) {
    var el = document.getElementById("autosave-status");
    if (el) { el.textContent = text; el.setAttribute("data-state", state); }
  }

  // Autosave protocol (benger.study._drafts): each save names the version it is based on; "conflict" shows the
  // newer text and asks; a failed save is retried with backoff (1 s doubling to 10 s, at once when the browser is
  // back online); until acknowledged the text is mirrored in localStorage and restored after a reload.
  function autosave(form) {
    var url = form.getAttribute("data-autosave");
    var key = "benger-draft:" + form.getAttribute("data-attempt");
    var area = form.querySelector("textarea[name=text]");
    var versionInput = form.querySelector("input[name=version]");
    var st = {version: parseInt(versionInput.value, 10), acked: area.value, inflight: false, conflict: null,
              delay: 1000, timer: null, over: false, failing: false};
    var savedAt = parseInt(form.getAttribute("data-saved-at"), 10);
    if (!isNaN(savedAt)) { status("saved", T("Gespeichert") + " " + timeOf(savedAt)); }
    function mirror() {
      try {
        if (area.value === st.acked) { localStorage.removeItem(key); }
        else { localStorage.setItem(key, JSON.stringify({text: area.value, base: st.version})); }
      } catch (e) { /* storage full or disabled: the server copy still counts */ }
    }
    function schedule(ms) { clearTimeout(st.timer); st.timer = setTimeout(save, ms); }
    function retry() {
      st.failing = true;
      status("retry", T("Nicht gespeichert – wird erneut versucht"));
      schedule(st.delay);
      st.delay = Math.min(st.delay * 2, 10000);
    }
    function setVersion(v) { st.version = v; versionInput.value = String(v); }
    function showConflict(serverText, serverVersion, at) {
      st.conflict = {text: serverText, version: serverVersion};
      var box = document.getElementById("draft-conflict");
      document.getElementById("conflict-message").textContent = T("In einem anderen Fenster (oder Gerät) wurde neuerer Text gespeichert") +
        (at ? " (" + timeOf(at) + ", " : " (") + serverText.length + " " + T("Zeichen") + "). " +
        T("Ihr Text hier wurde nicht gespeichert. Welcher Text soll gelten?");
      document.getElementById("conflict-text").value = serverText;
      box.hidden = false;
      status("conflict", T("Nicht gespeichert – anderer Text liegt vor, bitte entscheiden"));
    }
    function resolve(takeServer) {
      var c = st.conflict;
      if (!c) { return; }
      st.conflict = null;
      document.getElementById("draft-conflict").hidden = true;
      setVersion(c.version);
      if (takeServer) { area.value = c.text; st.acked = c.text; mirror(); status("saved", T("Anderer Text übernommen")); }
      else { st.acked = c.text; mirror(); schedule(0); }
      area.focus();
    }
    function finished(d) {
      st.over = true;
      clearTimeout(st.timer);
      status("submitted", T("Zeit abgelaufen. Gewertet wird der zuletzt vom Server bestätigte Text") +
        (d.saved_at ? " (" + T("gespeichert") + " " + timeOf(d.saved_at) + ", " + d.chars + " " + T("Zeichen") + ")" : "") +
        (area.value !== d.text ? "; " + T("später Geschriebenes zählt nicht.") : "."));
      setTimeout(reloadWhenOnline, 4000);
    }
    function save() {
      if (st.conflict || st.over) { return; }
      if (st.inflight) { schedule(300); return; }
      if (area.value === st.acked) { if (st.failing) { st.failing = false; } return; }
      st.inflight = true;
      var sent = area.value, sentAt = Date.now();
      var body = new FormData();
      body.append("version", String(st.version));
      body.append("text", sent);
      fetch(url, {method: "POST", body: body, headers: {"X-CSRF-Token": csrf, "Accept": "application/json"},
                  credentials: "same-origin"})
        .then(function (resp) { return resp.json().then(function (d) { return [resp.status, d]; }); })
        .then(function (r) {
          st.inflight = false;
          var d = r[1] || {};
          measure(sentAt, Date.now(), d.server_time);
          if (d.status === "saved") {
            setVersion(d.version);
            st.acked = sent; st.delay = 1000; st.failing = false;
            mirror();
            status("saved", T("Gespeichert") + " " + timeOf(d.saved_at || serverNow()));
            if (area.value !== st.acked) { schedule(700); }
          } else if (d.status === "conflict") { showConflict(d.text || "", d.version, d.saved_at); }
          else if (d.status === "submitted") { finished(d); }
          else if (r[0] === 401) { status("retry", T("Nicht gespeichert – bitte in einem anderen Fenster neu anmelden; wird erneut versucht")); schedule(st.delay); st.delay = Math.min(st.delay * 2, 10000); }
          else if (r[0] >= 500 || r[0] === 0) { retry(); }
          else { status("error", T("Nicht gespeichert") + ": " + (d.error || r[0])); if (r[0] === 409) { setTimeout(function () { window.location.reload(); }, 4000); } }
        })
        .catch(function () { st.inflight = false; retry(); });
    }
    area.addEventListener("input", function () {
      mirror();
      if (st.conflict || st.over) { return; }
      if (!st.failing) { status("pending", T("Änderungen werden gespeichert …")); schedule(700); }
    });
    window.addEventListener("online", function () { st.delay = 1000; if (!st.conflict && !st.over) { schedule(0); } });
    document.getElementById("conflict-take").addEventListener("click", function () { resolve(true); });
    document.getElementById("conflict-keep").addEventListener("click", function () { resolve(false); });
    form.addEventListener("submit", function (event) {
      if (st.conflict) { event.preventDefault(); return; }
      if (!navigator.onLine) {
        event.preventDefault();
        status("retry", T("Keine Verbindung – Abgabe erst wieder mit Verbindung möglich; Ihr Text bleibt in diesem Browser erhalten"));
        return;
      }
      if (!window.confirm(form.getAttribute("data-confirm"))) { event.preventDefault(); }
    });
    // A copy from an earlier visit that the server never acknowledged: restore it (same base) or ask (older base).
    var local = null;
    try { local = JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { local = null; }
    if (local && typeof local.text === "string" && local.text !== area.value) {
      if (local.base === st.version) {
        area.value = local.text;
        status("pending", T("Nicht gespeicherter Text aus diesem Browser wiederhergestellt – wird gespeichert …"));
        schedule(0);
      } else {
        var serverText = area.value;
        area.value = local.text;
        showConflict(serverText, st.version, isNaN(savedAt) ? null : savedAt);
      }
    } else if (local) { try { localStorage.removeItem(key); } catch (e) { /* ignore */ } }
  }

  // The grading form's draft: saved 700 ms after the last input, retried with backoff while it fails.
  function reviewAutosave(form) {
    var url = form.getAttribute("data-autosave");
    var timer = null, inflight = false, delay = 1000;
    function save() {
      if (inflight) { timer = setTimeout(save, 300); return; }
      inflight = true;
      fetch(url, {method: "POST", body: new FormData(form), headers: {"X-CSRF-Token": csrf, "Accept": "application/json"},
                  credentials: "same-origin"})
        .then(function (resp) {
          if (resp.status === 409) { window.location.reload(); return null; }
          return resp.json().then(function (d) { return [resp.status, d]; });
        })
        .then(function (r) {
          inflight = false;
          if (!r) { return; }
          if (r[1].status === "saved") { delay = 1000; status("saved", T("Gespeichert") + " " + timeOf(Date.now())); }
          else if (r[0] >= 500) { throw new Error("server"); }
          else { status("error", T("Nicht gespeichert") + ": " + (r[1].error || r[0])); }
        })
        .catch(function () {
          inflight = false;
          status("retry", T("Nicht gespeichert – wird erneut versucht"));
          clearTimeout(timer); timer = setTimeout(save, delay); delay = Math.min(delay * 2, 10000);
        });
    }
    form.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(save, 700); });
    window.addEventListener("online", function () { clearTimeout(timer); timer = setTimeout(save, 0); });
  }

  // After the submission: a local copy that differs from what counted is reported, then dropped.
  function submitted(note) {
    var key = "benger-draft:" + note.getAttribute("data-attempt");
    var local = null;
    try { local = JSON.parse(localStorage.getItem(key) || "null"); localStorage.removeItem(key); } catch (e) { local = null; }
    var text = (document.getElementById("submitted-text") || {}).textContent;
    var lost = document.getElementById("lost-note");
    if (local && typeof local.text === "string" && local.text !== text && lost) {
      lost.textContent = T("Dieser Browser hatte Text, den der Server vor Ablauf der Zeit nicht mehr bestätigt hat; er zählt nicht") +
        " (" + local.text.length + " " + T("Zeichen") + ").";
      lost.hidden = false;
    }
  }

  function reloadWhenOnline() {
    if (navigator.onLine) { window.location.reload(); return; }
    window.addEventListener("online", function () { window.location.reload(); });
  }

  function hms(left) {
    var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
    return String(h).padStart(2, "0") + ":" + String(m).padStart(2, "0") + ":" + String(s).padStart(2, "0");
  }

  // Visible hh:mm:ss (role=timer, not announced every second); warnings at 15 and 5 minutes go to a live region.
  function countdown(el) {
    var end = parseInt(el.getAttribute("data-deadline"), 10);
    var now = parseInt(el.getAttribute("data-server-now"), 10);
    if (!isNaN(now)) { clock.offset = now - Date.now(); }
    if (isNaN(end)) { end = serverNow() + parseInt(el.getAttribute("data-remaining"), 10) * 1000; }
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
      var left = Math.max(0, Math.round((end - serverNow()) / 1000));
      el.textContent = hms(left);
      if (left <= 15 * 60 && left > 5 * 60) { warn(15); }
      if (left <= 5 * 60 && left > 0) { warn(5); }
      if (left <= 0) {
        el.textContent = T("Zeit abgelaufen – Ihr letzter Entwurf wird abgegeben …");
        // The server submits the last acknowledged draft; reload once its grace period has passed (offline:
        // once the connection is back, so the page with the text stays instead of the browser's error page).
        setTimeout(reloadWhenOnline, 3500);
        return;
      }
      setTimeout(tick, 1000);
    }
    tick();
  }

  function formatNumber(x) {
    return x.toLocaleString(document.documentElement.lang, {minimumFractionDigits: 1, maximumFractionDigits: 1});
  }

  // The live total follows the rubric of the page (data-* of the form and of each points field) with the
  // server's rules: points that are no number, outside 0..max or off the dimension's step give no grade and no
  // pass here, as the server refuses them; the grade table and the pass rule are the rubric's own.
  function liveTotal(form) {
    var inputs = form.querySelectorAll("input.points");
    var bounds = JSON.parse(form.getAttribute("data-bounds") || "null");
    var gradePasses = JSON.parse(form.getAttribute("data-grade-passes") || "null");  // per grade: does it pass?
    var passTotal = JSON.parse(form.getAttribute("data-pass-total") || "null");
    var top = parseFloat(form.getAttribute("data-total"));
    function update() {
      var sum = 0, filled = 0, valid = true;
      inputs.forEach(function (i) {
        if (!i.value.trim()) { return; }
        var v = pointsOf(i.value);
        var max = parseFloat(i.getAttribute("data-max"));
        var step = parseFloat(i.getAttribute("data-step")) || 0.5;
        filled++;
        if (!isFinite(v)) { valid = false; return; }
        sum += v;
        if (v < 0 || v > max || Math.abs(v / step - Math.round(v / step)) > 1e-9) { valid = false; }
      });
      document.getElementById("total").textContent = filled && valid ? formatNumber(sum) : "–";
      var complete = valid && filled === inputs.length && sum >= 0 && sum <= top;
      var gp = complete && bounds ? gradePoints(sum, bounds) : null;
      var pass = null;
      if (complete) { pass = bounds ? gradePasses[gp] === true : (passTotal === null ? null : sum >= passTotal - 1e-9); }
      document.getElementById("grade-points").textContent = gp === null ? "–" : gp;
      document.getElementById("passed").textContent = pass === null ? "" : (pass ? T("bestanden") : T("nicht bestanden"));
    }
    form.addEventListener("input", update);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var cd = document.getElementById("countdown");
    if (cd) { countdown(cd); }
    var work = document.getElementById("work-form");
    if (work) { autosave(work); }
    var review = document.querySelector("#grade-form[data-autosave]");
    if (review) { reviewAutosave(review); }
    var done = document.getElementById("submitted-notice");
    if (done && done.getAttribute("data-attempt")) { submitted(done); }
    document.querySelectorAll(".server-time[data-ms]").forEach(function (el) {
      el.textContent = timeOf(parseInt(el.getAttribute("data-ms"), 10));
    });
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
