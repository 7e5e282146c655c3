// ragkit report: sortable sample table, text filter, drill-down (no network, no eval).
(function () {
  "use strict";
  var table = document.getElementById("sample-table");
  if (!table) { return; }
  var body = table.tBodies[0];
  var heads = table.tHead.rows[0].cells;
  function cellValue(row, i) {
    var cell = row.cells[i];
    var v = cell.getAttribute("data-v");
    if (v === null) { return cell.textContent.trim().toLowerCase(); }
    return v === "" ? null : parseFloat(v);
  }
  function sortBy(i) {
    var head = heads[i];
    var asc = !head.classList.contains("sorted-asc");
    for (var k = 0; k < heads.length; k++) { heads[k].classList.remove("sorted-asc", "sorted-desc"); }
    head.classList.add(asc ? "sorted-asc" : "sorted-desc");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellValue(a, i), y = cellValue(b, i);
      if (x === null && y === null) { return 0; }
      if (x === null) { return 1; }  // missing values last either way
      if (y === null) { return -1; }
      var c = x < y ? -1 : x > y ? 1 : 0;
      return asc ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  Array.prototype.forEach.call(heads, function (h, i) {
    h.addEventListener("click", function () { sortBy(i); });
  });
  var filter = document.getElementById("filter");
  var shown = document.getElementById("shown");
  function applyFilter() {
    var q = filter.value.trim().toLowerCase();
    var n = 0;
    Array.prototype.forEach.call(body.rows, function (r) {
      var ok = !q || r.textContent.toLowerCase().indexOf(q) !== -1;
      r.style.display = ok ? "" : "none";
      n += ok ? 1 : 0;
    });
    if (shown) { shown.textContent = n + " of " + body.rows.length + " samples"; }
  }
  if (filter) { filter.addEventListener("input", applyFilter); applyFilter(); }
  function open(id) {
    var drills = document.querySelectorAll(".drill.open");
    Array.prototype.forEach.call(drills, function (d) { d.classList.remove("open"); });
    Array.prototype.forEach.call(body.rows, function (r) {
      r.classList.toggle("active", r.getAttribute("data-drill") === id);
    });
    var el = id ? document.getElementById(id) : null;
    if (el) { el.classList.add("open"); }
    return el;
  }
  Array.prototype.forEach.call(body.rows, function (r) {
    r.addEventListener("click", function (ev) {
      if (ev.target.tagName === "A") { return; }
      var id = r.getAttribute("data-drill");
      if (history.replaceState) { history.replaceState(null, "", "#" + id); }
      open(id);
    });
  });
  function fromHash() {
    var h = decodeURIComponent(location.hash.slice(1));
    open(h.indexOf("s-") === 0 ? h : null);
  }
  window.addEventListener("hashchange", fromHash);
  document.addEventListener("keydown", function (ev) {
    var cur = document.querySelector(".drill.open");
    if (!cur || ev.target === filter) { return; }
    var link = null;
    if (ev.key === "Escape") { link = "#samples"; }
    if (ev.key === "ArrowRight" || ev.key === "j") { link = cur.getAttribute("data-next"); }
    if (ev.key === "ArrowLeft" || ev.key === "k") { link = cur.getAttribute("data-prev"); }
    if (link) { location.hash = link; ev.preventDefault(); }
  });
  fromHash();
}());
