/* Live totals on the score sheet: on every change, post the sheet's own form to its page
   (/regles/<slug>/feuille-de-score/, asking for JSON) and show the totals, ranks, winners and
   explanation it returns, or mark the inputs the errors name. Nothing is read or computed here: the
   page's Django form parses the sheet, the rules engine scores it, and the form still works
   without this script (the Calculer button). */
(function () {
  "use strict";

  var form = document.querySelector("form[data-live-score]");
  if (!form || !window.fetch || !window.FormData || !window.URLSearchParams) return;
  var url = form.getAttribute("data-live-score");
  var tool = form.closest(".score-tool") || document;
  var result = tool.querySelector("[data-score-result]");
  var status = form.querySelector("[data-live-status]");

  function setAll(selector, value) {
    tool.querySelectorAll(selector).forEach(function (cell) { cell.textContent = value; });
  }

  function clearMarks() {
    form.querySelectorAll("[data-live-invalid]").forEach(function (control) {
      control.removeAttribute("aria-invalid");
      control.removeAttribute("data-live-invalid");
      control.removeAttribute("aria-describedby");
    });
    form.querySelectorAll("[data-live-errors]").forEach(function (list) { list.remove(); });
  }

  // The reason the page's form gave (« La valeur doit être au plus 18. »), next to the input or in
  // the cell of the group or list it names, read out by screen readers through aria-describedby.
  function reason(anchor, messages, id) {
    var list = document.createElement("ul");
    list.className = "errorlist live-errors";
    list.setAttribute("data-live-errors", "");
    if (id) list.id = id;
    messages.forEach(function (message) {
      var item = document.createElement("li");
      item.textContent = message;
      list.appendChild(item);
    });
    anchor.appendChild(list);
  }

  function show(data) {
    clearMarks();
    var eliminated = status.getAttribute("data-eliminated") || "";
    data.players.forEach(function (player, index) {
      setAll('[data-total="' + index + '"]', player.total);
      setAll('[data-rank="' + index + '"]', player.eliminated ? eliminated || player.rank : player.rank);
      setAll('[data-name="' + index + '"]', player.name);
      tool.querySelectorAll("[data-line]").forEach(function (row) {
        var cell = row.querySelector('[data-player="' + index + '"]');
        if (cell) cell.textContent = player.breakdown[row.getAttribute("data-line")];
      });
      tool.querySelectorAll('[data-total="' + index + '"]').forEach(function (cell) {
        cell.classList.toggle("winner", data.winners.indexOf(player.name) !== -1);
      });
    });
    if (result) {
      var winners = result.querySelector("[data-winners]");
      winners.textContent = data.winners.length ? data.winners.join(", ") : winners.getAttribute("data-none");
      result.querySelector("[data-explanation]").textContent = data.explanation || "";
      var decided = result.querySelector("[data-decided-by]");
      if (decided) decided.hidden = true; // the explanation names the tie-breaker
      result.hidden = false;
    }
    status.textContent = "";
  }

  function mark(errors) {
    clearMarks();
    var general = [];
    Object.keys(errors).forEach(function (path) {
      var name = path.replace(/["\\]/g, "");
      var control = form.querySelector('[name="' + name + '"]');
      if (control && control.type !== "hidden") {
        var id = (control.id || "live-" + name.replace(/[^A-Za-z0-9_-]/g, "-")) + "-live-errors";
        control.setAttribute("aria-invalid", "true");
        control.setAttribute("data-live-invalid", "");
        // The reason is written next to the fields typed in; the others only turn red, so that the
        // first keystroke on a new sheet does not fill it with « Ce champ est obligatoire. »
        if (touched[name]) {
          control.setAttribute("aria-describedby", id);
          reason(control.closest(".control, fieldset") || control.parentNode, errors[path], id);
        }
        return;
      }
      var cell = form.querySelector('[data-cell="' + name + '"]');
      if (cell) reason(cell, errors[path]);
      else general = general.concat(errors[path]);
    });
    setAll("[data-total]", "");
    setAll("[data-rank]", "");
    status.textContent = general.length ? general.join(" ") : status.getAttribute("data-incomplete");
  }

  var timer = null;
  var pending = null;
  var touched = {};

  function send() {
    if (pending) pending.abort();
    pending = window.AbortController ? new AbortController() : null;
    status.textContent = status.getAttribute("data-working");
    fetch(url, {
      method: "POST",
      headers: {"Accept": "application/json", "Accept-Language": document.documentElement.lang || "fr"},
      body: new URLSearchParams(new FormData(form)),
      credentials: "same-origin",
      signal: pending ? pending.signal : undefined
    }).then(function (response) {
      return response.json().then(function (data) { return {ok: response.ok, status: response.status, data: data}; });
    }).then(function (answer) {
      if (answer.ok) show(answer.data);
      else if (answer.status === 400) mark(answer.data);
      else status.textContent = status.getAttribute("data-failed");
    }).catch(function (error) {
      if (error && error.name === "AbortError") return;
      status.textContent = status.getAttribute("data-failed");
    });
  }

  function schedule() {
    window.clearTimeout(timer);
    timer = window.setTimeout(send, 250);
  }

  function typed(event) {
    if (event.target && event.target.name) touched[event.target.name] = true;
    schedule();
  }

  form.addEventListener("input", typed);
  form.addEventListener("change", typed);
})();
