/* The search page: Pagefind's interface, searching at once for ?q= (what the search box of any page sent). */
window.addEventListener("DOMContentLoaded", function () {
  var ui = new PagefindUI({ element: "#search", showSubResults: true, resetStyles: false });
  var q = new URLSearchParams(window.location.search).get("q");
  if (q) { ui.triggerSearch(q); }
});
