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
    var due = new Date(deadline.getAttribute("datetime"));
    var tick = function () {
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
  var canonicalOf = {};  // order text -> canonical, from the last check
  var step = null;       // what a click on the board means now

  menu.hidden = false;
  viewport.classList.add("ordering");

  var province = function (loc) { return loc.split("/")[0]; };
  var mine = function () {
    var list = data.phase === "retreats" ? data.dislodged : data.units;
    return list.filter(function (u) { return u.power === data.power; });
  };
  var unitAt = function (place, list) {
    return (list || data.units).find(function (u) { return province(u.location) === province(place); });
  };
  function reach(unit) {
    var table = unit.unit === "A" ? data.army : data.fleet;
    return (table[unit.location] || []).slice();
  }
  function reachProvinces(unit) {
    return Array.from(new Set(reach(unit).map(province)));
  }

  // The unit an order line is about, from its checked canonical text or as typed.
  function lineLocation(line) {
    var text = canonicalOf[line] || line;
    var m = /^(?:build\s+|remove\s+)?[AF]\s+(.+?)(?:\s+(?:H|HOLD|-|->|S|C|R|D|MOVE|SUPPORTS?|CONVOYS?|RETREAT|DISBAND)(?=\s|$).*)?$/i.exec(text.trim());
    if (!m) return null;
    var name = m[1].toLowerCase();
    for (var p in data.provinces) {
      if (p.toLowerCase() === province(name) || data.provinces[p].abbreviation.toLowerCase() === province(name)) {
        return p;
      }
    }
    return null;
  }

  function lines() {
    return textarea.value.split("\n").map(function (l) { return l.trim(); }).filter(Boolean);
  }

  function setOrder(location, text) {
    var kept = lines().filter(function (l) {
      return location === null || lineLocation(l) !== province(location);
    });
    kept.push(text);
    textarea.value = kept.join("\n");
    check();
    idle(text + " — added.");
  }

  // -- checking orders through the API, as the player types

  var timer = null;
  textarea.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(check, 800);  // the API allows some sixty checks a minute
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
      if (now.has(line) !== before.has(line)) places.add(lineLocation(line));
    });
    return places;
  }

  function merge() {
    var mineChanged = touched();
    return fetch(form.dataset.api, {
      credentials: "same-origin", headers: { Accept: "application/json" },
    }).then(function (response) {
      var fresh = etag(response);
      return response.json().then(function (orders) {
        var saved = orders.filter(function (o) { return o.power === data.power; });
        saved.forEach(function (o) { canonicalOf[o.text] = o.canonical || o.text; });
        var kept = saved.map(function (o) { return o.text; }).filter(function (line) {
          return !mineChanged.has(lineLocation(line));
        });
        var own = lines().filter(function (line) { return mineChanged.has(lineLocation(line)); });
        textarea.value = kept.concat(own).join("\n");
        synced = saved.map(function (o) { return o.text; });
        setVersion(fresh);
        if (!step) idle("Your orders were also changed in another tab; both sets of changes are kept.");
      });
    });
  }

  var checks = 0;  // only the latest answer counts: answers may overtake each other
  function check(retries) {
    clearTimeout(timer);
    if (retries === undefined) retries = 2;
    var sent = lines();
    var number = ++checks;
    form.dataset.checking = "1";
    var headers = { "Content-Type": "application/json", "X-CSRFToken": token, Accept: "application/json" };
    if (version) headers["If-Match"] = '"' + version + '"';
    return fetch(form.dataset.api, {
      method: "PUT",
      credentials: "same-origin",
      headers: headers,
      body: JSON.stringify({ orders: sent }),
    }).then(function (response) {
      if (response.status === 412 && retries > 0 && number === checks) {
        return merge().then(function () { return check(retries - 1); }).then(function () {
          return { stale: true };
        });
      }
      if (response.ok) {
        setVersion(etag(response));
        synced = sent;
      }
      return response.json().then(function (body) { return { ok: response.ok, body: body }; });
    }).then(function (reply) {
      if (reply.stale || number !== checks) return;
      if (!reply.ok) {
        statusList.innerHTML = "";
        var li = document.createElement("li");
        li.className = "invalid";
        li.textContent = reply.body.detail || JSON.stringify(reply.body);
        statusList.appendChild(li);
        return;
      }
      showStatus(reply.body);
      return redraw();
    }).finally(function () { if (number === checks) form.dataset.checking = ""; });
  }

  function showStatus(orders) {
    statusList.innerHTML = "";
    var ordered = new Set();
    orders.forEach(function (order) {
      canonicalOf[order.text] = order.canonical || order.text;
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
      statusList.appendChild(li);
      if (order.valid) {
        var loc = lineLocation(order.canonical);
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
  }

  function redraw() {
    return fetch(viewport.dataset.boardUrl, { credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (svg) { inner.innerHTML = svg; decorate(); });
  }

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

  function ask(text, targets, onPick, extra) {
    prompt.textContent = text;
    choices.innerHTML = "";
    highlight(targets);
    step = { targets: targets, pick: onPick };
    (targets || []).forEach(function (t) { button(t, function () { onPick(t); }); });
    if (extra) extra();
    button("Cancel", function () { idle(); });
  }

  function idle(note) {
    step = null;
    highlight([]);
    prompt.textContent = (note ? note + " " : "") + "Click one of your units on the board, or choose it here.";
    choices.innerHTML = "";
    if (data.phase === "adjustments") {
      adjustments();
      return;
    }
    mine().forEach(function (u) {
      var b = button(u.unit + " " + u.location, function () { selectUnit(u); });
      if (unordered.has(u.location)) b.classList.add("warn");
    });
    var suez = data.suez;
    if (suez && data.phase === "movement" && unitAt(suez.controlled_from, mine())) {
      button("Suez permit…", suezPermit);
    }
  }

  function selectUnit(unit) {
    var base = unit.unit + " " + unit.location;
    inner.querySelectorAll(".selected").forEach(function (g) { g.classList.remove("selected"); });
    var g = inner.querySelector('g.unit[data-location="' + CSS.escape(unit.location) + '"]');
    if (g) g.classList.add("selected");
    ask(base + ": what should it do?", [], null, function () {
      if (data.phase === "retreats") {
        var d = data.dislodged.find(function (x) { return x.location === unit.location; });
        button("Retreat…", function () {
          ask("Where does " + base + " retreat?", (d && d.retreats) || [], function (p) {
            setOrder(unit.location, base + " R " + p);
          });
        });
        button("Disband", function () { setOrder(unit.location, base + " D"); });
        return;
      }
      button("Hold", function () { setOrder(unit.location, base + " H"); });
      button("Move…", function () { move(unit); });
      button("Support…", function () { support(unit); });
      if (unit.unit === "F" && data.provinces[province(unit.location)].type === "sea") {
        button("Convoy…", function () { convoy(unit); });
      }
      var rail = data.rail;
      if (rail && unit.unit === "A" && data.power === rail.power && rail.route.indexOf(unit.location) >= 0) {
        button("Move via TSR…", function () { railroad(unit); });
      }
    });
  }

  function move(unit) {
    var base = unit.unit + " " + unit.location;
    var places = reach(unit);
    ask("Where does " + base + " move? Click a highlighted province.", places, function (p) {
      setOrder(unit.location, base + " - " + p);
    });
  }

  function railroad(unit) {
    var base = unit.unit + " " + unit.location;
    var places = data.rail.route.filter(function (p) { return p !== unit.location; });
    ask("Where does " + base + " ride on the railroad?", places, function (p) {
      setOrder(unit.location, base + " - " + p + " via TSR");
    });
  }

  function support(unit) {
    var base = unit.unit + " " + unit.location;
    var near = reachProvinces(unit);
    var candidates = data.units.filter(function (u) {
      if (u.location === unit.location) return false;
      return near.indexOf(province(u.location)) >= 0 ||
        reachProvinces(u).some(function (p) { return near.indexOf(p) >= 0; });
    });
    ask("Which unit does " + base + " support? Click it.", candidates.map(function (u) { return u.location; }), function (place) {
      var other = unitAt(place);
      if (!other) return;
      var them = other.unit + " " + other.location;
      var dests = reachProvinces(other).filter(function (p) { return near.indexOf(p) >= 0; });
      ask("Where does " + them + " go? Click it, or support it holding.", dests, function (p) {
        if (province(p) === province(other.location)) setOrder(unit.location, base + " S " + them);
        else setOrder(unit.location, base + " S " + them + " - " + p);
      }, function () {
        if (near.indexOf(province(other.location)) >= 0) {
          button("Support holding", function () { setOrder(unit.location, base + " S " + them); });
        }
      });
    });
  }

  function convoy(unit) {
    var base = unit.unit + " " + unit.location;
    var shores = reachProvinces(unit).filter(function (p) { return data.provinces[p].type === "coast"; });
    var armies = data.units.filter(function (u) { return u.unit === "A" && shores.indexOf(u.location) >= 0; });
    ask("Which army does " + base + " convoy?", armies.map(function (u) { return u.location; }), function (place) {
      var army = unitAt(place);
      ask("Where to?", shores.filter(function (p) { return p !== army.location; }), function (p) {
        setOrder(unit.location, base + " C A " + army.location + " - " + p);
      });
    });
  }

  function suezPermit() {
    var fleets = data.units.filter(function (u) {
      return u.unit === "F" && data.suez.connects.indexOf(u.location) >= 0;
    });
    ask("Which fleet may pass the canal?", fleets.map(function (u) { return u.location; }), function (place) {
      var text = "Suez permit F " + unitAt(place).location;
      textarea.value = lines().filter(function (l) { return !/^suez/i.test(l); }).concat([text]).join("\n");
      check();
      idle(text + " — added.");
    });
  }

  function adjustments() {
    var own = data.units.filter(function (u) { return u.power === data.power; });
    var centres = data.centres[data.power] || [];
    var homes = (data.homes[data.power] || []).filter(function (h) {
      return centres.indexOf(h) >= 0 && !unitAt(h);
    });
    if (centres.length > own.length) {
      homes.forEach(function (h) {
        button("Build A " + h, function () { setOrder(null, "Build A " + h); });
        if (data.provinces[h].type === "coast") {
          button("Build F " + h, function () { setOrder(null, "Build F " + h); });
        }
      });
      button("Waive", function () { setOrder(null, "Waive"); });
    } else if (centres.length < own.length) {
      own.forEach(function (u) {
        button("Remove " + u.unit + " " + u.location, function () {
          setOrder(null, "Remove " + u.unit + " " + u.location);
        });
      });
    }
  }

  function placeOf(target) {
    var g = target.closest("g.unit");
    if (g) return g.dataset.location;
    var path = target.closest("[data-province]");
    return path ? path.dataset.province : null;
  }

  function pick(place) {
    if (!place) return;
    if (step && step.pick) {
      var target = step.targets.find(function (t) { return province(t) === province(place); });
      if (target) { step.pick(target); return; }
    }
    var unit = unitAt(place, mine());
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
  idle();
})();
