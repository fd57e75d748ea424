/* The search page: Pagefind's interface over every shard of the index (pagefind/shards.json names
   them; the first is the primary bundle, the others are merged into it), searching at once for ?q=
   (what the search box of any page sent). */
window.addEventListener("DOMContentLoaded", function () {
  fetch("pagefind/shards.json").then(function (r) { return r.json(); }).then(function (shards) {
    if (!shards.length) { return; }
    function bundle(shard) { return new URL("pagefind/" + shard + "/", document.baseURI).href; }
    var ui = new PagefindUI({
      element: "#search", showSubResults: true, resetStyles: false, bundlePath: bundle(shards[0]),
      mergeIndex: shards.slice(1).map(function (shard) { return { bundlePath: bundle(shard) }; })
    });
    var q = new URLSearchParams(window.location.search).get("q");
    if (q) { ui.triggerSearch(q); }
  });
});
