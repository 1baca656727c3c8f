/* The ludobus desk (templates/ludobus/tour.html): lend, take back and count visits with or without
   network. The tour's data (« Préparer la tournée ») and the actions done are kept in this browser's
   IndexedDB; every action gets an id made here and is sent back in order as soon as the network is
   there, to be replayed once by the server through the live desk's services (ludobus/replay.py). */
(function () {
  "use strict";
  var script = document.currentScript;
  var TEXT = JSON.parse(document.getElementById("tour-texts").textContent);
  var DAY = 86400000;
  var lang = document.documentElement.lang || "fr";
  var state = { tour: null, actions: [], family: null, copy: null, lending: null, sending: false };
  var db = null;

  function $(id) { return document.getElementById(id); }
  function say(name, values) {
    return TEXT[name].replace(/%\((\w+)\)s/g, function (_, key) { return values[key]; });
  }
  function uuid() {
    if (window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    var b = window.crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return [h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)].join("-");
  }
  function today() {
    var d = new Date();
    return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 10);
  }

  // IndexedDB: "tour" holds the prepared data and the action counter, "actions" the actions by id.
  function openDb() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open("ludobus", 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore("tour");
        request.result.createObjectStore("actions", { keyPath: "id" });
      };
      request.onsuccess = function () {
        request.result.onversionchange = function () { request.result.close(); };  // a logout deletes it
        resolve(request.result);
      };
      request.onerror = function () { reject(request.error); };
    });
  }
  function store(name, mode, work) {
    return new Promise(function (resolve, reject) {
      var transaction = db.transaction(name, mode);
      var request = work(transaction.objectStore(name));
      transaction.oncomplete = function () { resolve(request && request.result); };
      transaction.onerror = function () { reject(transaction.error); };
    });
  }
  function save(action) { return store("actions", "readwrite", function (s) { return s.put(action); }); }

  // What the desk knows now: the prepared data, then every action done since, in order.
  function familyByCard(card) {
    card = card.toUpperCase();
    return state.tour && state.tour.families.filter(function (f) { return f.card.toUpperCase() === card; })[0];
  }
  function familyById(id) { return state.tour.families.filter(function (f) { return f.id === id; })[0]; }
  function copyByBarcode(code) {
    return state.tour && state.tour.copies.filter(function (c) { return c.barcode === code; })[0];
  }
  function live() { return state.actions.filter(function (a) { return a.status !== "conflict"; }); }
  function loanOf(copy) {
    var loan = copy.loan ? { loan: copy.loan.id, family: copy.loan.family } : null;
    live().forEach(function (a) {
      if (a.barcode !== copy.barcode) { return; }
      if (a.kind === "lend") { loan = { lend: a.id, family: a.family }; }
      if (a.kind === "return") { loan = null; }
    });
    return loan;
  }
  function openLoans(family) {
    var count = family.open_loans;
    live().forEach(function (a) {
      if (a.kind === "lend" && a.family === family.id) { count += 1; }
      if (a.kind === "return" && a.family === family.id) { count -= 1; }
    });
    return count;
  }
  function typeOf(family) { return state.tour.types.filter(function (t) { return t.id === family.type; })[0]; }
  // The copy's kind when it has rules of its own (a quota per family, a deposit), else undefined.
  function kindOf(copy) {
    return (state.tour.kinds || []).filter(function (k) { return k.id === copy.kind; })[0];
  }
  function kindLoans(family, kind) {
    var count = (family.kind_loans || {})[String(kind.id)] || 0;
    live().forEach(function (a) {
      var copy = copyByBarcode(a.barcode);
      if (a.family !== family.id || !copy || copy.kind !== kind.id) { return; }
      if (a.kind === "lend") { count += 1; }
      if (a.kind === "return") { count -= 1; }
    });
    return count;
  }
  function euros(amount) {
    return new Intl.NumberFormat(lang, { style: "currency", currency: "EUR" }).format(Number(amount));
  }

  // Showing.
  function message(text, kind) {
    var p = $("tour-message");
    p.textContent = text;
    p.className = "message message-" + (kind || "info");
    p.hidden = !text;
  }
  function showNetwork() {
    var p = $("tour-network");
    p.textContent = navigator.onLine ? TEXT.online : TEXT.offline;
    p.className = "tour-network " + (navigator.onLine ? "online" : "offline-mark");
  }
  function showAge() {
    var tour = state.tour;
    if (!tour) { $("tour-age").textContent = TEXT.no_tour; return; }
    var at = new Date(tour.prepared_at);
    var minutes = Math.round((at.getTime() - Date.now()) / 60000);
    var age = Math.abs(minutes) < 120 ? new Intl.RelativeTimeFormat(lang, { numeric: "auto" }).format(minutes, "minute")
      : new Intl.RelativeTimeFormat(lang, { numeric: "auto" }).format(Math.round(minutes / 60), "hour");
    $("tour-age").textContent = say("prepared", {
      site: tour.site.name, families: tour.families.length, copies: tour.copies.length, age: age,
      date: at.toLocaleString(lang, { dateStyle: "short", timeStyle: "short" })
    });
    $("tour-site").value = String(tour.site.id);
  }
  function describe(a) {
    var copy = copyByBarcode(a.barcode) || { title: "?", barcode: a.barcode };
    var values = { game: copy.title, barcode: a.barcode, family: a.familyName, who: a.familyName || TEXT.non_member,
      children: a.children, adults: a.adults };
    return say(a.kind + "_action", values);
  }
  function showJournal() {
    var list = $("tour-journal");
    list.textContent = "";
    state.actions.slice().reverse().forEach(function (a) {
      var item = document.createElement("li");
      var mark = document.createElement("span");
      item.textContent = describe(a) + " — ";
      item.className = "tour-action tour-" + (a.status || "pending");
      mark.className = a.status ? "tour-status" : "offline-mark";
      mark.textContent = a.status ? a.label + (a.reason ? " : " + a.reason : "") : TEXT.pending;
      item.appendChild(mark);
      list.appendChild(item);
    });
  }
  function showFamily() {
    var f = state.family;
    $("tour-family").textContent = f ? say("family", { family: f.name, card: f.card,
      left: Math.max(0, typeOf(f).quota - openLoans(f)) }) : "";
  }

  // Recording an action: kept here first, then sent if the network is there.
  function record(action) {
    return store("tour", "readwrite", function (s) { return s.get("sequence"); }).then(function (last) {
      action.id = uuid();
      action.sequence = (last || 0) + 1;
      action.recorded_at = new Date().toISOString();
      action.site = state.tour.site.id;
      state.actions.push(action);
      return store("tour", "readwrite", function (s) { return s.put(action.sequence, "sequence"); });
    }).then(function () { return save(action); }).then(function () {
      showJournal();
      showFamily();
      send();
    });
  }

  function lend(family, copy) {
    var values = { family: family.name, game: copy.title, barcode: copy.barcode, status: copy.status };
    var kind = typeOf(family);
    if (!(family.start <= today() && today() <= family.expiry)) { return message(say("membership_ended", values), "error"); }
    if (!copy.lendable) { return message(say("not_lendable", values), "error"); }
    if (copy.set_aside_for && copy.set_aside_for !== family.id) { return message(say("set_aside", values), "error"); }
    if (openLoans(family) >= kind.quota) { return message(say("quota_reached", values), "error"); }
    if (family.late_loans && kind.refuse_when_late) { return message(say("late_refused", values), "error"); }
    var rules = kindOf(copy);
    if (rules) {
      values.kind = rules.name; values.quota = rules.quota; values.amount = euros(rules.deposit);
      if (rules.quota !== null && kindLoans(family, rules) >= rules.quota) {
        return message(say("kind_quota_reached", values), "error");
      }
      if (rules.deposit) { return askDeposit(family, copy, values); }
    }
    return lendNow(family, copy, values, {});
  }
  function lendNow(family, copy, values, deposit) {
    var text = deposit.method ? say("lent_deposit", values) : say("lent", values);
    message(text + (family.late_loans ? " " + say("late_warned", values) : ""), "success");
    return record({ kind: "lend", card: family.card, barcode: copy.barcode, family: family.id, familyName: family.name,
      deposit_method: deposit.method || "", deposit_cheque_number: deposit.cheque || "" });
  }

  // A copy whose kind asks a deposit goes out once the clerk says how the family pays it.
  function askDeposit(family, copy, values) {
    state.lending = { family: family, copy: copy, values: values };
    $("tour-deposit-title").textContent = say("deposit_asked", values);
    $("tour-deposit-method").value = "";
    $("tour-deposit-cheque").value = "";
    $("tour-deposit").hidden = false;
    $("tour-deposit-method").focus();
  }
  function lendWithDeposit(event) {
    event.preventDefault();
    var lending = state.lending, method = $("tour-deposit-method").value, cheque = $("tour-deposit-cheque").value.trim();
    if (!lending) { return; }
    if (method === "cheque" && !cheque) { return message(TEXT.cheque_number_needed, "error"); }
    var select = $("tour-deposit-method");
    lending.values.method = select.options[select.selectedIndex].text;
    $("tour-deposit").hidden = true;
    state.lending = null;
    lendNow(lending.family, lending.copy, lending.values, { method: method, cheque: method === "cheque" ? cheque : "" });
    $("tour-code").focus();
  }

  function openReturn(copy, loan) {
    state.copy = { copy: copy, loan: loan };
    $("tour-return-title").textContent = say("return_action", { game: copy.title, barcode: copy.barcode });
    var body = $("tour-pieces");
    body.textContent = "";
    copy.pieces.forEach(function (piece) {
      var row = body.insertRow();
      var input = document.createElement("input");
      row.insertCell().textContent = piece.label;
      row.insertCell().textContent = piece.quantity;
      input.type = "number"; input.min = 0; input.max = piece.quantity; input.value = 0;
      input.dataset.component = piece.id;
      input.setAttribute("aria-label", piece.label);
      row.insertCell().appendChild(input);
    });
    $("tour-playable").checked = false;
    $("tour-return").hidden = false;
  }

  function scan(event) {
    event.preventDefault();
    var code = $("tour-code").value.trim();
    $("tour-code").value = "";
    $("tour-return").hidden = true;
    $("tour-deposit").hidden = true;
    state.lending = null;
    message("");
    var family = familyByCard(code);
    var copy = copyByBarcode(code);
    if (family) { state.family = family; showFamily(); return; }
    if (!copy) { return message(say("unknown_code", { code: code }), "error"); }
    var loan = loanOf(copy);
    if (loan) { return openReturn(copy, loan); }
    if (!state.family) { return message(say("scan_card_first", { game: copy.title, barcode: copy.barcode }), "error"); }
    lend(state.family, copy);
  }

  function takeBack(event) {
    event.preventDefault();
    var complete = event.submitter && event.submitter.name === "complete";
    var copy = state.copy.copy, loan = state.copy.loan, family = familyById(loan.family) || {};
    var missing = [];
    Array.prototype.forEach.call($("tour-pieces").querySelectorAll("input"), function (input) {
      var count = Math.min(Number(input.max), Math.max(0, parseInt(input.value, 10) || 0));
      if (count && !complete) { missing.push({ component: Number(input.dataset.component), quantity: count }); }
    });
    $("tour-return").hidden = true;
    var rules = kindOf(copy), text = say(missing.length ? "returned_missing" : "returned", { game: copy.title, barcode: copy.barcode });
    if (rules && rules.deposit) { text += " " + say("deposit_give_back", { amount: euros(rules.deposit) }); }
    message(text, "success");
    record({ kind: "return", barcode: copy.barcode, loan: loan.loan || null, lend: loan.lend || null,
      missing: missing, playable_anyway: $("tour-playable").checked && !complete,
      family: loan.family, familyName: family.name });
    $("tour-code").focus();
  }

  function countVisit(event) {
    event.preventDefault();
    var children = parseInt($("tour-children").value, 10) || 0, adults = parseInt($("tour-adults").value, 10) || 0;
    if (children + adults < 1) { return message(TEXT.visit_nobody, "error"); }
    var f = state.family;
    message(say("visit", { who: f ? f.name : TEXT.non_member, children: children, adults: adults }), "success");
    record({ kind: "visit", card: f ? f.card : "", children: children, adults: adults,
      family: f ? f.id : null, familyName: f ? f.name : "" });
    $("tour-children").value = 0;
    $("tour-adults").value = 0;
  }

  // Sending: the actions not yet answered, in their order; each answer is kept with its action.
  function csrf() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }
  function send() {
    var pending = state.actions.filter(function (a) { return !a.status; });
    if (state.sending || !pending.length || !navigator.onLine) { return Promise.resolve(); }
    state.sending = true;
    $("tour-sync").textContent = TEXT.sending;
    var body = pending.slice(0, 200).map(function (a) {
      return { id: a.id, kind: a.kind, site: a.site, sequence: a.sequence, recorded_at: a.recorded_at, card: a.card || "",
        barcode: a.barcode || "", loan: a.loan || null, lend: a.lend || null, missing: a.missing || [],
        playable_anyway: !!a.playable_anyway, children: a.children || 0, adults: a.adults || 0,
        deposit_method: a.deposit_method || "", deposit_cheque_number: a.deposit_cheque_number || "" };
    });
    return fetch(script.dataset.sync, {
      method: "POST", credentials: "same-origin", redirect: "manual",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify({ actions: body })
    }).then(function (response) {
      if (response.type === "opaqueredirect" || response.status === 403) { throw new Error(TEXT.login_needed); }
      return response.json().then(function (data) {
        if (!response.ok) { throw new Error(say("send_failed", { reason: JSON.stringify(data.errors) })); }
        return data;
      });
    }).then(function (data) {
      var conflicts = 0;
      data.results.forEach(function (result) {
        var a = state.actions.filter(function (x) { return x.id === result.id; })[0];
        a.status = result.status; a.label = result.label; a.reason = result.reason;
        conflicts += result.status === "conflict";
        save(a);
      });
      $("tour-sync").textContent = say("sent", { count: data.results.length }) +
        (conflicts ? " " + say("conflicts", { count: conflicts }) : "");
      state.sending = false;
      showJournal();
      showFamily();
      return send();
    }).catch(function (error) {
      state.sending = false;
      $("tour-sync").textContent = navigator.onLine && error.message ? error.message : "";
    });
  }

  // Preparing: the site's data replaces the last tour's; actions already answered are let go.
  function prepare(event) {
    event.preventDefault();
    var url = script.dataset.download.replace(/0\/$/, $("tour-site").value + "/");
    message(TEXT.preparing);
    fetch(url, { credentials: "same-origin", redirect: "manual", cache: "no-store" }).then(function (response) {
      if (!response.ok) { throw new Error(); }
      return response.json();
    }).then(function (tour) {
      state.tour = tour;
      state.family = null;
      var answered = state.actions.filter(function (a) { return a.status; });
      state.actions = state.actions.filter(function (a) { return !a.status; });
      return Promise.all([store("tour", "readwrite", function (s) { return s.put(tour, "current"); })].concat(
        answered.map(function (a) { return store("actions", "readwrite", function (s) { return s.delete(a.id); }); })));
    }).then(function () {
      message("");
      showAge();
      showJournal();
      showFamily();
    }).catch(function () { message(TEXT.prepare_failed, "error"); });
  }

  function start() {
    return Promise.all([
      store("tour", "readonly", function (s) { return s.get("current"); }),
      store("actions", "readonly", function (s) { return s.getAll(); })
    ]).then(function (found) {
      state.tour = found[0] || null;
      state.actions = found[1].sort(function (a, b) { return a.sequence - b.sequence; });
      var keep = Number(script.dataset.keepDays) * DAY;
      if (state.tour && Date.now() - new Date(state.tour.prepared_at).getTime() > keep) {
        // Past its time on the device: the families' data goes; actions not yet sent stay.
        state.tour = null;
        message(say("expired", { days: script.dataset.keepDays }), "info");
        return store("tour", "readwrite", function (s) { return s.delete("current"); });
      }
    }).then(function () {
      showAge();
      showJournal();
      send();
    });
  }

  showNetwork();
  window.addEventListener("online", function () { showNetwork(); send(); });
  window.addEventListener("offline", showNetwork);
  $("tour-prepare").addEventListener("submit", prepare);
  $("tour-scan").addEventListener("submit", function (event) {
    if (!state.tour) { event.preventDefault(); return message(TEXT.no_tour, "error"); }
    scan(event);
  });
  $("tour-return").addEventListener("submit", takeBack);
  $("tour-deposit").addEventListener("submit", lendWithDeposit);
  $("tour-deposit-cancel").addEventListener("click", function () {
    $("tour-deposit").hidden = true;
    state.lending = null;
    message("");
    $("tour-code").focus();
  });
  $("tour-visit").addEventListener("submit", function (event) {
    if (!state.tour) { event.preventDefault(); return message(TEXT.no_tour, "error"); }
    countVisit(event);
  });
  $("tour-send").addEventListener("click", send);
  openDb().then(function (opened) { db = opened; return start(); }).then(function () {
    document.body.dataset.tourReady = "1";
  });
})();
