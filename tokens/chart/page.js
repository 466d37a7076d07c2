// Sorts a table.sortable by the clicked column header: numbers (th
// data-type="num") by value, text by code point, a missing figure last in
// either direction, ties in the table's first order. A second click on the
// same header reverses it. No network, no library: the page's CSP allows
// this script by its hash and nothing else.
(function () {
  "use strict";
  function key(cell, numeric) {
    var v = cell ? cell.getAttribute("data-v") : null;
    if (v === null || v === "") { return null; }
    return numeric ? Number(v) : v;
  }
  function sortBy(table, th, col) {
    var numeric = th.getAttribute("data-type") === "num";
    var asc = th.getAttribute("aria-sort") !== "ascending";
    var heads = table.tHead.rows[0].cells;
    for (var h = 0; h < heads.length; h++) { heads[h].removeAttribute("aria-sort"); }
    th.setAttribute("aria-sort", asc ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a.cells[col], numeric), y = key(b.cells[col], numeric);
      if (x === null || y === null) {
        if (x === y) { return a.getAttribute("data-i") - b.getAttribute("data-i"); }
        return x === null ? 1 : -1;
      }
      var c = x < y ? -1 : x > y ? 1 : 0;
      if (!asc) { c = -c; }
      return c || a.getAttribute("data-i") - b.getAttribute("data-i");
    });
    for (var i = 0; i < rows.length; i++) { body.appendChild(rows[i]); }
  }
  var tables = document.querySelectorAll("table.sortable");
  for (var t = 0; t < tables.length; t++) {
    (function (table) {
      var heads = table.tHead.rows[0].cells;
      for (var i = 0; i < heads.length; i++) {
        (function (th, col) {
          th.tabIndex = 0;
          th.addEventListener("click", function () { sortBy(table, th, col); });
          th.addEventListener("keydown", function (e) {
            if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortBy(table, th, col); }
          });
        })(heads[i], i);
      }
    })(tables[t]);
  }
})();
