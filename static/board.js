// Great Game board: pan and zoom, a deadline countdown, and click-to-order.
// Everything here is an extra: the page works without it, through plain forms.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // -- pan and zoom ------------------------------------------------------------------

  function panZoom(viewport) {
    var inner = viewport.querySelector(".board-inner");
    var view = { x: 0, y: 0, s: 1 };
    var pointers = new Map();
    var start = null;
    var moved = false;

    function apply() {
      var w = viewport.clientWidth, h = viewport.clientHeight;
      var iw = inner.offsetWidth * view.s, ih = inner.offsetHeight * view.s;
      // Keep some of the board in sight whatever the pan.
      view.x = Math.min(w * 0.5, Math.max(view.x, w * 0.5 - iw));
      view.y = Math.min(h * 0.5, Math.max(view.y, h * 0.5 - ih));
      inner.style.transform = "translate(" + view.x + "px," + view.y + "px) scale(" + view.s + ")";
      viewport.dataset.scale = view.s.toFixed(3);
    }
    function zoom(factor, cx, cy) {
      var s = Math.min(8, Math.max(0.5, view.s * factor));
      if (cx === undefined) { cx = viewport.clientWidth / 2; cy = viewport.clientHeight / 2; }
      view.x = cx - (cx - view.x) * (s / view.s);
      view.y = cy - (cy - view.y) * (s / view.s);
      view.s = s;
      apply();
    }
    function reset() { view = { x: 0, y: 0, s: 1 }; apply(); }

    viewport.addEventListener("pointerdown", function (e) {
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      start = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y, dist: pinchDistance(), s: view.s };
      moved = false;
    });
    viewport.addEventListener("pointermove", function (e) {
      if (!pointers.has(e.pointerId)) return;
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 2 && start.dist) {
        var r = viewport.getBoundingClientRect(), c = pinchCentre();
        zoom(start.s * pinchDistance() / start.dist / view.s, c.x - r.left, c.y - r.top);
        moved = true;
        return;
      }
      var dx = e.clientX - start.x, dy = e.clientY - start.y;
      if (!moved && Math.abs(dx) + Math.abs(dy) < 6) return;
      if (!moved) viewport.setPointerCapture(e.pointerId);
      moved = true;
      viewport.classList.add("dragging");
      view.x = start.vx + dx;
      view.y = start.vy + dy;
      apply();
    });
    function end(e) {
      pointers.delete(e.pointerId);
      viewport.classList.remove("dragging");
      if (pointers.size) {
        var p = pointers.values().next().value;
        start = { x: p.x, y: p.y, vx: view.x, vy: view.y, dist: 0, s: view.s };
      }
    }
    viewport.addEventListener("pointerup", end);
    viewport.addEventListener("pointercancel", end);
    // A drag is not a click on whatever it ended over.
    viewport.addEventListener("click", function (e) {
      if (moved) { e.stopPropagation(); e.preventDefault(); moved = false; }
    }, true);
    viewport.addEventListener("wheel", function (e) {
      e.preventDefault();
      var r = viewport.getBoundingClientRect();
      zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
    viewport.addEventListener("keydown", function (e) {
      if (e.target !== viewport) return;
      var step = 60, keys = {
        ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step],
      };
      if (keys[e.key]) { view.x += keys[e.key][0]; view.y += keys[e.key][1]; apply(); }
      else if (e.key === "+" || e.key === "=") zoom(1.25);
      else if (e.key === "-") zoom(1 / 1.25);
      else return;
      e.preventDefault();
    });
    function pinchDistance() {
      if (pointers.size < 2) return 0;
      var p = Array.from(pointers.values());
      return Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y);
    }
    function pinchCentre() {
      var p = Array.from(pointers.values());
      return { x: (p[0].x + p[1].x) / 2, y: (p[0].y + p[1].y) / 2 };
    }
    var bar = viewport.parentNode.querySelector(".zoom");
    if (bar) {
      bar.hidden = false;
      bar.addEventListener("click", function (e) {
        var which = e.target.dataset.zoom;
        if (which === "in") zoom(1.4);
        else if (which === "out") zoom(1 / 1.4);
        else if (which === "reset") reset();
      });
    }
    apply();
  }

  document.querySelectorAll(".board-viewport").forEach(panZoom);

  // -- countdown ---------------------------------------------------------------------

  var deadline = document.getElementById("deadline");
  var countdown = document.getElementById("countdown");
  if (deadline && countdown) {
    var tick = function () {
      // Read each second: live updates (live.js) move or clear the deadline.
      var when = deadline.getAttribute("datetime");
      if (!when) { countdown.textContent = ""; return; }
      var due = new Date(when);
      var left = Math.round((due - Date.now()) / 1000);
      if (left <= 0) { countdown.textContent = "(due now)"; return; }
      var d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600);
      var m = Math.floor(left % 3600 / 60), s = left % 60;
      var parts = d ? [d + " d", h + " h"] : h ? [h + " h", m + " min"] : [m + " min", s + " s"];
      countdown.textContent = "(" + parts.join(" ") + " left)";
    };
    tick();
    setInterval(tick, 1000);
  }

  // -- click-to-order ----------------------------------------------------------------
  //
  // The page knows no rule of the game: every order the menu offers comes from the server's
  // list of this power's legal orders (GET .../options/, the engine's own list, as data), and
  // what an order is about (its unit, its kind) comes from the engine's answers, never from
  // reading its text here. Typing is checked (POST .../orders/check/, nothing stored); orders
  // are saved by the Save button or by each order the menu makes (PUT .../orders/).

  var dataNode = document.getElementById("board-data");
  var form = document.getElementById("orders-form");
  if (!dataNode || !form) return;
  var data = JSON.parse(dataNode.textContent);
  var textarea = form.querySelector("textarea");
  var token = form.querySelector("[name=csrfmiddlewaretoken]").value;
  var menu = document.getElementById("order-menu");
  var prompt = document.getElementById("order-prompt");
  var choices = document.getElementById("order-choices");
  var statusList = document.getElementById("order-status");
  var viewport = document.getElementById("board");
  var inner = viewport.querySelector(".board-inner");
  var unorderedNote = document.getElementById("unordered");
  var unordered = new Set(data.unordered || []);
  var dataOf = {};       // order line -> the engine's data of it, from the last answer
  var options = [];      // this power's legal orders, as the engine lists them
  var step = null;       // what a click on the board means now

  var province = function (loc) { return loc.split("/")[0]; };
  var mine = function () {
    var list = data.phase === "retreats" ? data.dislodged : data.units;
    return list.filter(function (u) { return u.power === data.power; });
  };
  var unitAt = function (place, list) {
    return (list || data.units).find(function (u) { return province(u.location) === province(place); });
  };
  // The engine's orders for the unit standing at ``location`` (a rule's own orders aside).
  var optionsFor = function (location) {
    return options.filter(function (o) {
      return o.kind !== "special" && o.location && province(o.location) === province(location);
    });
  };

  // The unit an order line is about, as the engine answered it; null when unknown.
  function lineLocation(line) {
    var d = dataOf[line];
    if (!d || !d.location || d.kind === "special" || d.kind === "waive") return null;
    return province(d.location);
  }

  function lines() {
    return textarea.value.split("\n").map(function (l) { return l.trim(); }).filter(Boolean);
  }

  function remember(orders) {
    orders.forEach(function (o) { if (o.data) dataOf[o.text] = o.data; });
  }

  // Put an order the menu made in the box, in place of the unit's other order, and save.
  function place(option) {
    dataOf[option.order] = option;
    var where = option.kind === "special" || option.kind === "waive" || option.kind === "build"
      ? null : province(option.location);
    var kept = lines().filter(function (l) {
      return l !== option.order && (where === null || lineLocation(l) !== where);
    });
    kept.push(option.order);
    textarea.value = kept.join("\n");
    save();
    idle(option.order + " — saved.");
  }

  // -- checking as the player types (nothing is stored), saving when asked

  var timer = null;
  textarea.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(check, 600);
  });

  // Another tab (or device) may save this power's orders too. Each PUT says which version
  // of the saved orders this box started from; if they changed since (412), the saved orders
  // are fetched and this box's own changes are laid over them, unit by unit, so that no
  // order the other tab gave another unit is lost.
  var version = form.dataset.version || "";
  var versionField = form.querySelector("[name=version]");
  var synced = lines();  // the saved orders as this box last knew them
  function setVersion(value) {
    version = value;
    if (versionField) versionField.value = value;  // so that "Save orders" sends it too
  }

  function etag(response) {
    return (response.headers.get("ETag") || "").replace(/^W\//, "").replace(/"/g, "");
  }

  function touched() {
    var now = new Set(lines()), before = new Set(synced), places = new Set();
    lines().concat(synced).forEach(function (line) {
      if (now.has(line) !== before.has(line)) places.add(lineLocation(line) || line);
    });
    return places;
  }

  var MERGED = "Your orders were also changed in another tab; both sets of changes are kept.";
  var merged = false;  // whether the last save had to merge
  function merge() {
    var mineChanged = touched();
    var key = function (line) { return lineLocation(line) || line; };
    return fetch(form.dataset.api, {
      credentials: "same-origin", headers: { Accept: "application/json" },
    }).then(function (response) {
      var fresh = etag(response);
      return response.json().then(function (orders) {
        var saved = orders.filter(function (o) { return o.power === data.power; });
        remember(saved);
        var kept = saved.map(function (o) { return o.text; }).filter(function (line) {
          return !mineChanged.has(key(line));
        });
        var own = lines().filter(function (line) { return mineChanged.has(key(line)); });
        textarea.value = kept.concat(own).join("\n");
        synced = saved.map(function (o) { return o.text; });
        setVersion(fresh);
        merged = true;
        if (!step) idle(MERGED);
      });
    });
  }

  var answers = 0;  // only the latest answer counts: answers may overtake each other
  function send(method, url, retries) {
    clearTimeout(timer);
    var sent = lines();
    var number = ++answers;
    form.dataset.checking = "1";
    var headers = { "Content-Type": "application/json", "X-CSRFToken": token, Accept: "application/json" };
    if (method === "PUT" && version) headers["If-Match"] = '"' + version + '"';
    return fetch(url, {
      method: method,
      credentials: "same-origin",
      headers: headers,
      body: JSON.stringify({ orders: sent }),
    }).then(function (response) {
      if (method === "PUT" && response.status === 412 && retries > 0 && number === answers) {
        return merge().then(function () { return send(method, url, retries - 1); }).then(function () {
          return { stale: true };
        });
      }
      if (method === "PUT" && response.ok) {
        setVersion(etag(response));
        synced = sent;
      }
      return response.json().then(function (body) { return { ok: response.ok, body: body }; });
    }).then(function (reply) {
      if (reply.stale || number !== answers) return;
      if (!reply.ok) {
        statusList.innerHTML = "";
        var li = document.createElement("li");
        li.className = "invalid";
        li.textContent = reply.body.detail || JSON.stringify(reply.body);
        statusList.appendChild(li);
        return;
      }
      remember(reply.body);
      showStatus(reply.body, method === "PUT");
      if (method === "PUT") return redraw();
    }).finally(function () { if (number === answers) form.dataset.checking = ""; });
  }

  function check() { return send("POST", data.check, 0); }
  function save() { return send("PUT", form.dataset.api, 2); }

  // "Save orders" saves through the API and stays on the page (without JavaScript the form
  // posts as usual).
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    merged = false;
    save().then(function () { if (!step) idle((merged ? MERGED + " " : "") + "Orders saved."); });
  });

  function showStatus(orders, saved) {
    statusList.innerHTML = "";
    var ordered = new Set();
    orders.forEach(function (order) {
      var li = document.createElement("li");
      li.className = order.valid ? "valid" : "invalid";
      var tag = document.createElement("span");
      tag.className = "power-tag";
      tag.textContent = order.power;
      li.appendChild(tag);
      li.appendChild(document.createTextNode(" " + (order.canonical || order.text) + " — "));
      var verdict = document.createElement("strong");
      verdict.textContent = order.valid ? "valid" : "invalid";
      li.appendChild(verdict);
      if (!order.valid && order.reason) li.appendChild(document.createTextNode(": " + order.reason));
      if (!saved && synced.indexOf(order.text) < 0) li.appendChild(document.createTextNode(" (not saved yet)"));
      statusList.appendChild(li);
      if (order.valid) {
        var loc = lineLocation(order.text);
        if (loc) ordered.add(loc);
      }
    });
    if (!orders.length) {
      statusList.innerHTML = '<li class="none">No orders.</li>';
    }
    unordered = new Set(mine().map(function (u) { return u.location; }).filter(function (loc) {
      return !ordered.has(province(loc));
    }));
    if (unorderedNote) {
      var missing = mine().filter(function (u) { return unordered.has(u.location); });
      unorderedNote.className = missing.length ? "warn" : "ok";
      unorderedNote.textContent = missing.length
        ? "Without orders: " + missing.map(function (u) { return u.unit + " " + u.location; }).join(", ") + "."
        : "Every unit has an order.";
    }
    decorate();
  }

  // The saved orders' marks on the board: live.js lays them over the loaded board when the
  // page has it; otherwise the whole board is fetched again.
  function redraw() {
    var live = window.greatGame;
    if (live && live.drawOrders && viewport.dataset.ordersUrl) return live.drawOrders();
    return fetch(viewport.dataset.boardUrl, { credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (svg) { inner.innerHTML = svg; decorate(); });
  }
  document.addEventListener("board:drawn", function () { decorate(); });

  // -- the board's pieces

  function decorate() {
    inner.querySelectorAll("g.unit").forEach(function (g) {
      var loc = g.dataset.location;
      var own = g.dataset.power === data.power &&
        (data.phase !== "retreats" || g.classList.contains("dislodged"));
      g.classList.toggle("unordered", own && unordered.has(loc));
      if (own) {
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "button");
        var title = g.querySelector("title");
        if (title) g.setAttribute("aria-label", title.textContent);
      }
    });
  }

  function highlight(places) {
    inner.querySelectorAll("path.target").forEach(function (p) { p.classList.remove("target"); });
    (places || []).forEach(function (name) {
      var path = inner.querySelector('path[data-province="' + CSS.escape(province(name)) + '"]');
      if (path) path.classList.add("target");
    });
  }

  function button(label, action) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.addEventListener("click", action);
    choices.appendChild(b);
    return b;
  }

  // Ask for one of ``targets`` (places, highlighted and clickable on the board).
  function ask(text, targets, onPick, extra) {
    prompt.textContent = text;
    choices.innerHTML = "";
    highlight(targets);
    step = { targets: targets, pick: onPick };
    (targets || []).forEach(function (t) { button(t, function () { onPick(t); }); });
    if (extra) extra();
    button("Cancel", function () { idle(); });
  }

  function unique(list) { return Array.from(new Set(list)); }

  function idle(note) {
    step = null;
    highlight([]);
    choices.innerHTML = "";
    var lead = note ? note + " " : "";
    if (data.phase === "adjustments") {
      // Builds, removals and waives are chosen from the engine's list, not by clicking a unit.
      prompt.textContent = lead + (data.guide || "Choose below.");
      options.forEach(function (o) { button(o.order, function () { place(o); }); });
      return;
    }
    prompt.textContent = lead + "Click one of your units on the board, or choose it here.";
    mine().forEach(function (u) {
      var b = button(u.unit + " " + u.location, function () { selectUnit(u); });
      if (unordered.has(u.location)) b.classList.add("warn");
    });
    // A rule's own orders (a canal permit, a Chinese army entering or leaving).
    options.filter(function (o) { return o.kind === "special"; }).forEach(function (o) {
      button(o.order, function () { place(o); }).classList.add("rule-order");
    });
  }

  var MOVES = { move: "Move", retreat: "Retreat" };

  var loaded = false, waiting = null;  // a unit clicked before the engine's list came

  function selectUnit(unit) {
    if (!loaded) { waiting = unit; prompt.textContent = "Loading your orders…"; return; }
    var base = unit.unit + " " + unit.location;
    inner.querySelectorAll(".selected").forEach(function (g) { g.classList.remove("selected"); });
    var g = inner.querySelector('g.unit[data-location="' + CSS.escape(unit.location) + '"]');
    if (g) g.classList.add("selected");
    var own = optionsFor(unit.location);
    ask(base + ": what should it do?", [], null, function () {
      if (!own.length) {
        prompt.textContent = base + ": the engine lists no order for it.";
        return;
      }
      // One button per kind of order the engine lists, moves apart by the route it names.
      var groups = [];
      own.forEach(function (o) {
        var key = o.kind + (o.via ? " via " + o.via : "");
        var group = groups.find(function (x) { return x.key === key; });
        if (!group) groups.push(group = { key: key, kind: o.kind, via: o.via, items: [] });
        group.items.push(o);
      });
      groups.forEach(function (group) {
        var label = (MOVES[group.kind] || group.kind.charAt(0).toUpperCase() + group.kind.slice(1)) +
          (group.via ? " via " + group.via : "");
        if (group.items.length === 1 && !group.items[0].destination && !group.items[0].target) {
          button(label, function () { place(group.items[0]); });
        } else if (group.kind === "support" || group.kind === "convoy") {
          button(label + "…", function () { aimed(base, group); });
        } else {
          button(label + "…", function () { where(base, label, group.items); });
        }
      });
    });
  }

  // Where a unit goes: the destinations of the engine's orders.
  function where(base, label, items) {
    ask(label + ": where does " + base + " go? Click a highlighted province.",
      unique(items.map(function (o) { return o.destination; })), function (p) {
        place(items.find(function (o) { return o.destination === p; }));
      });
  }

  // A support or a convoy: first the unit it is for, then that unit's destination.
  function aimed(base, group) {
    var verb = group.kind === "support" ? "support" : "convoy";
    ask("Which unit does " + base + " " + verb + "? Click it.",
      unique(group.items.map(function (o) { return o.target; })), function (target) {
        var items = group.items.filter(function (o) { return o.target === target; });
        var them = items[0].target_unit + " " + target;
        var holding = items.find(function (o) { return !o.destination; });
        var moving = items.filter(function (o) { return o.destination; });
        ask("Where does " + them + " go? Click it" + (holding ? ", or support it holding." : "."),
          moving.map(function (o) { return o.destination; }), function (p) {
            place(moving.find(function (o) { return o.destination === p; }));
          }, function () {
            if (holding) button("Support holding", function () { place(holding); });
          });
      });
  }

  function placeOf(target) {
    var g = target.closest("g.unit");
    if (g) return g.dataset.location;
    var path = target.closest("[data-province]");
    return path ? path.dataset.province : null;
  }

  function pick(spot) {
    if (!spot) return;
    if (step && step.pick) {
      var target = step.targets.find(function (t) { return province(t) === province(spot); });
      if (target) { step.pick(target); return; }
    }
    var unit = unitAt(spot, mine());
    if (unit && data.phase !== "adjustments") selectUnit(unit);
  }

  inner.addEventListener("click", function (e) { pick(placeOf(e.target)); });
  inner.addEventListener("keydown", function (e) {
    if ((e.key === "Enter" || e.key === " ") && e.target.closest("g.unit")) {
      e.preventDefault();
      pick(placeOf(e.target));
    }
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && step) idle();
  });

  decorate();
  prompt.textContent = data.phase === "adjustments" ? data.guide || "" : "Loading your orders…";
  menu.hidden = false;
  viewport.classList.add("ordering");
  fetch(data.options, { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then(function (r) { return r.ok ? r.json() : { orders: [] }; })
    .then(function (reply) {
      options = reply.orders || [];
      options.forEach(function (o) { dataOf[o.order] = o; });
      menu.dataset.options = String(options.length);
      loaded = true;
      idle();
      if (waiting) selectUnit(waiting);
    });
  if (lines().length) check();  // the saved orders' data, and their verdicts
})();
