/* The desk's keyboard shortcuts: Alt+C presses the button whose accesskey is "c" (« Tout est complet »)
   in every browser, whatever its own accesskey modifier; the page works without this script. */
(function () {
  "use strict";
  var sent = false;
  document.addEventListener("keydown", function (event) {
    if (!event.altKey || event.ctrlKey || event.metaKey || event.code !== "KeyC") {
      return;
    }
    var button = document.querySelector("button[accesskey='c']");
    if (!button) {
      return;
    }
    event.preventDefault();  // the browser's own accesskey would press it a second time
    if (!sent) {
      sent = true;
      button.click();
    }
  });
})();
