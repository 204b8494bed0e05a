// benger viewer: sortable tables (keyboard: the header buttons). No network, no dependencies.
"use strict";
(function () {
  function value(cell) {
    var raw = cell.getAttribute("data-value");
    if (raw === null) raw = cell.textContent.trim();
    var n = parseFloat(raw);
    return raw !== "" && !isNaN(n) && isFinite(raw) ? n : raw.toLowerCase();
  }
  function sortBy(table, col, button) {
    var th = button.closest("th");
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    table.querySelectorAll("thead th").forEach(function (h) { if (h.hasAttribute("aria-sort")) h.setAttribute("aria-sort", "none"); });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = value(a.cells[col]), y = value(b.cells[col]);
      if (x === "" || x === "–") return 1;
      if (y === "" || y === "–") return -1;
      var c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
      return ascending ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("table.sortable").forEach(function (table) {
      table.querySelectorAll("button.sort").forEach(function (button) {
        button.addEventListener("click", function () { sortBy(table, parseInt(button.getAttribute("data-col"), 10), button); });
      });
    });
  });
})();
