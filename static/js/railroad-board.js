/* Railroad Ink's board form: a small drawing of the route chosen in each square, as it is chosen.
   The form works without it; the drawings come from the engine's data (rules/boards.py piece_sides). */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var END = [[10, 0], [20, 10], [10, 20], [0, 10]]; // north, east, south, west
  document.querySelectorAll("table.railroad-grid[data-pieces]").forEach(function (grid) {
    var data = document.getElementById(grid.dataset.pieces);
    if (!data) return;
    var pieces = JSON.parse(data.textContent);
    function line(svg, side, kind) {
      var stroke = document.createElementNS(NS, "line");
      stroke.setAttribute("x1", 10); stroke.setAttribute("y1", 10);
      stroke.setAttribute("x2", END[side][0]); stroke.setAttribute("y2", END[side][1]);
      stroke.setAttribute("stroke", kind === "road" ? "#666" : "#000");
      stroke.setAttribute("stroke-width", kind === "road" ? 5 : 4);
      if (kind === "rail") stroke.setAttribute("stroke-dasharray", "1.5 1.5");
      svg.appendChild(stroke);
    }
    function draw(select) {
      var svg = select.nextElementSibling;
      if (!svg || svg.tagName.toLowerCase() !== "svg") {
        svg = document.createElementNS(NS, "svg");
        svg.setAttribute("viewBox", "0 0 20 20");
        svg.setAttribute("class", "piece-preview");
        svg.setAttribute("aria-hidden", "true");
        select.after(svg);
      }
      svg.textContent = "";
      var piece = pieces[select.value];
      if (!piece) return;
      piece.road.forEach(function (side) { line(svg, side, "road"); });
      piece.rail.forEach(function (side) { line(svg, side, "rail"); });
      if (piece.station) {
        var box = document.createElementNS(NS, "rect");
        box.setAttribute("x", 7); box.setAttribute("y", 7); box.setAttribute("width", 6); box.setAttribute("height", 6);
        box.setAttribute("fill", "#fff"); box.setAttribute("stroke", "#000");
        svg.appendChild(box);
      }
    }
    grid.querySelectorAll("select[name^='cell.']").forEach(function (select) {
      draw(select);
      select.addEventListener("change", function () { draw(select); });
    });
  });
})();
