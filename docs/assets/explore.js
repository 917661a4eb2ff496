/* ddl-catalog site script: the Explore table and permalinks of entries moved to a later page.
 * Plain JavaScript, no framework. Text reaches the page only through textContent, never HTML. */
(function () {
  "use strict";

  /* A card on a split category page: /<top>/#<id> holds a stub that points to its part, or,
   * for the lines a long page leaves out, the page's JSON map (script.ddl-moved-map) does. */
  function followMoved() {
    if (!location.hash) return;
    var id = decodeURIComponent(location.hash.slice(1));
    var target = document.getElementById(id);
    var moved = target && target.getAttribute("data-ddl-moved");
    var map = !target && document.querySelector("script.ddl-moved-map");
    if (map) {
      try { moved = JSON.parse(map.textContent)[id] || null; } catch (error) { moved = null; }
      if (typeof moved !== "string") moved = null;
    }
    if (moved && !/^[a-z][a-z0-9+.-]*:/i.test(moved)) {
      location.replace(new URL(moved, location.href).href);
    }
  }

  function internal(href) {
    return typeof href === "string" && !/^[a-z][a-z0-9+.-]*:/i.test(href) && href.indexOf("//") !== 0;
  }

  function cell(text) {
    var td = document.createElement("td");
    td.textContent = text == null ? "" : String(text);
    return td;
  }

  /* The Explore view's state lives in the address bar under names no theme feature reads
   * (Material's search reads ?q= and ?h=): kind, category, tag, from, to, text and sort. */
  var FILTERS = ["kind", "category", "from", "to", "tag", "state", "text"];
  var current = null;   /* the Explore view on this page, if any: {root, restore} */

  function setupExplore(root) {
    if (root.getAttribute("data-ready")) return;
    root.setAttribute("data-ready", "loading");
    var form = root.querySelector("form");
    var tbody = root.querySelector("tbody");
    var count = root.querySelector("[data-ddl-count]");
    var sort = { key: "t", dir: 1 };
    var data = null;
    var typing = null;    /* the field being typed in: its keystrokes share one history entry */
    current = {
      root: root,
      path: location.pathname,
      restore: function () {
        if (!data) return;
        dropUnwritten(); readQuery(); render();
        if (form.elements.text.value.trim()) loadWords();
      }
    };

    fetch(new URL(root.getAttribute("data-index"), location.href).href)
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (index) {
        data = index;
        data.kindLabel = {};
        index.kinds.forEach(function (k) { data.kindLabel[k[0]] = k[1]; });
        data.stateLabel = {};
        (index.states || []).forEach(function (s) { data.stateLabel[s[0]] = s[1]; });
        data.categoryTitle = {};
        index.categories.forEach(function (c) { data.categoryTitle[c[0]] = c[1]; });
        /* Lower-cased once, not on every keystroke: the text filter's haystack and the title
         * the sort compares. Authors and descriptions join the haystack when the text filter
         * is first used (loadWords). */
        index.entries.forEach(function (row) {
          row.lower = row.t.toLowerCase();
          row.haystack = row.lower + " " + row.id.toLowerCase();
        });
        readQuery();
        render();
        var ready = function () { root.setAttribute("data-ready", "true"); };
        if (form.elements.text.value.trim()) loadWords().then(ready);
        else ready();
      })
      .catch(function (error) {
        root.setAttribute("data-ready", "error");
        count.textContent = "?";
        var p = document.createElement("p");
        p.textContent = "Could not load the catalog index (" + error.message + ").";
        root.appendChild(p);
      });

    /* The authors and description of every entry (explore/text.json, about 40% of what the
     * index would weigh), fetched the first time the text filter is used: a view that filters
     * by kind, category or tag never pays for them (at 5,000 entries, one long task less for
     * a phone at load). Until they arrive the text filter matches titles and ids; the table
     * is drawn again when they come. The promise settles once they are in or failed to come;
     * after a failure the next use of the field tries again. */
    var words = null;
    function loadWords() {
      if (words) return words;
      root.setAttribute("data-text", "loading");
      words = fetch(new URL(root.getAttribute("data-text-index"), location.href).href)
        .then(function (response) {
          if (!response.ok) throw new Error("HTTP " + response.status);
          return response.json();
        })
        .then(function (text) {
          data.entries.forEach(function (row) {
            var more = text[row.id];
            if (typeof more === "string") row.haystack += " " + more.toLowerCase();
          });
          root.setAttribute("data-text", "ready");
          if (form.elements.text.value.trim()) render();
        })
        .catch(function () {
          words = null;   /* titles only until the next try */
          root.setAttribute("data-text", "error");
        });
      return words;
    }

    /* Set every filter and the sort from the address (absent ones to their defaults). */
    function readQuery() {
      var params = new URLSearchParams(location.search);
      FILTERS.forEach(function (name) {
        if (form.elements[name]) form.elements[name].value = params.get(name) || "";
      });
      var spec = params.get("sort") || "";
      var key = spec.replace(/^-/, "");
      sort.key = ["t", "k", "y", "c", "m"].indexOf(key) >= 0 ? key : "t";
      sort.dir = spec.charAt(0) === "-" ? -1 : 1;
      typing = null;
    }

    function queryUrl() {
      var params = new URLSearchParams();
      FILTERS.forEach(function (name) {
        var value = form.elements[name] ? form.elements[name].value.trim() : "";
        if (value) params.set(name, value);
      });
      if (sort.key !== "t" || sort.dir !== 1) params.set("sort", (sort.dir < 0 ? "-" : "") + sort.key);
      var query = params.toString();
      return location.pathname + (query ? "?" + query : "") + location.hash;
    }

    /* Show the rows, then record the view: "push" makes a new history entry (back undoes it),
     * "replace" updates the current one. The state object stays null, so Material's instant
     * navigation leaves these entries to this script. A "replace" (the later keystrokes of one
     * field) is written once typing pauses: each history call cost a slow phone about as much
     * as filtering 5,000 rows. Anything else first writes the one
     * not yet written, so no entry is lost. */
    var unwritten = null;   /* {timer, url}: the address of a "replace" not yet written */
    function update(mode) {
      render();
      var url = queryUrl();
      if (mode === "replace") {   /* supersedes the last keystroke's address */
        dropUnwritten();
        unwritten = { url: url, timer: setTimeout(flushUnwritten, 300) };
        return;
      }
      flushUnwritten();
      record(mode, url);
    }
    function record(mode, url) {
      if (url === location.pathname + location.search + location.hash) return;
      if (mode === "push") history.pushState(null, "", url);
      else history.replaceState(history.state, "", url);
    }
    function flushUnwritten() {
      if (!unwritten) return;
      var url = unwritten.url;
      dropUnwritten();
      record("replace", url);
    }
    function dropUnwritten() {
      if (unwritten) clearTimeout(unwritten.timer);
      unwritten = null;
    }

    function matches(row, f) {
      if (f.kind && row.k !== f.kind) return false;
      if (f.category && row.c.indexOf(f.category) < 0) return false;
      if (f.tag && row.g.indexOf(f.tag) < 0) return false;
      if (f.state) {
        var looked = row.m === "active" || row.m === "maintenance-only";
        if (f.state === "maintained" ? !looked
            : f.state === "not-maintained" ? (looked || !row.m || row.m === "unknown")
            : row.m !== f.state) return false;
      }
      if ((f.from || f.to) && row.y == null) return false;
      if (f.from && row.y < f.from) return false;
      if (f.to && row.y > f.to) return false;
      if (f.text) {
        if (row.haystack.indexOf(f.text) < 0) return false;
      }
      return true;
    }

    function sortValue(row) {
      if (sort.key === "y") return row.y;
      if (sort.key === "k") return data.kindLabel[row.k] || row.k;
      if (sort.key === "c") return data.categoryTitle[row.c[0]] || "";
      if (sort.key === "m") return row.m ? data.stateLabel[row.m] : null;
      return row.lower;
    }

    /* Every entry in the current sort order, worked out again only when the sort changes: a
     * filter keeps that order, so a keystroke costs one pass over the rows. The title order is
     * sorted once; any other column groups the rows by its value, each group in title order
     * (the tie-break), and sorts only the distinct values, a few dozen: a click on a header
     * costs one pass over the rows, not a sort of them (at 5,000 entries a sort with a
     * comparator took a throttled phone about 100 ms). Rows without a value go last either
     * way. */
    var byTitle = null;
    var order = null;
    var orderKey = "";
    function sortedEntries() {
      var key = sort.key + " " + sort.dir;
      if (order === null || key !== orderKey) {
        if (byTitle === null) {
          byTitle = data.entries.slice().sort(function (a, b) {
            return a.lower < b.lower ? -1 : a.lower > b.lower ? 1 : 0;
          });
        }
        if (sort.key !== "t") order = grouped();
        else order = sort.dir > 0 ? byTitle : byTitle.slice().reverse();
        orderKey = key;
      }
      return order;
    }

    function grouped() {
      var groups = new Map();
      var none = [];
      byTitle.forEach(function (row) {
        var value = sortValue(row);
        if (value == null) { none.push(row); return; }
        var group = groups.get(value);
        if (!group) { group = []; groups.set(value, group); }
        group.push(row);
      });
      var values = Array.from(groups.keys()).sort(function (x, y) {
        return x < y ? -sort.dir : x > y ? sort.dir : 0;
      });
      var rows = [];
      values.forEach(function (value) {
        groups.get(value).forEach(function (row) { rows.push(row); });
      });
      none.forEach(function (row) { rows.push(row); });
      return rows;
    }

    function tagLinks(tags) {
      var td = document.createElement("td");
      tags.forEach(function (tag, i) {
        if (i) td.appendChild(document.createTextNode(", "));
        var a = document.createElement("a");
        a.className = "ddl-tag-filter";
        a.textContent = tag;
        a.setAttribute("href", "?tag=" + encodeURIComponent(tag));
        a.setAttribute("data-tag", tag);
        td.appendChild(a);
      });
      return td;
    }

    /* Fill the table with the first rows that match: at most LIMIT, so that a keystroke
     * costs a phone the style and layout of a few rows, not thousands (25 rows fill a phone's
     * screen about three times; with 50, a keystroke that changed most rows took a throttled
     * phone 80-120 ms at 5,000 entries, most of it layout); "Show all" adds the rest in short
     * tasks (no long task on a slow phone either). A newer render cancels the chunks of an
     * older one. A row's elements are built once and kept, so typing back and forth reuses
     * them. */
    var generation = 0;
    var LIMIT = 25;
    var CHUNK = 100;
    var more = root.querySelector("[data-ddl-more]");
    var pending = [];
    function render() {
      var f = {
        kind: form.elements.kind.value,
        category: form.elements.category.value,
        tag: form.elements.tag.value,
        state: form.elements.state ? form.elements.state.value : "",
        from: parseInt(form.elements.from.value, 10) || 0,
        to: parseInt(form.elements.to.value, 10) || 0,
        text: form.elements.text.value.trim().toLowerCase()
      };
      var rows = sortedEntries().filter(function (row) { return matches(row, f); });
      generation++;
      place(rows.slice(0, LIMIT));
      pending = rows.slice(LIMIT);
      count.textContent = String(rows.length);
      showMore();
      root.querySelectorAll("th[aria-sort]").forEach(function (th) {
        var key = th.querySelector("button").getAttribute("data-sort");
        th.setAttribute("aria-sort", key !== sort.key ? "none" : sort.dir > 0 ? "ascending" : "descending");
      });
    }

    function showMore() {
      more.hidden = !pending.length;
      more.querySelector("button").textContent =
        "Show all " + (tbody.children.length + pending.length) + " entries";
    }

    more.querySelector("button").addEventListener("click", function () {
      var mine = generation;
      (function next() {
        if (mine !== generation) return;
        tbody.appendChild(build(pending.slice(0, CHUNK)));
        pending = pending.slice(CHUNK);
        if (pending.length) setTimeout(next, 0);
        else showMore();
      })();
    });

    /* Make the table's rows these, in this order, touching only the rows that change: a
     * keystroke usually keeps most of the rows shown, and a row left in place costs a slow
     * phone no style or layout work. */
    function place(rows) {
      var at = tbody.firstElementChild;
      rows.forEach(function (row) {
        if (!row.tr) row.tr = buildRow(row);
        if (row.tr === at) at = at.nextElementSibling;
        else tbody.insertBefore(row.tr, at);
      });
      while (at) {
        var next = at.nextElementSibling;
        tbody.removeChild(at);
        at = next;
      }
    }

    function build(rows) {
      var fragment = document.createDocumentFragment();
      rows.forEach(function (row) {
        if (!row.tr) row.tr = buildRow(row);
        fragment.appendChild(row.tr);
      });
      return fragment;
    }

    function buildRow(row) {
      var tr = document.createElement("tr");
      tr.setAttribute("data-id", row.id);
      var title = document.createElement("td");
      var link = document.createElement("a");
      link.textContent = row.t;
      if (internal(row.h)) link.setAttribute("href", row.h);
      title.appendChild(link);
      tr.appendChild(title);
      tr.appendChild(cell(data.kindLabel[row.k] || row.k));
      tr.appendChild(cell(row.y));
      tr.appendChild(cell(data.categoryTitle[row.c[0]] || row.c[0]));
      tr.appendChild(tagLinks(row.g));
      tr.appendChild(cell(row.m ? data.stateLabel[row.m] : ""));
      return tr;
    }

    form.elements.text.addEventListener("focus", function () { if (data) loadWords(); });
    form.addEventListener("input", function (event) {
      if (!data || event.target.tagName === "SELECT") return;   /* selects: on "change" */
      if (event.target === form.elements.text) loadWords();
      var mode = typing === event.target ? "replace" : "push";
      typing = event.target;
      update(mode);
    });
    form.addEventListener("change", function () {
      if (!data) return;
      typing = null;
      update("push");
    });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.addEventListener("reset", function () {
      setTimeout(function () { if (data) { typing = null; update("push"); } }, 0);
    });
    root.querySelectorAll("button[data-sort]").forEach(function (button) {
      button.addEventListener("click", function () {
        var key = button.getAttribute("data-sort");
        sort.dir = sort.key === key ? -sort.dir : 1;
        sort.key = key;
        typing = null;
        if (data) update("push");
      });
    });
    /* A tag in the table filters by that tag in place (before Material's instant navigation
     * sees the click: it would only push the address). */
    tbody.addEventListener("click", function (event) {
      var a = event.target.closest && event.target.closest("a[data-tag]");
      if (!a || !data || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      event.stopPropagation();
      form.elements.tag.value = a.getAttribute("data-tag");
      typing = null;
      update("push");
    });
  }

  /* The Compare page: the table is in the HTML (readable without JavaScript); the form hides
   * the rows that lack a needed capability and reorders them, and keeps its state in the
   * address bar (need=a,b, partial=1, maintained=1, sort=most), as Explore does. Of the rows
   * that match, the first data-first show; "Show all" shows the rest (a long matrix costs a
   * phone its layout otherwise: the stylesheet hides the later rows until this runs). */
  function setupCompare(root) {
    if (root.getAttribute("data-ready")) return;
    var form = root.querySelector("form");
    var tbody = root.querySelector("tbody");
    var count = root.querySelector("[data-ddl-count]");
    var more = root.querySelector("[data-ddl-more]");
    var first = parseInt(root.getAttribute("data-first"), 10) || Infinity;
    var expanded = false;
    var reordered = false;
    var rows = Array.prototype.slice.call(tbody.querySelectorAll("tr"));
    rows.forEach(function (tr) {
      var cells = {};
      tr.getAttribute("data-cells").split(" ").forEach(function (pair) {
        var at = pair.indexOf("=");
        cells[pair.slice(0, at)] = pair.slice(at + 1);
      });
      tr.ddlCells = cells;
    });
    var boxes = Array.prototype.slice.call(form.querySelectorAll("input[name=need]"));

    function readQuery() {
      var params = new URLSearchParams(location.search);
      var need = (params.get("need") || "").split(",");
      boxes.forEach(function (box) { box.checked = need.indexOf(box.value) >= 0; });
      form.elements.partial.checked = params.get("partial") === "1";
      form.elements.maintained.checked = params.get("maintained") === "1";
      form.elements.sort.value = params.get("sort") === "most" ? "most" : "";
    }

    function queryUrl() {
      var params = new URLSearchParams();
      var need = boxes.filter(function (box) { return box.checked; }).map(function (box) { return box.value; });
      if (need.length) params.set("need", need.join(","));
      if (form.elements.partial.checked) params.set("partial", "1");
      if (form.elements.maintained.checked) params.set("maintained", "1");
      if (form.elements.sort.value) params.set("sort", form.elements.sort.value);
      var query = params.toString();
      return location.pathname + (query ? "?" + query : "") + location.hash;
    }

    function score(tr, partial) {
      var n = 0;
      Object.keys(tr.ddlCells).forEach(function (key) {
        var v = tr.ddlCells[key];
        if (v === "yes") n += 2;
        else if (v === "partial" && partial) n += 1;
      });
      return n;
    }

    function render() {
      var need = boxes.filter(function (box) { return box.checked; }).map(function (box) { return box.value; });
      var partial = form.elements.partial.checked;
      var maintained = form.elements.maintained.checked;
      var ordered = rows;
      if (form.elements.sort.value === "most") {
        ordered = rows.slice().sort(function (a, b) {
          return score(b, partial) - score(a, partial) ||
            (a.getAttribute("data-name") < b.getAttribute("data-name") ? -1 : 1);
        });
      }
      if (ordered !== rows || reordered) {   /* the HTML's order needs no moving */
        ordered.forEach(function (tr) { tbody.appendChild(tr); });
        reordered = ordered !== rows;
      }
      var matched = 0;
      ordered.forEach(function (tr) {
        var ok = need.every(function (key) {
          var v = tr.ddlCells[key];
          return v === "yes" || (partial && v === "partial");
        });
        if (maintained && tr.getAttribute("data-maintained") !== "yes") ok = false;
        if (ok) matched++;
        tr.hidden = !ok || (!expanded && matched > first);
      });
      count.textContent = String(matched);
      more.hidden = expanded || matched <= first;
      more.querySelector("button").textContent = "Show all " + matched + " frameworks";
    }

    function update() {
      render();
      var url = queryUrl();
      if (url !== location.pathname + location.search + location.hash) {
        history.pushState(null, "", url);
      }
    }

    form.hidden = false;
    readQuery();
    render();
    rows.forEach(function (tr) { tr.classList.remove("ddl-later"); });   /* hidden says it now */
    more.querySelector("button").addEventListener("click", function () {
      expanded = true;
      render();
    });
    form.addEventListener("change", update);
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.addEventListener("reset", function () { setTimeout(update, 0); });
    current = {
      root: root,
      path: location.pathname,
      restore: function () { readQuery(); render(); }
    };
    root.setAttribute("data-ready", "true");
  }

  function onPage() {
    followMoved();
    var root = document.getElementById("ddl-explore");
    var compare = document.getElementById("ddl-compare");
    if (root) setupExplore(root);
    else if (compare) setupCompare(compare);
    else current = null;
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(onPage);   /* Material's instant loading: runs on every page */
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", onPage);
  } else {
    onPage();
  }
  window.addEventListener("hashchange", followMoved);
  /* Back and forward between Explore views of the same page restore that view's filters. The
   * listener that calls this is registered in the page's head (overrides/main.html), ahead of
   * Material's instant navigation, which would otherwise fetch and swap the page again (and
   * empty the table meanwhile); returning true stops the event there. */
  window.ddlCatalogPopstate = function () {
    if (!current || !document.body.contains(current.root)) return false;
    if (location.pathname !== current.path) return false;
    current.restore();
    return true;
  };
})();
