/* ddl-catalog site script: the Compare page (the capability matrix of training frameworks).
 * Plain JavaScript, no framework. Text reaches the page only through textContent, never HTML;
 * what it shows comes from the page's own data- attributes (templates/site/compare.md.j2). */
(function () {
  "use strict";

  var current = null;   /* the Compare view on this page, if any: {root, path, restore} */

  /* How much a value claims, to take the lower of two (src/ddl_catalog/matrix.py: RANK). */
  var RANK = { yes: 2, partial: 1, no: 0, unknown: 0 };

  function lower(first, second) {
    return (RANK[second] || 0) < (RANK[first] || 0) ? second : first;
  }

  function meets(value, partial) {
    return value === "yes" || (partial && value === "partial");
  }

  function webUrl(href) {
    return typeof href === "string" && /^https?:\/\//i.test(href);
  }

  function internal(href) {
    return typeof href === "string" && href !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(href) &&
      href.indexOf("//") !== 0;
  }

  /* What a row says of the needs ticked: the lowest value its cells claim one by one, and the
   * lowest once the hardware limits of the cells that come via other projects apply (the
   * row's data-limits: {capability: {hardware: [value, reason]}}, only limits that lower what
   * the row claims). Mirrors matrix.combination. */
  function combination(tr, need) {
    var claimed = "yes";
    need.forEach(function (key) { claimed = lower(claimed, tr.ddlCells[key] || "unknown"); });
    var shown = claimed;
    var reasons = [];
    need.forEach(function (capability) {
      var limits = tr.ddlLimits[capability];
      if (!limits) return;
      need.forEach(function (hardware) {
        var limit = limits[hardware];
        if (!limit) return;
        shown = lower(shown, limit[0]);
        reasons.push(String(limit[1]));
      });
    });
    return { claimed: claimed, shown: shown, reasons: reasons };
  }

  /* The Compare page: the table is in the HTML (readable without JavaScript); the form hides
   * the rows that lack a needed capability and reorders them, and keeps its state in the
   * address bar (need=a,b, together=1, partial=1, maintained=1, sort=most), as Explore does.
   * Of the rows that match, the first data-first show; "Show all" shows the rest (a long
   * matrix costs a phone its layout otherwise: the stylesheet hides the later rows until this
   * runs). A row that claims every need but whose cells are not shown to work together (a
   * capability via a project that is partial on the needed hardware) says so under its name;
   * "Only combinations shown to work together" leaves it out. The columns of the needs are
   * tinted and scrolled into view; a value with a note opens it in a box (tap, click, Enter or
   * Space; Escape, a tap elsewhere or the box's close button shut it). */
  function setupCompare(root) {
    if (root.getAttribute("data-ready")) return;
    var form = root.querySelector("form");
    var tbody = root.querySelector("tbody");
    var wrap = root.querySelector(".ddl-table-wrap");
    var table = wrap.querySelector("table");
    var count = root.querySelector("[data-ddl-count]");
    var togetherNote = root.querySelector("[data-ddl-together]");
    var more = root.querySelector("[data-ddl-more]");
    var pop = root.querySelector(".ddl-pop");
    var first = parseInt(root.getAttribute("data-first"), 10) || Infinity;
    var expanded = false;
    var reordered = false;
    var heads = Array.prototype.slice.call(table.querySelectorAll("thead th[data-col]"));
    var order = heads.map(function (th) { return th.getAttribute("data-col"); });
    var rows = Array.prototype.slice.call(tbody.querySelectorAll("tr"));
    rows.forEach(function (tr) {
      var cells = {};
      tr.getAttribute("data-cells").split(" ").forEach(function (pair) {
        var at = pair.indexOf("=");
        cells[pair.slice(0, at)] = pair.slice(at + 1);
      });
      tr.ddlCells = cells;
      var limits = {};
      try { limits = JSON.parse(tr.getAttribute("data-limits") || "{}") || {}; } catch (error) { limits = {}; }
      tr.ddlLimits = typeof limits === "object" ? limits : {};
    });
    var boxes = Array.prototype.slice.call(form.querySelectorAll("input[name=need]"));

    function needs() {
      return boxes.filter(function (box) { return box.checked; }).map(function (box) { return box.value; });
    }

    function readQuery() {
      var params = new URLSearchParams(location.search);
      var need = (params.get("need") || "").split(",");
      boxes.forEach(function (box) { box.checked = need.indexOf(box.value) >= 0; });
      form.elements.together.checked = params.get("together") === "1";
      form.elements.partial.checked = params.get("partial") === "1";
      form.elements.maintained.checked = params.get("maintained") === "1";
      form.elements.sort.value = params.get("sort") === "most" ? "most" : "";
    }

    function queryUrl() {
      var params = new URLSearchParams();
      var need = needs();
      if (need.length) params.set("need", need.join(","));
      if (form.elements.together.checked) params.set("together", "1");
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

    /* The caveat under a row's name: created on first use, emptied when none applies. */
    function caveat(tr, text) {
      var th = tr.querySelector("th");
      var p = th.querySelector(".ddl-caveat");
      if (!text) {
        if (p) p.remove();
        return;
      }
      if (!p) {
        p = document.createElement("span");
        p.className = "ddl-caveat";
        th.appendChild(p);
      }
      p.textContent = "⚠ " + text;
    }

    function render() {
      var need = needs();
      var together = form.elements.together.checked;
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
      var separate = 0;   /* rows that claim every need but are not shown to meet them together */
      ordered.forEach(function (tr) {
        var result = combination(tr, need);
        var claimed = meets(result.claimed, partial);
        var shown = meets(result.shown, partial);
        var kept = !maintained || tr.getAttribute("data-maintained") === "yes";
        var ok = kept && claimed && (shown || !together);
        if (kept && claimed && !shown) separate++;
        var text = null;
        if (result.reasons.length) {
          text = (shown ? "Together at most partial: " : "Not shown to work together: ") +
            result.reasons.join("; ") + ".";
        }
        caveat(tr, ok ? text : null);
        if (ok) matched++;
        tr.hidden = !ok || (!expanded && matched > first);
      });
      count.textContent = String(matched);
      if (!separate) {
        togetherNote.textContent = "";
      } else if (together) {
        togetherNote.textContent = "; " + separate + " more claim every need, each cell on its own, " +
          "without showing them together (untick “Only combinations shown to work together”)";
      } else {
        togetherNote.textContent = "; of these, " + separate + " claim every need cell by cell " +
          "but are not shown to meet them together (⚠ under the name; the others are)";
      }
      more.hidden = expanded || matched <= first;
      more.querySelector("button").textContent = "Show all " + matched + " frameworks";
      mark(need);
    }

    /* The chosen columns: tinted, header and cells (a cell's column is its place in the row). */
    var marked = [];
    function mark(need) {
      marked.forEach(function (el) { el.classList.remove("ddl-chosen"); });
      marked = [];
      need.forEach(function (key) {
        var index = order.indexOf(key);
        if (index < 0) return;
        marked.push(heads[index]);
        rows.forEach(function (tr) {
          var td = tr.cells[index + 1];
          if (td) marked.push(td);
        });
      });
      marked.forEach(function (el) { el.classList.add("ddl-chosen"); });
    }

    /* Scroll the table sideways so the column of `key` is in view next to the sticky names;
     * the first chosen column too, when both fit. */
    function reveal(key) {
      var need = needs();
      if (!need.length) return;
      wrap.style.contentVisibility = "visible";   /* laid out now: it can be measured */
      var index = order.indexOf(key || need[0]);
      var firstIndex = Math.min.apply(null, need.map(function (k) { return order.indexOf(k); })
        .filter(function (i) { return i >= 0; }));
      if (index < 0 || !isFinite(firstIndex)) return;
      var box = wrap.getBoundingClientRect();
      var names = table.querySelector("thead th.ddl-corner").getBoundingClientRect().width;
      function span(i) {
        var r = heads[i].getBoundingClientRect();
        var left = r.left - box.left + wrap.scrollLeft;
        return [left, left + r.width];
      }
      var target = span(index);
      var start = span(firstIndex);
      var room = wrap.clientWidth - names;
      var left = wrap.scrollLeft + names;
      if (target[0] >= left && target[1] <= wrap.scrollLeft + wrap.clientWidth) return;   /* in view */
      var to = target[1] - start[0] <= room ? start[0] : target[0];
      wrap.scrollLeft = Math.max(0, to - names);
    }

    /* The second header row sticks under the first: its top is the first row's height. */
    function measureHead() {
      var firstRow = table.tHead && table.tHead.rows[0];
      if (firstRow && firstRow.getBoundingClientRect().height) {
        wrap.style.setProperty("--ddl-head", firstRow.getBoundingClientRect().height + "px");
      }
    }

    function update(key) {
      closeNote(false);
      render();
      if (key) reveal(key);
      var url = queryUrl();
      if (url !== location.pathname + location.search + location.hash) {
        history.pushState(null, "", url);
      }
    }

    /* Notes. A value with data-note, data-via or data-limit becomes a button (a link keeps its
     * source for a middle click) that opens the one box of the page under it. */
    var opened = null;
    var noted = Array.prototype.slice.call(tbody.querySelectorAll(
      "td.ddl-cell > [data-note], td.ddl-cell > [data-via], td.ddl-cell > [data-limit]"));
    noted.forEach(function (el) {
      el.setAttribute("role", "button");
      el.setAttribute("aria-haspopup", "dialog");
      el.setAttribute("aria-expanded", "false");
      el.setAttribute("aria-controls", pop.id);
      if (el.tagName !== "A") el.setAttribute("tabindex", "0");
    });

    function paragraph(parent) {
      var p = document.createElement("p");
      parent.appendChild(p);
      return p;
    }

    function fill(el) {
      pop.textContent = "";
      var close = document.createElement("button");
      close.type = "button";
      close.className = "ddl-pop__close";
      close.setAttribute("aria-label", "Close the note");
      close.textContent = "×";
      close.addEventListener("click", function () { closeNote(true); });
      pop.appendChild(close);
      var name = el.getAttribute("aria-label") || "";
      var framework = el.closest("tr").querySelector("th a");
      var head = paragraph(pop);
      var strong = document.createElement("strong");
      strong.textContent = (framework ? framework.textContent + " · " : "") + name;
      head.appendChild(strong);
      var via = el.getAttribute("data-via");
      if (via) {
        var line = paragraph(pop);
        line.appendChild(document.createTextNode("Comes via "));
        var href = el.getAttribute("data-via-href");
        if (internal(href)) {
          var a = document.createElement("a");
          a.href = href;
          a.textContent = via;
          line.appendChild(a);
        } else {
          line.appendChild(document.createTextNode(via));
        }
        line.appendChild(document.createTextNode(", which holds it to its own hardware support."));
      }
      var note = el.getAttribute("data-note");
      if (note) paragraph(pop).textContent = note;
      var limit = el.getAttribute("data-limit");
      if (limit) paragraph(pop).textContent = limit;
      var source = el.tagName === "A" ? el.getAttribute("href") : null;
      if (webUrl(source)) {
        var link = document.createElement("a");
        link.href = source;
        link.textContent = "Source";
        paragraph(pop).appendChild(link);
      }
      pop.setAttribute("aria-label", (framework ? framework.textContent + ", " : "") + name);
    }

    function place(el) {
      var box = wrap.getBoundingClientRect();
      var r = el.getBoundingClientRect();
      var width = pop.offsetWidth;
      var height = pop.offsetHeight;
      var x = r.left - box.left + wrap.scrollLeft + r.width / 2 - width / 2;
      x = Math.min(x, wrap.scrollLeft + wrap.clientWidth - width - 8);
      x = Math.max(x, wrap.scrollLeft + 8);
      var y = r.bottom - box.top + wrap.scrollTop + 4;
      if (y + height > wrap.scrollTop + wrap.clientHeight && r.top - box.top - height - 4 >= 0) {
        y = r.top - box.top + wrap.scrollTop - height - 4;
      }
      pop.style.left = Math.round(x) + "px";
      pop.style.top = Math.round(y) + "px";
    }

    function openNote(el) {
      if (opened) closeNote(false);
      fill(el);
      pop.hidden = false;
      place(el);
      el.setAttribute("aria-expanded", "true");
      opened = el;
      pop.focus({ preventScroll: true });
    }

    function closeNote(refocus) {
      if (!opened) return;
      var el = opened;
      opened = null;
      pop.hidden = true;
      el.setAttribute("aria-expanded", "false");
      if (refocus) el.focus();
    }

    function notedOf(target) {
      var el = target && target.closest ? target.closest("td.ddl-cell > [role=button]") : null;
      return el && tbody.contains(el) ? el : null;
    }

    tbody.addEventListener("click", function (event) {
      var el = notedOf(event.target);
      if (!el || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      event.stopPropagation();
      if (opened === el) closeNote(true);
      else openNote(el);
    });
    tbody.addEventListener("keydown", function (event) {
      var el = notedOf(event.target);
      if (!el) return;
      /* a link answers Enter with a click; a button answers Enter and Space */
      if (event.key === " " || (event.key === "Enter" && el.tagName !== "A")) {
        event.preventDefault();
        if (opened === el) closeNote(true);
        else openNote(el);
      }
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && opened && root.isConnected) {
        event.preventDefault();
        closeNote(true);
      }
    });
    document.addEventListener("click", function (event) {
      if (opened && !pop.contains(event.target) && !notedOf(event.target)) closeNote(false);
    });
    pop.addEventListener("focusout", function (event) {
      var to = event.relatedTarget;
      if (opened && to && !pop.contains(to) && to !== opened) closeNote(false);
    });
    window.addEventListener("resize", function () { if (opened) place(opened); });

    form.hidden = false;
    readQuery();
    render();
    measureHead();
    rows.forEach(function (tr) { tr.classList.remove("ddl-later"); });   /* hidden says it now */
    if (needs().length) reveal(null);
    more.querySelector("button").addEventListener("click", function () {
      expanded = true;
      render();
    });
    form.addEventListener("change", function (event) {
      var box = event.target;
      update(box && box.name === "need" && box.checked ? box.value : null);
    });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.addEventListener("reset", function () { setTimeout(function () { update(null); }, 0); });
    current = {
      root: root,
      path: location.pathname,
      restore: function () { closeNote(false); readQuery(); render(); if (needs().length) reveal(null); }
    };
    root.setAttribute("data-ready", "true");
  }

  function onPage() {
    var compare = document.getElementById("ddl-compare");
    if (compare) setupCompare(compare);
    else current = null;
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(onPage);   /* Material's instant loading: runs on every page */
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", onPage);
  } else {
    onPage();
  }
  /* Back and forward between Compare views of the same page restore that view's filters (see
   * assets/explore.js: each script asks the handler it found when its own view is not shown). */
  var otherPopstate = window.ddlCatalogPopstate;
  window.ddlCatalogPopstate = function (event) {
    if (!current || !document.body.contains(current.root) || location.pathname !== current.path) {
      return typeof otherPopstate === "function" ? otherPopstate(event) : false;
    }
    current.restore();
    return true;
  };
})();
