/* « Copier l'adresse »: a button[data-copy] puts its text on the clipboard and says so in the element
   its aria-describedby names (data-done, data-failed). Without this script the button stays hidden
   and the address can be read and selected under « Voir l'adresse ». */
(function () {
  "use strict";
  function say(button, key) {
    var status = document.getElementById(button.getAttribute("aria-describedby"));
    if (status) {
      status.textContent = status.dataset[key];
    }
  }
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    if (!navigator.clipboard) {
      return;  // no clipboard here (an old browser, a page not served over HTTPS): the button stays hidden
    }
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(button.dataset.copy).then(
        function () { say(button, "done"); },
        function () { say(button, "failed"); }
      );
    });
  });
})();
