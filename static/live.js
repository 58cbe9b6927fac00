// Great Game live page: the board loaded as its own (cached) resource, the order marks laid
// over it after each check, and the game's events (GET /api/games/{id}/events/) applied as
// they come: readiness and orders-in flags, the clock, new press, a processed phase.
// Ready is sent without leaving the page. Without JavaScript the page works through forms.
(function () {
  "use strict";

  var viewport = document.getElementById("board");
  var inner = viewport && viewport.querySelector(".board-inner");
  var live = document.getElementById("live");

  // The page's words in the reader's language (base.html); English when none is given.
  var WORDS = (function () {
    var given = document.getElementById("script-words");
    try { return given ? JSON.parse(given.textContent) : {}; } catch (e) { return {}; }
  })();
  function t(text) { return WORDS[text] || text; }

  // -- press -------------------------------------------------------------------------

  // A thread's box shows its newest messages, at the bottom: it opened at the oldest, and
  // press arriving live went in below what was shown.
  function pressToEnd(list) { list.scrollTop = list.scrollHeight; }
  function pressAtEnd(list) { return list.scrollHeight - list.scrollTop - list.clientHeight < 40; }
  var pressList = document.querySelector("ol.messages-list");
  if (pressList && !pressList.dataset.paged) pressToEnd(pressList);

  // -- the board ---------------------------------------------------------------------

  function drawn() {
    document.dispatchEvent(new CustomEvent("board:drawn"));
  }

  function parseSvg(text) {
    var doc = new DOMParser().parseFromString(text, "image/svg+xml");
    return doc.documentElement.nodeName === "svg" ? doc.documentElement : null;
  }

  // The order marks alone (a few kilobytes), put in place of the board's own two groups.
  function drawOrders() {
    var url = viewport && viewport.dataset.ordersUrl;
    var svg = inner && inner.querySelector("svg");
    if (!url || !svg) return Promise.resolve();
    return fetch(url, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : ""; })
      .then(function (text) {
        var marks = parseSvg('<svg xmlns="http://www.w3.org/2000/svg">' + text + "</svg>");
        if (!marks) return;
        ["order-marks", "order-marks-over"].forEach(function (id) {
          var fresh = marks.querySelector("#" + id);
          var old = svg.querySelector("#" + id);
          if (fresh && old) old.replaceWith(document.importNode(fresh, true));
        });
        drawn();
      });
  }

  function loadBoard(url) {
    if (!inner || !url) return Promise.resolve();
    viewport.dataset.loading = "1";
    return fetch(url, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (text) {
        inner.innerHTML = text;
        inner.dataset.src = url;
        return drawOrders();
      })
      .then(function () { drawn(); })
      .catch(function () {
        inner.innerHTML = "";
        var failed = document.createElement("p");
        failed.className = "no-board";
        failed.textContent = t("The board could not be loaded; reload the page.");
        inner.appendChild(failed);
      })
      .finally(function () { viewport.dataset.loading = ""; });
  }

  // board.js (which runs first) puts its own in too.
  window.greatGame = window.greatGame || {};
  window.greatGame.drawOrders = drawOrders;
  window.greatGame.loadBoard = loadBoard;
  if (inner && inner.dataset.src) loadBoard(inner.dataset.src);

  if (!live) return;
  var myPower = live.dataset.power;
  var phaseIndex = Number(live.dataset.phase);

  // -- Ready without reloading -------------------------------------------------------

  function csrf(form) {
    var field = form.querySelector("[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function showReady(form, ready) {
    var flag = form.querySelector("[name=ready]");
    flag.value = ready ? "0" : "1";
    Array.from(form.querySelectorAll("p.ok, button, .error, #ready-warning")).forEach(function (n) { n.remove(); });
    var button = document.createElement("button");
    button.type = "submit";
    if (ready) {
      var note = document.createElement("p");
      note.className = "ok";
      note.textContent = t("You are ready.");
      form.appendChild(note);
      button.textContent = t("Not ready after all");
    } else {
      button.className = "primary";
      button.id = "ready-button";
      button.textContent = t("Ready");
    }
    form.appendChild(button);
  }

  // Ready with invalid orders, units without orders, builds unused or changes not saved:
  // the page says what, once, beside the button, which then reads "Ready anyway".
  function warned(form, ready) {
    var ask = window.greatGame.readiness;
    var said = ready && ask ? ask() : [];
    var old = form.querySelector("#ready-warning");
    if (!said.length) { if (old) old.remove(); return false; }
    if (old && old.dataset.said === said.join(" ")) return false;  // told already: ready anyway
    warn(form, said);
    return true;
  }

  function warn(form, said) {
    var old = form.querySelector("#ready-warning");
    var text = said.join(" ");
    var note = document.createElement("div");
    note.id = "ready-warning";
    note.className = "warn";
    note.setAttribute("role", "alert");
    note.dataset.said = text;
    said.forEach(function (line) {
      var p = document.createElement("p");
      p.textContent = line;
      note.appendChild(p);
    });
    var again = document.createElement("p");
    again.textContent = t("Press Ready again to be ready anyway.");
    note.appendChild(again);
    if (old) old.replaceWith(note);
    else form.insertBefore(note, form.querySelector("button"));
    var button = form.querySelector("#ready-button");
    if (button) button.textContent = t("Ready anyway");
  }

  // The saved orders changed (saved here or in another tab, board.js): a warning on screen
  // says what Ready would leave undone now, or goes.
  document.addEventListener("orders:refreshed", function () {
    var ask = window.greatGame.readiness;
    document.querySelectorAll("form.ready[data-api]").forEach(function (form) {
      if (!form.querySelector("#ready-warning") || !ask) return;
      var said = ask();
      if (said.length) { warn(form, said); return; }
      form.querySelector("#ready-warning").remove();
      var button = form.querySelector("#ready-button");
      if (button) button.textContent = t("Ready");
    });
  });

  document.querySelectorAll("form.ready[data-api]").forEach(readyForm);
  function readyForm(form) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var ready = form.querySelector("[name=ready]").value !== "0";
      var phase = Number(form.querySelector("[name=phase]").value);
      if (warned(form, ready)) return;
      form.dataset.sending = "1";
      fetch(form.dataset.api, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(form), Accept: "application/json" },
        body: JSON.stringify({ ready: ready, phase: phase }),
      }).then(function (response) {
        if (response.ok) { showReady(form, ready); return; }
        return response.json().then(function (body) {
          var error = document.createElement("p");
          error.className = "error";
          error.setAttribute("role", "alert");
          error.textContent = body.detail || t("Not saved; reload the page.");
          form.appendChild(error);
        });
      }).catch(function () { form.submit(); })
        .finally(function () { form.dataset.sending = ""; });
    });
  }

  // -- applying events ---------------------------------------------------------------

  function onPowers(data) {
    // The words the page wrote in these cells, in its language (they were English here).
    var table = document.querySelector("table.powers");
    var words = table ? table.dataset : {};
    data.powers.forEach(function (p) {
      var row = document.querySelector('tr[data-power="' + CSS.escape(p.power) + '"]');
      if (!row) return;
      var set = function (cls, text) {
        var cell = row.querySelector("." + cls);
        if (cell && cell.textContent !== text) cell.textContent = text;
      };
      set("ready", p.ready ? words.wordYes || "yes" : "");
      set("orders-in", p.orders ? words.wordIn || "in" : "");
      set("centres", String(p.centres));
      set("units", String(p.units));
    });
    if (table && data.seating !== undefined && table.dataset.seating !== data.seating) {
      seatsAgain(data.seating);
    }
  }

  // Someone else's seat changed hands (a replacement, a take-over, a bot put on or taken off):
  // the powers' rows and the take-over form are read again from the page as it is now.
  var seatsWanted = null;
  function seatsAgain(seating) {
    if (seatsWanted !== null) { seatsWanted = seating; return; }  // one read at a time
    seatsWanted = seating;
    fetch(window.location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        var fresh = page.querySelector("table.powers"), old = document.querySelector("table.powers");
        if (!fresh || !old) return;
        old.replaceWith(document.adoptNode(fresh));
        var form = page.getElementById("take-over-form");
        var oldForm = document.getElementById("take-over-form");
        if (form && oldForm) oldForm.replaceWith(document.adoptNode(form));
        else if (oldForm) oldForm.remove();
        else if (form) fresh.closest(".table-wrap").after(document.adoptNode(form));
      })
      .catch(function () {})
      .finally(function () {
        // Once more only if other seats changed while this read was on its way.
        var wanted = seatsWanted;
        seatsWanted = null;
        if (wanted !== seating) seatsAgain(wanted);
      });
  }

  // As the server writes it (static/when.js): the page's language and the reader's zone.
  function when(iso) {
    return (window.ggWhen && window.ggWhen(iso, "long")) || iso;
  }

  // The game's status in the header (Game.Status), in the page's language.
  var STATUS = { active: "Active", paused: "Paused", finished: "Finished", cancelled: "Cancelled" };

  function onClock(data) {
    var status = document.getElementById("game-status");
    if (status && STATUS[data.status]) status.textContent = t(STATUS[data.status]);
    var clock = document.getElementById("clock");
    var words = document.getElementById("clock-words");
    var time = document.getElementById("deadline");
    if (!clock || !words || !time) return;
    if (data.deadline) {
      words.textContent = t("Deadline");
      time.setAttribute("datetime", data.deadline);
      time.textContent = when(data.deadline);
      clock.hidden = false;
    } else {
      time.setAttribute("datetime", "");
      time.textContent = "";
      var countdown = document.getElementById("countdown");
      if (countdown) countdown.textContent = "";
      words.textContent = data.paused ? t("The game is paused.") : data.over ? t("The game is over.") : "";
      clock.hidden = !words.textContent;
    }
  }

  function threadTitle(key) {
    return key === "public" ? t("Everyone") : key.split("|").join(", ");
  }

  function onPress(m) {
    var list = document.querySelector("ol.messages-list");
    // An earlier page of the thread is not its end: new press is counted unread instead.
    if (list && list.dataset.thread === m.thread && !list.dataset.paged) {
      var li = document.createElement("li");
      li.className = "live-new";
      var from = document.createElement("span");
      from.className = "from";
      from.textContent = m.from;
      var at = document.createElement("small");
      at.textContent = (window.ggWhen && window.ggWhen(m.created, "short")) || m.created;
      var body = document.createElement("p");
      m.body.split("\n").forEach(function (line, n) {
        if (n) body.appendChild(document.createElement("br"));
        body.appendChild(document.createTextNode(line));
      });
      li.append(from, " ", at, body);
      var reading = pressAtEnd(list);  // not scrolled back to older messages
      list.appendChild(li);
      if (reading) pressToEnd(list);
      return;
    }
    if (m.from === myPower) return;
    var threads = document.getElementById("threads");
    if (!threads) {
      var press = document.getElementById("press");
      if (!press) return;
      threads = document.createElement("ul");
      threads.className = "threads";
      threads.id = "threads";
      var none = document.getElementById("no-press");
      if (none) none.replaceWith(threads);
      else press.querySelector("h2").after(threads);
    }
    var item = threads.querySelector('li[data-thread="' + CSS.escape(m.thread) + '"]');
    if (!item) {
      item = document.createElement("li");
      item.dataset.thread = m.thread;
      var link = document.createElement("a");
      link.href = "?thread=" + encodeURIComponent(m.thread) + "#press";
      link.textContent = threadTitle(m.thread);
      item.appendChild(link);
      threads.appendChild(item);
    }
    var badge = item.querySelector(".unread");
    if (!badge) {
      badge = document.createElement("span");
      badge.className = "unread";
      badge.title = "unread";
      badge.textContent = "0";
      item.append(" ", badge);
    }
    badge.textContent = String(Number(badge.textContent) + 1);
  }

  // A new phase: the page is read again and its phase's parts put in place of the old ones
  // (the phase's name and menu, the orders panel with its tools, the board's data, the gold),
  // then its board loaded; the board says it is loading meanwhile. Text typed in the orders
  // box and not saved stays on the page, read-only, to copy from; press being written is
  // untouched. Should the page not come, the orders panel links to it instead.
  function onPhase(data) {
    // A game still forming when the page was shown has started: its page is another page.
    if (live.dataset.forming) { window.location.reload(); return; }
    var title = document.getElementById("board-title");
    if (data.index === phaseIndex) {
      if (title && title.textContent !== data.label) title.textContent = data.label;
      return;
    }
    var previous = phaseIndex;
    phaseIndex = data.index;
    live.dataset.phase = String(data.index);
    pressPhase(data.index);
    var box = document.querySelector("section#orders textarea[name=orders]");
    var typed = box && box.value.trim() && box.value !== box.defaultValue ? box.value : "";
    loading(data.label);
    // The page as it is now, but of the current phase (a ?phase= of the phase just processed
    // would show its history), which its address says from now on too.
    var search = window.location.search.replace(/([?&])phase=[^&]*&?/, "$1").replace(/[?&]$/, "");
    var here = window.location.pathname + search;
    if (search !== window.location.search) history.replaceState(null, "", here + window.location.hash);
    fetch(here, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        if (phaseIndex !== data.index) return;  // another phase came meanwhile
        var page = new DOMParser().parseFromString(html, "text/html");
        var fresh = page.getElementById("live");
        if (!fresh || Number(fresh.dataset.phase) !== data.index) return Promise.reject("phase");
        putInPlace(page);
        newPhaseNote(previous, typed);
        var src = page.querySelector("#board .board-inner");
        return loadBoard(src && src.dataset.src ? src.dataset.src : data.board);
      })
      .catch(function () {
        if (phaseIndex !== data.index) return;
        if (title) title.textContent = data.label;
        if (data.board) loadBoard(data.board);
        linkOnly(previous, data, typed);
      })
      .finally(function () { loaded(); });
  }

  // The press form names the phase it is written in: an empty one is for the new phase now;
  // one being written stays with its phase, and the server hands it back unsent if it is sent
  // after the phase it was written in was processed.
  function pressPhase(index) {
    var form = document.querySelector("form.press-form");
    var body = form && form.querySelector("[name=body]");
    var phase = form && form.querySelector("input[name=phase]");
    if (phase && body && !body.value.trim()) phase.value = String(index);
  }

  // The board shows that the new phase is on its way.
  function loading(label) {
    if (!viewport) return;
    viewport.dataset.loading = "1";
    var sign = document.getElementById("board-loading");
    if (!sign) {
      sign = document.createElement("p");
      sign.id = "board-loading";
      sign.className = "board-loading";
      sign.setAttribute("role", "status");
      viewport.parentNode.appendChild(sign);
    }
    sign.textContent = t("Loading %s…").replace("%s", label);
  }
  function loaded() {
    var sign = document.getElementById("board-loading");
    if (sign) sign.remove();
  }

  // The parts of the page that belong to the phase, from the page read again.
  function putInPlace(page) {
    var swap = function (selector) {
      var old = document.querySelector(selector), fresh = page.querySelector(selector);
      if (old && fresh) old.replaceWith(document.adoptNode(fresh));
      else if (old) old.remove();
      return fresh;
    };
    swap(".board-bar");
    // The click menu lives beside the board (or docked in the orders panel): the new one
    // goes beside the board, where board.js expects it.
    var oldMenu = document.getElementById("order-menu");
    if (oldMenu) oldMenu.remove();
    var menu = page.getElementById("order-menu");
    var frame = viewport && viewport.parentNode;
    if (menu && frame) frame.appendChild(document.adoptNode(menu));
    swap("section#orders");
    var gold = page.getElementById("gold");
    if (gold && !document.getElementById("gold")) {
      var powers = document.querySelector("section[aria-labelledby=powers-title]");
      if (powers) powers.after(document.adoptNode(gold));
    } else swap("#gold");
    var data = page.getElementById("board-data");
    var old = document.getElementById("board-data");
    if (old) old.remove();
    if (data) live.after(document.adoptNode(data));
    var fresh = page.getElementById("board");
    if (viewport && fresh) {
      ["boardUrl", "ordersUrl"].forEach(function (key) {
        if (fresh.dataset[key]) viewport.dataset[key] = fresh.dataset[key];
        else delete viewport.dataset[key];
      });
    }
    document.querySelectorAll("section#orders form.ready[data-api]").forEach(readyForm);
    document.dispatchEvent(new CustomEvent("orders:replaced"));
  }

  // Atop the new orders panel: the phase just processed, and a link to its results; below
  // it what was typed for it and not saved.
  function newPhaseNote(previous, typed) {
    var orders = document.querySelector("section#orders");
    if (!orders) return;
    var note = processedNote(previous);
    note.append(".");
    orders.querySelector("h2").after(note);
    if (typed) note.after.apply(note, typedCopy(typed));
  }

  // "The phase was processed: see its results", the link to the phase just processed.
  function processedNote(previous) {
    var note = document.createElement("p");
    note.className = "guide";
    note.id = "new-phase";
    note.append(t("The phase was processed:") + " ");
    var results = document.createElement("a");
    results.href = live.dataset.page + "?phase=" + previous;
    results.textContent = t("see its results");
    note.append(results);
    return note;
  }

  function typedCopy(typed) {
    var said = document.createElement("p");
    said.textContent = t("Your orders box, as it was for the phase just processed (copy what you still want):");
    var copy = document.createElement("textarea");
    copy.id = "typed-before";
    copy.readOnly = true;
    copy.rows = Math.min(12, typed.split("\n").length + 1);
    copy.value = typed;
    return [said, copy];
  }

  // The page could not be read again: the orders panel links to the new phase instead.
  function linkOnly(previous, data, typed) {
    var orders = document.querySelector("section#orders");
    if (!orders) return;
    var note = processedNote(previous);
    var open = document.createElement("a");
    open.href = live.dataset.page;
    open.textContent = t("order for %s").replace("%s", data.label);
    note.append(t(", or "), open, ".");
    orders.replaceChildren(orders.querySelector("h2"), note);
    if (typed) orders.append.apply(orders, typedCopy(typed));
    document.dispatchEvent(new CustomEvent("orders:replaced"));
  }

  // The game went back to an earlier phase (a moderator's rollback, or this page's phase is
  // past the game's since it was loaded): what the page shows may be of phases deleted since,
  // so it is read again whole. Text typed in the orders box and not yet saved would be lost
  // with it: then the page says so and waits for the reader to reload, and stops following
  // the game meanwhile, so that it shows one state, the old one, whole (a later phase event
  // had put the new phase's name over the old board and phase menu).
  var frozen = false;
  function onReset(data) {
    phaseIndex = data.to;  // the phase event that follows is no "processed" phase
    readAgain("rolled-back", t("The game was rolled back to an earlier phase: copy what you typed, then"));
  }

  // The viewer's seat changed hands (a moderator replaced or removed them, or seated them on
  // another power): the page, its orders box above all, is another player's now. It is read
  // again, unless text typed and not saved would be lost: then it says so, as a rollback does.
  function onSeat(data) {
    if ((data.power || "") === (live.dataset.power || "")) return;
    readAgain("seat-changed", t("Your seat in this game has changed: copy what you typed, then"));
  }

  // The page reloads; or, with text in the orders box not saved, it stops following the game
  // and says why (``id``, ``said``) beside the box, with the link to reload once copied.
  function readAgain(id, said) {
    var box = document.querySelector("section#orders textarea[name=orders]");
    var typed = box && box.value.trim() && box.value !== box.defaultValue;
    if (!typed) { window.location.reload(); return; }
    frozen = true;
    live.dataset.frozen = "1";
    if (source) source.close();
    polls(false);
    if (document.getElementById(id)) return;
    var note = document.createElement("p");
    note.className = "guide";
    note.id = id;
    var again = document.createElement("a");
    again.href = live.dataset.page;
    again.textContent = t("reload the page");
    note.append(said + " ", again, ".");
    box.before(note);
  }

  // The version of the player's own saved orders: board.js compares it with its own.
  function onOrders(data) {
    document.dispatchEvent(new CustomEvent("orders:version", { detail: data }));
  }

  // A forming game's seats: someone joined or left. The page is read again, unless the
  // reader has begun choosing in the join form (joining reloads it anyway).
  function joinChoices() {
    var join = document.querySelector("form.join");
    return join ? Array.prototype.map.call(join.querySelectorAll("select"), function (s) { return s.value; }).join("|") : "";
  }
  var joinAtFirst = joinChoices();
  function onSeats(data) {
    if (!live.dataset.forming || Number(data.taken) === Number(live.dataset.taken)) return;
    if (joinChoices() === joinAtFirst) window.location.reload();
  }

  var handlers = {
    powers: onPowers, clock: onClock, press: onPress, phase: onPhase, reset: onReset, orders: onOrders,
    seats: onSeats, seat: onSeat,
  };

  // -- the stream --------------------------------------------------------------------

  // Where the page is: the last event's id (phase-message), so that a new stream or a poll
  // resumes there rather than sending again what the page has.
  var since = (live.dataset.events.match(/[?&]since=([0-9]+-[0-9]+)/) || [])[1] || "";
  function address(extra) {
    var url = live.dataset.events.replace(/([?&])since=[^&]*&?/, "$1").replace(/[?&]$/, "");
    var query = [since ? "since=" + since : "", extra || ""].filter(Boolean).join("&");
    return query ? url + (url.indexOf("?") < 0 ? "?" : "&") + query : url;
  }
  function apply(kind, text, id) {
    if (!handlers[kind] || frozen) return;
    if (id) since = id;
    handlers[kind](JSON.parse(text));
    // data-seen-clock and so on: tests and curious readers can see what has arrived.
    live.dataset["seen" + kind[0].toUpperCase() + kind.slice(1)] = id;
  }

  var source = null;
  function connect() {
    if (source) source.close();
    if (frozen) return;
    source = new EventSource(address(), { withCredentials: true });
    Object.keys(handlers).forEach(function (kind) {
      source.addEventListener(kind, function (e) { apply(kind, e.data, e.lastEventId); });
    });
    source.addEventListener("open", function () {
      live.dataset.connected = "1";
      wait = 2000;
      polls(false);
    });
    // Refused (429: too many streams open, or the server's are all taken) or gone: the
    // browser gives up. The page then polls, and says so, and tries a stream again later,
    // soon at first (the streams of pages just closed are given back at the server's next
    // heartbeat), then every minute.
    source.addEventListener("error", function () {
      live.dataset.connected = "";
      if (source.readyState !== EventSource.CLOSED) return;
      polls(true);
      setTimeout(connect, wait);
      wait = Math.min(wait * 2, 60000);
    });
  }
  var wait = 2000;

  // -- polling, when no stream is to be had --------------------------------------------

  var POLL_MS = 10000;
  var polling = null;
  function poll() {
    return fetch(address("poll=1"), { credentials: "same-origin", headers: { Accept: "text/event-stream" } })
      .then(function (r) {
        // A cursor the server refuses (a message this reader may no longer read, or an id
        // from before message ids were random): start from the game as it is.
        if (r.status === 400) since = "";
        return r.ok ? r.text() : "";
      })
      .then(function (text) {
        // Server-sent events' own format: "id:", "event:" and "data:" lines, a blank line after each.
        text.split(/\n\n/).forEach(function (block) {
          var event = {};
          block.split("\n").forEach(function (line) {
            var m = line.match(/^(id|event|data): ?(.*)$/);
            if (m) event[m[1]] = m[2];
          });
          if (event.event && event.data) apply(event.event, event.data, event.id);
        });
        live.dataset.polled = String(Date.now());
      })
      .catch(function () {});
  }
  function polls(on) {
    var note = document.getElementById("live-note");
    if (!on) {
      if (polling) clearInterval(polling);
      polling = null;
      live.dataset.mode = "stream";
      if (note) note.hidden = true;
      return;
    }
    if (polling || frozen) return;
    live.dataset.mode = "polling";
    if (note) note.hidden = false;
    poll();
    polling = setInterval(poll, POLL_MS);
  }

  connect();
  window.addEventListener("pagehide", function () { if (source) source.close(); });
})();
