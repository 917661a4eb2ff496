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
   * (the site's search reads ?q=, Material's ?h=): kind, category, tag, tagmode, venue, from,
   * to, state, text and sort. Topics and tags take several values (repeated in the address;
   * "a,b" is read too). */
  var FILTERS = ["kind", "category", "tag", "tagmode", "venue", "from", "to", "state", "text"];
  var MULTI = { category: true, tag: true };
  var SOFTWARE = { framework: true, library: true };

  /* The values of a filter as the form holds them: a list for checkboxes, else a string. */
  function fieldValue(form, name) {
    var field = form.elements[name];
    if (!field) return MULTI[name] ? [] : "";
    if (MULTI[name]) {
      var boxes = field.length !== undefined ? Array.prototype.slice.call(field) : [field];
      return boxes.filter(function (box) { return box.checked; })
        .map(function (box) { return box.value; });
    }
    return typeof field.value === "string" ? field.value.trim() : "";
  }

  function setField(form, name, values) {
    var field = form.elements[name];
    if (!field) return;
    if (MULTI[name]) {
      var boxes = field.length !== undefined ? Array.prototype.slice.call(field) : [field];
      boxes.forEach(function (box) { box.checked = values.indexOf(box.value) >= 0; });
    } else if (field.length !== undefined && field.tagName !== "SELECT") {
      Array.prototype.forEach.call(field, function (radio) { radio.checked = radio.value === (values[0] || ""); });
    } else {
      field.value = values[0] || "";
    }
  }
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
          row.haystack = row.lower + " " + row.id.toLowerCase() +
            (row.vl ? " " + String(row.vl).toLowerCase() : "");
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
        var values = [];
        params.getAll(name).forEach(function (value) {
          (MULTI[name] ? value.split(",") : [value]).forEach(function (v) {
            if (v) values.push(v);
          });
        });
        setField(form, name, values);
      });
      updatePicks();
      var spec = params.get("sort") || "";
      var key = spec.replace(/^-/, "");
      sort.key = ["t", "k", "y", "c", "m"].indexOf(key) >= 0 ? key : "t";
      sort.dir = spec.charAt(0) === "-" ? -1 : 1;
      typing = null;
    }

    function queryUrl() {
      var params = new URLSearchParams();
      FILTERS.forEach(function (name) {
        var value = fieldValue(form, name);
        if (MULTI[name]) value.forEach(function (v) { params.append(name, v); });
        else if (value) params.set(name, value);
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
      if (f.kind && (f.kind === "software" ? !SOFTWARE[row.k] : row.k !== f.kind)) return false;
      if (f.category.length && !f.category.some(function (c) { return row.c.indexOf(c) >= 0; })) return false;
      if (f.tag.length) {
        var has = function (t) { return row.g.indexOf(t) >= 0; };
        if (f.tagmode === "all" ? !f.tag.every(has) : !f.tag.some(has)) return false;
      }
      if (f.venue && row.v !== f.venue) return false;
      if (f.state) {
        var looked = row.m === "active" || row.m === "maintenance-only";
        if (f.state === "maintained" ? !looked
            : f.state === "not-maintained" ? (looked || !row.m || row.m === "unknown")
            : row.m !== f.state) return false;
      }
      if ((f.from || f.to) && row.y == null) return false;
      if (f.from && row.y < f.from) return false;
      if (f.to && row.y > f.to) return false;
      for (var i = 0; i < f.words.length; i++) {   /* every word, anywhere */
        if (row.haystack.indexOf(f.words[i]) < 0) return false;
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
        kind: fieldValue(form, "kind"),
        category: fieldValue(form, "category"),
        tag: fieldValue(form, "tag"),
        tagmode: fieldValue(form, "tagmode"),
        venue: fieldValue(form, "venue"),
        state: fieldValue(form, "state"),
        from: parseInt(form.elements.from.value, 10) || 0,
        to: parseInt(form.elements.to.value, 10) || 0,
        words: form.elements.text.value.trim().toLowerCase().split(/\s+/).filter(Boolean)
      };
      var rows = sortedEntries().filter(function (row) { return matches(row, f); });
      generation++;
      place(rows.slice(0, LIMIT));
      pending = rows.slice(LIMIT);
      count.textContent = String(rows.length);
      showMore();
      updatePicks();
      showEmpty(rows.length === 0);
      root.querySelectorAll("th[aria-sort]").forEach(function (th) {
        var key = th.querySelector("button").getAttribute("data-sort");
        th.setAttribute("aria-sort", key !== sort.key ? "none" : sort.dir > 0 ? "ascending" : "descending");
      });
    }

    /* Each disclosure of checkboxes says in its summary how many are chosen. */
    function updatePicks() {
      root.querySelectorAll("details[data-pick]").forEach(function (details) {
        var name = details.getAttribute("data-pick");
        var chosen = fieldValue(form, name);
        var label = details.querySelector("[data-pick-count]");
        if (!label) return;
        if (!chosen.length) label.textContent = "any";
        else if (chosen.length === 1) label.textContent = chosen[0];
        else label.textContent = chosen.length + " chosen" +
          (name === "tag" && fieldValue(form, "tagmode") === "all" ? " (all)" : "");
      });
    }

    /* No row matches: say which filters are on, each with a button that lifts it, and one
     * that clears them all. */
    var empty = root.querySelector("[data-ddl-empty]");
    function describe(name, value) {
      var field = form.elements[name];
      if (name === "kind" || name === "venue" || name === "state") {
        var text = value;
        Array.prototype.forEach.call(field ? field.options : [], function (option) {
          if (option.value === value) text = option.textContent;
        });
        return (name === "kind" ? "Kind: " : name === "venue" ? "Venue: " : "Upkeep: ") + text;
      }
      if (name === "category") return "Topic: " + (data.categoryTitle[value] || value);
      if (name === "tag") return "Tag: " + value;
      if (name === "from") return "From " + value;
      if (name === "to") return "To " + value;
      return "Words: " + value;
    }
    function showEmpty(none) {
      empty.textContent = "";
      empty.hidden = !none;
      if (!none) return;
      var p = document.createElement("p");
      p.textContent = "No entry matches all of these filters. Lift one of them:";
      empty.appendChild(p);
      var list = document.createElement("ul");
      FILTERS.forEach(function (name) {
        if (name === "tagmode") return;
        var value = fieldValue(form, name);
        (MULTI[name] ? value : value ? [value] : []).forEach(function (v) {
          var li = document.createElement("li");
          var button = document.createElement("button");
          button.type = "button";
          button.className = "md-button";
          button.textContent = "Remove " + describe(name, v);
          button.addEventListener("click", function () {
            if (MULTI[name]) setField(form, name, fieldValue(form, name).filter(function (x) { return x !== v; }));
            else setField(form, name, []);
            typing = null;
            update("push");
          });
          li.appendChild(button);
          list.appendChild(li);
        });
      });
      empty.appendChild(list);
      var tip = document.createElement("p");
      tip.textContent = "Topics and tags match any of their choices; words match titles, authors, venues and descriptions.";
      empty.appendChild(tip);
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
      var t = event.target;
      /* selects, checkboxes and radios: on "change" */
      if (!data || t.tagName === "SELECT" || t.type === "checkbox" || t.type === "radio") return;
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
      setField(form, "tag", [a.getAttribute("data-tag")]);   /* this tag alone */
      typing = null;
      update("push");
    });
  }

  function onPage() {
    followMoved();
    var root = document.getElementById("ddl-explore");
    if (root) setupExplore(root);
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
  /* assets/compare.js hooks in the same way: each script keeps the handler it found and asks it
   * when its own view is not on the page, so the order the scripts load in does not matter. */
  var otherPopstate = window.ddlCatalogPopstate;
  window.ddlCatalogPopstate = function (event) {
    if (!current || !document.body.contains(current.root) || location.pathname !== current.path) {
      return typeof otherPopstate === "function" ? otherPopstate(event) : false;
    }
    current.restore();
    return true;
  };
})();
