/* On staff's pages: install the desk's service worker (the ludobus page then opens without network),
   and at logout delete what the ludobus desk keeps in this browser, asking first when some of its
   actions are not sent yet (the logout's answer, with Clear-Site-Data, deletes it too). */
(function () {
  "use strict";
  var script = document.currentScript;
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(script.dataset.worker, { scope: script.dataset.scope }).catch(function () {});
  }

  function unsentCount() {
    return new Promise(function (resolve) {
      var request = indexedDB.open("ludobus", 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore("tour");
        request.result.createObjectStore("actions", { keyPath: "id" });
      };
      request.onsuccess = function () {
        var db = request.result;
        var all = db.transaction("actions", "readonly").objectStore("actions").getAll();
        all.onsuccess = function () {
          db.close();
          resolve(all.result.filter(function (a) { return !a.status; }).length);
        };
        all.onerror = function () { db.close(); resolve(0); };
      };
      request.onerror = function () { resolve(0); };
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.getAttribute("action") !== script.dataset.logout || form.dataset.cleared) {
      return;
    }
    event.preventDefault();
    unsentCount().then(function (count) {
      if (count && !window.confirm(script.dataset.unsent)) {
        return;
      }
      var deletion = indexedDB.deleteDatabase("ludobus");
      deletion.onsuccess = deletion.onerror = deletion.onblocked = function () {
        form.dataset.cleared = "1";
        form.submit();
      };
    });
  });
})();
