/* The desk's service worker (scope /comptoir/): it keeps the ludobus page and its assets, and serves
   that page to any desk address the network cannot reach. It never keeps a family's data: that
   lives in the page's IndexedDB, and the tour's download and sync are never cached. */
"use strict";
var CACHE = "ludobus-{{ version }}";
var SHELL = "{{ shell|escapejs }}";
var ASSETS = [{% for asset in assets %}"{{ asset|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) { return cache.addAll([SHELL].concat(ASSETS)); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) { return key !== CACHE; }).map(function (key) {
        return caches.delete(key);
      }));
    }).then(function () { return self.clients.claim(); })
  );
});

function keepShell(response) {
  if (response.ok && !response.redirected) {
    var copy = response.clone();
    caches.open(CACHE).then(function (cache) { cache.put(SHELL, copy); });
  }
  return response;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) {
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(
      fetch(request).then(function (response) {
        return url.pathname === SHELL ? keepShell(response) : response;
      }).catch(function () { return caches.match(SHELL); })
    );
  } else if (ASSETS.indexOf(url.pathname) !== -1) {
    event.respondWith(
      fetch(request).catch(function () { return caches.match(url.pathname); })
    );
  }
});
