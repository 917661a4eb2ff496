/* ddl-catalog site script: the catalog's own search, the same whichever engine built the site.
 *
 * The header's search button (partials/search.html), the "/" and "s" keys (not while typing in
 * a field) and an address with ?q=words open a dialog. The index (search/entries.json, written
 * by ddl_catalog.render.search_index) is fetched the first time the dialog opens, never while a
 * page is only read. A result is an entry (its card), a generated page or a docs section, ranked
 * in tiers:
 *   1. the title is the query (then: another name of the entry is), case, accents and
 *      punctuation aside;
 *   2. the title (then: a name) starts with the query;
 *   3. the query is a phrase in the title (then: in a name), at word boundaries;
 *   4. every word is in the title or names;
 *   5. every word is somewhere: title, names, authors, venue, year, kind, tags, description
 *      (first where the query is a phrase there: "NSDI 2025" as the venue, before a 2025
 *      paper of NSDI 2026).
 * The last word matches as a prefix while it is being typed; "quoted words" match as a phrase.
 * Ties: entries before pages, then the shorter title, the newer year, the id.
 * Plain JavaScript, no framework; text reaches the page only through textContent. */
(function () {
  "use strict";

  var SHOWN = 20;            /* results shown at first, and per "Show more" */
  var SNIPPET = 170;         /* characters of a description shown around the first match */
  var HINT = "Type a title, a name (NCCL), an author, a venue and year (NSDI 2025), " +
    "or \u201ca phrase\u201d in quotes.";

  var MARKS = /[\u0300-\u036f]/g;
  var NON_ASCII = /[^\x00-\x7f]/;
  var ASCII_NON_WORD = /[^a-z0-9+\n]+/g;
  var LONE_PLUS = /^\++$/;
  var NON_WORD;
  var WORD_CHAR;
  try {
    NON_WORD = new RegExp("[^\\p{L}\\p{N}+\\n]+", "gu");
    WORD_CHAR = new RegExp("^[\\p{L}\\p{N}+]$", "u");
  } catch (error) {          /* no Unicode property escapes: Latin letters and digits */
    NON_WORD = /[^0-9a-z\u00aa-\u02af\u0370-\uffff+\n]+/g;
    WORD_CHAR = /^[0-9a-z\u00aa-\u02af\u0370-\uffff+]$/;
  }

  /* Texts as search compares them: case-folded, accents dropped, every run of punctuation or
   * space one space. In one pass, "\n" between them (a regular expression run once over a
   * catalog's titles costs a phone far less than once per title); the few texts beyond ASCII
   * are decomposed (NFKD) apart, as decomposing them all would cost more than the rest. */
  function foldAll(texts) {
    var plain = [];
    var wide = [];
    for (var i = 0; i < texts.length; i++) (NON_ASCII.test(texts[i]) ? wide : plain).push(i);
    var out = new Array(texts.length);
    spread(out, plain, texts, false);
    spread(out, wide, texts, true);
    return out;
  }

  function spread(out, which, texts, wide) {
    if (!which.length) return;
    var joined = which.map(function (i) { return texts[i]; }).join("\n");
    if (wide && joined.normalize) joined = joined.normalize("NFKD").replace(MARKS, "");
    var parts = joined.toLowerCase().replace(wide ? NON_WORD : ASCII_NON_WORD, " ").split("\n");
    if (parts.length !== which.length) {   /* a text held a line break: one at a time */
      which.forEach(function (i) { out[i] = fold(texts[i]); });
      return;
    }
    for (var n = 0; n < parts.length; n++) {
      var part = parts[n].trim();
      if (part.indexOf("+") >= 0) {       /* "+" alone is no word; "c++" is */
        part = part.split(" ").filter(function (word) { return !LONE_PLUS.test(word); })
          .join(" ");
      }
      out[which[n]] = part;
    }
  }

  function fold(text) {
    return foldAll([String(text == null ? "" : text).replace(/\n/g, " ")])[0];
  }

  function internal(href) {
    return typeof href === "string" && !/^[a-z][a-z0-9+.-]*:/i.test(href) &&
      href.indexOf("//") !== 0 && href.charAt(0) !== "/" && href.indexOf("\\") < 0;
  }

  /* -- the index ---------------------------------------------------------------------------- */

  var trigger = null;        /* the header's button: where the index lives */
  var items = null;          /* prepared records, entries first */
  var explore = null;        /* the Explore page's href, for the empty state */
  var loading = null;
  var siteBase = null;       /* the site's root: what the records' addresses are relative to */
  var pending = 0;           /* entries whose description is not searchable yet */

  function indexUrl() {
    return new URL(trigger.getAttribute("data-ddl-search"), location.href);
  }

  /* The folded title and names with a space at each end (so " word" finds a word's start),
   * both together (tn), and everything searched (all); "|" keeps a phrase from running over
   * two fields. */
  function spaced(item, rest) {
    item.ts = " " + item.t + " ";
    item.ns = item.n.map(function (name) { return " " + name + " "; });
    item.tn = item.ns.length ? item.ts + "| " + item.ns.join("| ") : item.ts;
    item.all = item.tn + "| " + rest + " ";
    return item;
  }

  /* The records as search reads them. An entry's description comes later (text.json, folded
   * by describe): the first results come from the rest. */
  function prepare(index) {
    if (!index || index.format !== 1 || !Array.isArray(index.entries)) {
      throw new Error("unknown index format");
    }
    var kinds = index.kinds || {};
    var pages = Array.isArray(index.pages) ? index.pages : [];
    var entries = [];
    index.entries.forEach(function (e, k) {
      var page = pages[e.p];
      if (!page || typeof e.id !== "string" || typeof e.t !== "string") return;
      var href = page.u + "#" + encodeURIComponent(e.id);
      if (internal(href)) entries.push({ e: e, k: k, page: page, href: href });
    });
    var others = pages.filter(function (p) {
      return p && !p.x && typeof p.t === "string" && internal(p.u);
    });
    var names = [];
    entries.forEach(function (r) {
      r.names = (Array.isArray(r.e.n) ? r.e.n : []).concat([r.e.id]);
      names.push.apply(names, r.names);
    });
    var kindOf = function (e) { return kinds[e.k] || e.k || ""; };
    var titles = foldAll(entries.map(function (r) { return r.e.t; })
      .concat(others.map(function (p) { return p.t; })));
    var rests = foldAll(entries.map(function (r) {
      var e = r.e;
      return [e.a || "", e.v || "", e.y || "", kindOf(e),
        Array.isArray(e.g) ? e.g.join(" ") : ""].join(" | ");
    }).concat(others.map(function (p) {
      return [p.o || "", p.k || "", p.d || ""].join(" | ");
    })));
    var folded = foldAll(names);
    var list = [];
    var at = 0;
    entries.forEach(function (r, i) {
      var e = r.e;
      var n = folded.slice(at, at + r.names.length);
      at += r.names.length;
      list.push(spaced({
        page: 0, id: e.id, k: r.k, title: e.t, href: r.href, kind: kindOf(e),
        year: e.y || null, venue: e.v || "", where: r.page.t || "", text: "",
        authors: e.a || "", t: titles[i], n: n
      }, rests[i]));
    });
    pending = list.length;
    others.forEach(function (p, j) {
      var i = entries.length + j;
      if (p.u === "explore/") explore = p.u;
      list.push(spaced({
        page: 1, id: "~" + i, title: p.t, href: p.u, kind: p.k || "Page", year: null,
        venue: "", where: p.o || "", text: p.d || "", authors: "", t: titles[i], n: []
      }, rests[i]));
    });
    return list;
  }

  function load() {
    if (items) return Promise.resolve(items);
    if (loading) return loading;
    var url = indexUrl();
    var base = new URL("../", url);
    loading = fetch(url.href, { credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (index) {
        siteBase = base;
        items = prepare(index);
        if (explore) explore = new URL(explore, base).href;
        describe(new URL(typeof index.text === "string" ? index.text : "text.json", url));
        return items;
      })
      .catch(function (error) {
        loading = null;      /* the next opening tries again */
        throw error;
      });
    return loading;
  }

  /* Fetch the entries' descriptions and fold them into what the entries are searched by, a
   * slice at a time between the reader's keys; then search again, for the results only a
   * description holds, and show the snippets. Without them, search goes on without. */
  function describe(url) {
    fetch(url.href, { credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (texts) {
        if (!Array.isArray(texts)) throw new Error("unknown text format");
        var next = 0;
        var slice = function () {
          var batch = [];
          while (next < items.length && batch.length < 600) {
            var item = items[next++];
            if (item.page) continue;
            item.text = typeof texts[item.k] === "string" ? texts[item.k] : "";
            batch.push(item);
          }
          var folded = foldAll(batch.map(function (item) { return item.text; }));
          batch.forEach(function (item, i) { item.all += "| " + folded[i] + " "; });
          pending -= batch.length;
          if (next < items.length) setTimeout(slice, 0);
          else refresh();
        };
        setTimeout(slice, 0);
      })
      .catch(function () {
        pending = 0;
        refresh();
      });
  }

  function refresh() {
    pending = Math.max(0, pending);
    if (ui && ui.dialog.open) {
      lastQuery = null;
      update(true);
    }
  }

  /* -- matching ----------------------------------------------------------------------------- */

  /* The query as terms: a quoted phrase, or a word as typed ("gpt-neox" is a phrase of two
   * folded words). The last term is a prefix while it is being typed (no space or quote after
   * it). */
  function parse(text) {
    var source = String(text).replace(/[\u201c\u201d\u201e\u00ab\u00bb]/g, "\"");
    var terms = [];
    var pattern = /"([^"]*)("?)|([^\s"]+)/g;
    var match;
    while ((match = pattern.exec(source)) !== null) {
      var quoted = match[1] !== undefined;
      var folded = fold(quoted ? match[1] : match[3]);
      if (folded) terms.push({ text: folded, quoted: quoted, closed: !quoted || !!match[2] });
    }
    var last = terms[terms.length - 1];
    var prefix = !!last && !/\s$/.test(source) && (!last.quoted || !last.closed);
    return {
      terms: terms,
      full: terms.map(function (t) { return t.text; }).join(" "),
      words: terms.map(function (t) { return t.text; }).join(" ").split(" ").filter(Boolean),
      prefix: prefix
    };
  }

  /* What each test looks for in a spaced field: " word " (a whole word, or a phrase), " word"
   * for the last word while it is typed. */
  function needles(query) {
    var last = query.terms.length - 1;
    query.each = query.terms.map(function (term, i) {
      return " " + term.text + (query.prefix && i === last ? "" : " ");
    });
    query.phrase = " " + query.full + (query.prefix ? "" : " ");
    return query;
  }

  function every(field, query) {
    for (var i = 0; i < query.each.length; i++) {
      if (field.indexOf(query.each[i]) < 0) return false;
    }
    return true;
  }

  /* The tier of an item that holds every word somewhere (0 best). */
  function rank(item, query) {
    var full = query.full;
    var phrase = query.phrase;
    var n;
    if (item.t === full) return 0;
    for (n = 0; n < item.n.length; n++) if (item.n[n] === full) return 1;
    if (item.ts.indexOf(phrase) === 0) return 2;
    for (n = 0; n < item.ns.length; n++) if (item.ns[n].indexOf(phrase) === 0) return 3;
    if (item.ts.indexOf(phrase) > 0) return 4;
    for (n = 0; n < item.ns.length; n++) if (item.ns[n].indexOf(phrase) > 0) return 5;
    if (every(item.tn, query)) return 6;
    if (item.all.indexOf(phrase) >= 0) return 7;
    return 8;
  }

  function search(text) {
    var query = parse(text);
    if (!query.full) return [];
    needles(query);
    var found = [];
    for (var i = 0; i < items.length; i++) {
      /* Every tier holds every word somewhere: most records leave at the first word. */
      if (every(items[i].all, query)) found.push({ tier: rank(items[i], query), item: items[i] });
    }
    found.sort(function (a, b) {
      return a.tier - b.tier || a.item.page - b.item.page ||
        a.item.title.length - b.item.title.length || (b.item.year || 0) - (a.item.year || 0) ||
        (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0);
    });
    return found.map(function (f) { return f.item; });
  }

  /* -- marking the matched words ------------------------------------------------------------ */

  /* The text folded character by character, with where each folded character came from. */
  function foldMap(text) {
    if (!/[^\x00-\x7f]/.test(text)) {   /* ASCII: one character for one */
      return { text: text.toLowerCase().replace(/[^a-z0-9+]/g, " "), from: null };
    }
    var out = [];
    var from = [];
    for (var i = 0; i < text.length; i++) {
      var piece = text.charAt(i);
      if (piece.normalize) piece = piece.normalize("NFKD").replace(MARKS, "");
      piece = piece.toLowerCase();
      for (var j = 0; j < piece.length; j++) {
        out.push(WORD_CHAR.test(piece.charAt(j)) ? piece.charAt(j) : " ");
        from.push(i);
      }
    }
    return { text: out.join(""), from: from };
  }

  /* Ranges [start, end) of ``text`` where a query word starts a word, merged. */
  function ranges(text, words) {
    if (!words.length || !text) return [];
    var folded = foldMap(text);
    var found = [];
    words.forEach(function (word) {
      var at = folded.text.indexOf(word);
      while (at >= 0) {
        if (at === 0 || folded.text.charAt(at - 1) === " ") {
          var from = folded.from;
          found.push(from ? [from[at], from[at + word.length - 1] + 1] : [at, at + word.length]);
        }
        at = folded.text.indexOf(word, at + 1);
      }
    });
    found.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });
    var merged = [];
    found.forEach(function (r) {
      var last = merged[merged.length - 1];
      if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
      else merged.push([r[0], r[1]]);
    });
    return merged;
  }

  function append(parent, text, marks, offset) {
    var at = 0;
    (marks || []).forEach(function (r) {
      var start = r[0] - offset;
      var end = r[1] - offset;
      if (end <= 0 || start >= text.length) return;
      start = Math.max(start, at);
      if (start > at) parent.appendChild(document.createTextNode(text.slice(at, start)));
      var mark = document.createElement("mark");
      mark.textContent = text.slice(start, end);
      parent.appendChild(mark);
      at = end;
    });
    if (at < text.length) parent.appendChild(document.createTextNode(text.slice(at)));
  }

  /* A description cut around its first match (or its start), matched words marked. */
  function snippet(parent, text, words) {
    var marks = ranges(text, words);
    var start = 0;
    var end = text.length;
    if (text.length > SNIPPET) {
      var first = marks.length ? marks[0][0] : 0;
      start = Math.max(0, first - 50);
      if (start > 0) {
        var space = text.indexOf(" ", start);
        start = space >= 0 && space < first ? space + 1 : start;
      }
      end = Math.min(text.length, start + SNIPPET);
      if (end < text.length) {
        var cut = text.lastIndexOf(" ", end);
        end = cut > start ? cut : end;
      }
    }
    if (start > 0) parent.appendChild(document.createTextNode("\u2026"));
    append(parent, text.slice(start, end), marks, start);
    if (end < text.length) parent.appendChild(document.createTextNode("\u2026"));
  }

  /* -- the dialog --------------------------------------------------------------------------- */

  var ui = null;
  var results = [];
  var shown = 0;
  var active = -1;
  var lastQuery = null;
  var opener = null;

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function build() {
    if (ui) return ui;
    var dialog = element("dialog", "ddl-search");
    dialog.setAttribute("aria-label", "Search the catalog");
    var panel = element("div", "ddl-search__panel");
    var bar = element("div", "ddl-search__bar");
    var label = element("label", "ddl-search__sr", "Search the catalog");
    label.htmlFor = "ddl-search__input";
    var input = element("input", "ddl-search__input");
    input.id = "ddl-search__input";
    input.type = "text";
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    input.setAttribute("aria-controls", "ddl-search__results");
    input.setAttribute("aria-describedby", "ddl-search__status");
    input.setAttribute("autocomplete", "off");
    input.setAttribute("autocapitalize", "off");
    input.setAttribute("spellcheck", "false");
    input.setAttribute("enterkeyhint", "go");
    input.placeholder = "Search titles, names, authors, venues";
    var close = element("button", "ddl-search__close", "Close");
    close.type = "button";
    close.setAttribute("aria-label", "Close search");
    bar.appendChild(label);
    bar.appendChild(input);
    bar.appendChild(close);
    var status = element("p", "ddl-search__status");
    status.id = "ddl-search__status";
    status.setAttribute("role", "status");
    var body = element("div", "ddl-search__body");
    var list = element("div", "ddl-search__results");
    list.id = "ddl-search__results";
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", "Results");
    list.hidden = true;
    var empty = element("div", "ddl-search__empty");
    empty.hidden = true;
    var more = element("button", "ddl-search__more");
    more.type = "button";
    more.hidden = true;
    body.appendChild(list);
    body.appendChild(empty);
    body.appendChild(more);
    panel.appendChild(bar);
    panel.appendChild(status);
    panel.appendChild(body);
    dialog.appendChild(panel);
    document.body.appendChild(dialog);
    ui = { dialog: dialog, input: input, close: close, status: status, list: list,
      empty: empty, more: more, body: body };

    input.addEventListener("input", function () { update(); });
    close.addEventListener("click", function () { hide(true); });
    more.addEventListener("click", function () {
      showMore();
      if (more.hidden) input.focus();
    });
    /* The native dialog's Escape: close it our way (focus goes back where it was). */
    dialog.addEventListener("cancel", function (event) {
      event.preventDefault();
      hide(true);
    });
    /* A click on the backdrop (the dialog element itself, outside its panel) closes it. */
    dialog.addEventListener("click", function (event) {
      if (event.target === dialog) hide(true);
    });
    /* The engines' own shortcuts (Material: "n", "p" ...) never see keys typed here. */
    dialog.addEventListener("keydown", function (event) {
      event.stopPropagation();
      keys(event);
    });
    list.addEventListener("click", function (event) {
      var option = event.target.closest ? event.target.closest("a[role='option']") : null;
      if (!option || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey ||
          event.altKey) return;
      if (go(option.href)) event.preventDefault();
    });
    return ui;
  }

  function keys(event) {
    if (event.isComposing) return;
    var count = shown;
    switch (event.key) {
      case "ArrowDown":
        if (!count) return;
        event.preventDefault();
        select(active + 1 >= count ? 0 : active + 1);
        break;
      case "ArrowUp":
        if (!count) return;
        event.preventDefault();
        select(active <= 0 ? count - 1 : active - 1);
        break;
      case "Enter":
        if (event.target !== ui.input || !count) return;
        event.preventDefault();
        var option = ui.list.children[active >= 0 ? active : 0];
        if (option && !go(option.href)) location.assign(option.href);
        break;
      case "Escape":
        event.preventDefault();
        hide(true);
        break;
    }
  }

  function select(n) {
    var options = ui.list.children;
    if (active >= 0 && options[active]) {
      options[active].setAttribute("aria-selected", "false");
    }
    active = n;
    var option = options[n];
    if (!option) {
      ui.input.removeAttribute("aria-activedescendant");
      return;
    }
    option.setAttribute("aria-selected", "true");
    ui.input.setAttribute("aria-activedescendant", option.id);
    if (option.scrollIntoView) option.scrollIntoView({ block: "nearest" });
  }

  function say(text) {
    if (ui.status.textContent !== text) ui.status.textContent = text;
  }

  /* Search for what the field holds and show it. ``again``: the same words searched once more
   * (the descriptions came in), the reader's place in the list kept. */
  function update(again) {
    var text = ui.input.value;
    if (text === lastQuery && items) return;
    if (!items) {
      say("Loading the catalog\u2019s index\u2026");
      return;
    }
    var keep = again && text === ui.dialog.getAttribute("data-ddl-shown") ? active : -1;
    var showing = keep >= 0 ? shown : 0;
    lastQuery = text;
    results = search(text);
    ui.list.textContent = "";
    shown = 0;
    active = -1;
    ui.input.removeAttribute("aria-activedescendant");
    ui.empty.textContent = "";
    ui.empty.hidden = true;
    if (!parse(text).full) {
      say("");
      ui.empty.appendChild(element("p", "", HINT));
      ui.empty.hidden = false;
    } else if (!results.length && pending) {
      say("Searching the descriptions\u2026");
    } else if (!results.length) {
      say("No results");
      emptyState(text);
    }
    showMore();
    while (shown < Math.min(showing, results.length)) showMore();
    if (keep >= 0 && keep < shown) select(keep);
    /* What the list shows (tests and benchmarks wait on these): the results of the titles,
     * names and short fields at first, then (data-ddl-query) of everything. */
    ui.dialog.setAttribute("data-ddl-shown", text);
    if (!pending) ui.dialog.setAttribute("data-ddl-query", text);
  }

  function emptyState(text) {
    var p = element("p", "", "Nothing matches \u201c" + text.trim() + "\u201d. ");
    p.appendChild(document.createTextNode(
      "Try fewer words, another spelling, the start of a word, or a family name, a venue " +
      "or a year alone."));
    ui.empty.appendChild(p);
    if (explore) {
      var q = element("p", "");
      var a = element("a", "", "Explore");
      a.href = explore;
      q.appendChild(document.createTextNode("Or filter every entry by kind, topic, tag and " +
        "year in "));
      q.appendChild(a);
      q.appendChild(document.createTextNode("."));
      ui.empty.appendChild(q);
    }
    ui.empty.hidden = false;
  }

  function showMore() {
    var words = parse(ui.input.value).words;
    var end = Math.min(results.length, shown + SHOWN);
    for (var i = shown; i < end; i++) ui.list.appendChild(option(results[i], i, words));
    shown = end;
    ui.list.hidden = shown === 0;
    ui.input.setAttribute("aria-expanded", shown ? "true" : "false");
    var left = results.length - shown;
    ui.more.hidden = left <= 0;
    ui.more.textContent = "Show " + Math.min(SHOWN, left) + " more (" + left + " left)";
    if (results.length) {
      say(results.length === 1 ? "1 result" : shown < results.length
        ? results.length + " results, " + shown + " shown" : results.length + " results");
    }
  }

  /* One result: a link with the option role (its name is all its text: title, kind, year,
   * venue, page and snippet), focus staying in the field (aria-activedescendant). */
  function option(item, n, words) {
    var a = element("a", "ddl-search__result");
    a.id = "ddl-search__opt-" + n;
    a.href = new URL(item.href, siteBase).href;
    a.tabIndex = -1;
    a.setAttribute("role", "option");
    a.setAttribute("aria-selected", "false");
    var title = element("span", "ddl-search__title");
    append(title, item.title, ranges(item.title, words), 0);
    var meta = element("span", "ddl-search__meta");
    var parts = [item.kind];
    if (item.year) parts.push(String(item.year));
    if (item.venue && item.venue !== String(item.year)) parts.push(item.venue);
    append(meta, parts.join(" \u00b7 "), ranges(parts.join(" \u00b7 "), words), 0);
    if (item.where) {
      meta.appendChild(document.createTextNode(" \u00b7 "));
      meta.appendChild(element("span", "ddl-search__where", "in " + item.where));
    }
    a.appendChild(title);
    a.appendChild(meta);
    var text = item.text;
    var authorsHit = !ranges(text, words).length && ranges(item.authors, words).length;
    if (authorsHit) text = "By " + item.authors;
    if (text) {
      var p = element("span", "ddl-search__text");
      snippet(p, text, words);
      a.appendChild(p);
    }
    return a;
  }

  /* Open a result. When it is on this page, close the dialog and bring its card into view
   * (a card laid out late, content-visibility, may move once laid out: it is brought back);
   * returns true then, false for another page (the link is followed). */
  function go(href) {
    var url = new URL(href, location.href);
    if (url.origin !== location.origin || url.pathname !== location.pathname) return false;
    hide(false);
    var id = decodeURIComponent(url.hash.slice(1));
    var target = id ? document.getElementById(id) : null;
    if (!target) {
      if (url.hash) location.hash = url.hash;
      else window.scrollTo(0, 0);
      return true;
    }
    if (location.hash !== url.hash) location.hash = url.hash;   /* the browser scrolls there */
    var bring = function () { target.scrollIntoView({ block: "start" }); };
    bring();
    requestAnimationFrame(function () { requestAnimationFrame(bring); });
    var link = target.querySelector("a[href]");
    if (link) link.focus({ preventScroll: true });
    return true;
  }

  function show(query) {
    build();
    if (!ui.dialog.open) {
      opener = document.activeElement;
      ui.dialog.showModal();
      document.documentElement.classList.add("ddl-search-locked");
    }
    if (typeof query === "string") ui.input.value = query;
    ui.input.focus();
    if (typeof query !== "string") ui.input.select();
    lastQuery = null;
    update();
    load().then(function () {
      if (ui.dialog.open) update();
    }, function (error) {
      say("Could not load the search index (" + error.message + "). Close and open search " +
        "to try again.");
    });
  }

  function hide(restore) {
    if (!ui || !ui.dialog.open) return;
    ui.dialog.close();
    document.documentElement.classList.remove("ddl-search-locked");
    dropQuery();
    if (restore && opener && opener.focus && document.contains(opener)) opener.focus();
    opener = null;
  }

  /* An address opened with ?q= opens search once; closing it drops q from the address. */
  function dropQuery() {
    var params = new URLSearchParams(location.search);
    if (!params.has("q")) return;
    params.delete("q");
    var rest = params.toString();
    history.replaceState(history.state, "",
      location.pathname + (rest ? "?" + rest : "") + location.hash);
  }

  function typing(node) {
    if (!node || node.nodeType !== 1) return false;
    if (node.isContentEditable) return true;
    var tag = node.tagName;
    if (tag === "TEXTAREA" || tag === "SELECT") return true;
    return tag === "INPUT" &&
      !/^(checkbox|radio|button|submit|reset|range|color|file|image)$/i.test(node.type);
  }

  function start() {
    trigger = document.querySelector("[data-ddl-search]");
    if (!trigger) return;    /* no search button (the engine's search plugin is off) */
    document.documentElement.classList.add("ddl-search-ready");
    document.addEventListener("click", function (event) {
      var button = event.target.closest ? event.target.closest("[data-ddl-search]") : null;
      if (!button) return;
      trigger = button;
      event.preventDefault();
      show();
    });
    document.addEventListener("keydown", function (event) {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey ||
          event.isComposing || (event.key !== "/" && event.key !== "s")) return;
      if ((ui && ui.dialog.open) || typing(event.target)) return;
      event.preventDefault();
      show();
    });
    var query = new URLSearchParams(location.search).get("q");
    if (query && query.trim()) show(query);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
