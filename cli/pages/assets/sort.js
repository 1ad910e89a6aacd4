(function () {
  function compare(a, b) {
    var x = a.getAttribute('data-sort'), y = b.getAttribute('data-sort');
    if (x !== null && y !== null) return parseFloat(x) - parseFloat(y);
    if (x !== null) return -1;
    if (y !== null) return 1;
    return a.textContent.localeCompare(b.textContent, undefined, {numeric: true});
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, column) {
      th.classList.add('sortable');
      th.title = 'sort by ' + th.textContent;
      th.addEventListener('click', function () {
        var ascending = !th.classList.contains('sorted-asc');
        Array.prototype.forEach.call(heads, function (h) { h.classList.remove('sorted-asc', 'sorted-desc'); });
        th.classList.add(ascending ? 'sorted-asc' : 'sorted-desc');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (r, s) { return (ascending ? 1 : -1) * compare(r.cells[column], s.cells[column]); });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
})();
