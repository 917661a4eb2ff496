/* ddl-catalog site script: re-sorting a page's cards or lines (the "Sort this page" control).
 * The page comes in the catalog's reading order (start-here picks, then by kind: the sentence
 * above the cards says so); without JavaScript it stays so. With it, the reader can sort the
 * page newest first, oldest first, by kind or by title; ids and anchors are kept, so a
 * permalink still lands on its card, and ?sort= in the address keeps the choice for a shared
 * link. Plain JavaScript; nothing from the data reaches the page as HTML. */
(function () {
  "use strict";

  var ORDERS = ["suggested", "newest", "oldest", "kind", "title"];

  /* The items of a group: cards directly inside it or inside its deferred box, or lines of a
   * list. Each remembers its place in the reading order the first time it is seen. */
  function itemsOf(group) {
    var items = Array.prototype.slice.call(group.querySelectorAll("[data-ddl-sort-item]"));
    items.forEach(function (item, index) {
      if (!item.hasAttribute("data-ddl-place")) item.setAttribute("data-ddl-place", String(index));
    });
    return items;
  }

  function number(item, name) {
    var value = item.getAttribute(name);
    return value === null || value === "" ? null : Number(value);
  }

  function title(item) {
    return (item.getAttribute("data-ddl-title") || "").toLocaleLowerCase();
  }

  function comparator(order) {
    var place = function (a, b) { return number(a, "data-ddl-place") - number(b, "data-ddl-place"); };
    if (order === "newest" || order === "oldest") {
      var sign = order === "newest" ? -1 : 1;
      return function (a, b) {
        var x = number(a, "data-ddl-year"), y = number(b, "data-ddl-year");
        if (x === null || y === null) return x === y ? place(a, b) : (x === null ? 1 : -1);
        return x !== y ? sign * (x - y) : place(a, b);
      };
    }
    if (order === "kind") {
      return function (a, b) {
        return (number(a, "data-ddl-kind") - number(b, "data-ddl-kind")) || place(a, b);
      };
    }
    if (order === "title") {
      return function (a, b) { return title(a).localeCompare(title(b)) || place(a, b); };
    }
    return place;
  }

  /* Put a group's items in order. Cards keep the page's split: as many as were laid out at
   * once stay before the deferred box (extra.css: .ddl-deferred), the rest go inside it. */
  function sortGroup(group, order) {
    var items = itemsOf(group).sort(comparator(order));
    var deferred = group.querySelector(":scope > .ddl-deferred");
    if (!deferred) {
      items.forEach(function (item) { group.appendChild(item); });
      return;
    }
    var eager = Number(group.getAttribute("data-ddl-eager") || "0");
    items.forEach(function (item, index) {
      if (index < eager) group.insertBefore(item, deferred);
      else deferred.appendChild(item);
    });
  }

  function readOrder() {
    var asked = new URLSearchParams(location.search).get("sort");
    return ORDERS.indexOf(asked) > 0 ? asked : "suggested";
  }

  function apply(order) {
    document.querySelectorAll("[data-ddl-sort-group]").forEach(function (group) {
      sortGroup(group, order);
    });
  }

  function setup() {
    var controls = document.querySelectorAll("select[data-ddl-sort]");
    if (!controls.length) return;
    var order = readOrder();
    if (order !== "suggested") {
      apply(order);
      /* The address's anchor may now sit elsewhere on the page: go to it again. */
      if (location.hash) {
        var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
        if (target) target.scrollIntoView();
      }
    }
    controls.forEach(function (select) {
      select.value = order;
      var box = select.closest("[hidden]");
      if (box) box.hidden = false;
      select.addEventListener("change", function () {
        var chosen = ORDERS.indexOf(select.value) >= 0 ? select.value : "suggested";
        apply(chosen);
        controls.forEach(function (other) { other.value = chosen; });
        var url = new URL(location.href);
        if (chosen === "suggested") url.searchParams.delete("sort");
        else url.searchParams.set("sort", chosen);
        history.replaceState(history.state, "", url.href);
      });
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
