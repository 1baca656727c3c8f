/* Live totals on the score sheet: on every change, post the sheet as JSON to the rules API
   (/api/rules/<slug>/score/) and show the totals, ranks, winners and explanation it returns.
   Nothing is computed here: the form still works without this script (the Calculer button).
   The JSON body is read from the form by following the plan the page embeds; `build` mirrors
   rules/inputs.py build(), so the page and the API receive the same sheet. */
(function () {
  "use strict";

  var form = document.querySelector("form[data-live-score]");
  if (!form || !window.fetch || !window.FormData) return;
  var planElement = document.getElementById(form.getAttribute("data-plan"));
  if (!planElement) return;
  var plan = JSON.parse(planElement.textContent);
  var api = form.getAttribute("data-live-score");
  var tool = form.closest(".score-tool") || document;
  var result = tool.querySelector("[data-score-result]");
  var status = form.querySelector("[data-live-status]");
  var INTEGER = /^-?[0-9]{1,15}$/;

  function join(prefix, name) { return prefix ? prefix + "." + name : String(name); }
  function text(data, name) { var value = data.get(name); return value === null ? "" : String(value); }
  function number(raw) { return INTEGER.test(raw) ? parseInt(raw, 10) : raw; }

  // Returns [value, blank]; value is undefined when the key is left out of the body.
  function build(node, data, path, inList) {
    var raw, value, blank, i;
    switch (node.t) {
      case "int":
      case "choice":
        raw = text(data, path).trim();
        if (!raw) return [undefined, true];
        return [node.t === "int" ? number(raw) : raw, false];
      case "bool":
        raw = text(data, path).trim().toLowerCase();
        value = ["on", "true", "1", "oui", "yes"].indexOf(raw) !== -1;
        return [value, !value];
      case "intlist":
        value = text(data, path).trim().split(/[\s,;]+/).filter(Boolean).map(number);
        return [value, value.length === 0];
      case "multi":
        value = data.getAll(path).filter(Boolean);
        return [value, value.length === 0];
      case "obj":
        value = {};
        blank = true;
        node.fields.forEach(function (pair) {
          var member = build(pair[1], data, join(path, pair[0]), false);
          if (member[0] !== undefined) value[pair[0]] = member[0];
          blank = blank && member[1];
        });
        if (blank && node.omit && !inList) return [undefined, true];
        return [value, blank];
      case "list":
        raw = text(data, join(path, "_slots")).trim();
        var count = /^[0-9]+$/.test(raw) ? Math.min(parseInt(raw, 10), 200) : 0;
        var slots = [];
        for (i = 0; i < count; i++) slots.push(build(node.item, data, join(path, i), true));
        while (slots.length > node.min && slots[slots.length - 1][1]) slots.pop();
        return [slots.map(function (slot) { return slot[0] === undefined ? null : slot[0]; }),
                slots.every(function (slot) { return slot[1]; })];
      case "grid":
        value = [];
        blank = true;
        for (i = 0; i < node.rows; i++) {
          var row = [];
          for (var j = 0; j < node.cols; j++) {
            raw = text(data, join(path, i + "." + j)).trim();
            if (raw) blank = false;
            row.push(raw ? number(raw) : null);
          }
          value.push(row);
        }
        return [value, blank];
      default: // json
        raw = text(data, path).trim();
        if (!raw) return [undefined, true];
        try { return [JSON.parse(raw), false]; } catch (error) { return [raw, false]; }
    }
  }

  function buildFields(nodes, data, prefix) {
    return build({t: "obj", fields: nodes, omit: false}, data, prefix, false)[0];
  }

  function sheet() {
    var data = new FormData(form);
    var count = parseInt(text(data, "players"), 10) || 0;
    var players = [];
    for (var i = 0; i < count; i++) {
      var player = {name: text(data, "players." + i + ".name").trim()};
      var fields = buildFields(plan.players, data, "players." + i);
      Object.keys(fields).forEach(function (key) { player[key] = fields[key]; });
      players.push(player);
    }
    var body = {variants: data.getAll("variants").sort(), players: players};
    var shared = buildFields(plan.shared, data, "");
    Object.keys(shared).forEach(function (key) { body[key] = shared[key]; });
    return body;
  }

  function setAll(selector, value) {
    tool.querySelectorAll(selector).forEach(function (cell) { cell.textContent = value; });
  }

  function clearMarks() {
    form.querySelectorAll("[data-live-invalid]").forEach(function (control) {
      control.removeAttribute("aria-invalid");
      control.removeAttribute("data-live-invalid");
      control.removeAttribute("title");
    });
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
    Object.keys(errors).forEach(function (path) {
      var control = form.querySelector('[name="' + path.replace(/"/g, "") + '"]');
      if (control && control.type !== "hidden") {
        control.setAttribute("aria-invalid", "true");
        control.setAttribute("data-live-invalid", "");
        control.setAttribute("title", errors[path].join(" "));
      }
    });
    setAll("[data-total]", "");
    setAll("[data-rank]", "");
    status.textContent = status.getAttribute("data-incomplete");
  }

  var timer = null;
  var pending = null;

  function send() {
    if (pending) pending.abort();
    pending = window.AbortController ? new AbortController() : null;
    status.textContent = status.getAttribute("data-working");
    fetch(api, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "Accept": "application/json",
        "Accept-Language": document.documentElement.lang || "fr"
      },
      body: JSON.stringify(sheet()),
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

  form.addEventListener("input", schedule);
  form.addEventListener("change", schedule);
})();
