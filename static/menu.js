// The header's menu on a phone (a details element, which opens and closes without this
// script): Escape closes it too and gives the keyboard back to its button, as menus do.
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var menu = document.querySelector("header details.menu[open]");
    if (!menu) return;
    menu.open = false;
    var button = menu.querySelector("summary");
    if (button) button.focus();
  });
})();
