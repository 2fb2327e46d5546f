/* The desk's print views: drawn on the server (service/api/desk_print.py); the script only
   opens the browser's print dialog from the page's Print button (no inline handler: the
   Content-Security-Policy runs this host's script files only). */
"use strict";

Paiju.run(() => {
  for (const button of document.querySelectorAll("[data-print]")) {
    button.addEventListener("click", () => window.print());
  }
  Paiju.status("");
});
