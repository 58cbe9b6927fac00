// Great Game board: pan and zoom, a deadline countdown, and click-to-order.
// Everything here is an extra: the page works without it, through plain forms.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // The words this script writes, in the reader's language (the page's "script-words" JSON,
  // games/context_processors.py); English when none is given. ``%(name)s`` takes a name.
  var WORDS = (function () {
    var given = document.getElementById("script-words");
    try { return given ? JSON.parse(given.textContent) : {}; } catch (e) { return {}; }
  })();
  function t(text, names) {
    var said = WORDS[text] || text;
    return said.replace(/%\((\w+)\)s/g, function (all, name) {
      return names && name in names ? names[name] : all;
    });
  }

  // -- pan and zoom ------------------------------------------------------------------
  //
  // The board is drawn at its own size and scaled as a whole; ``view.s`` is the screen scale
  // (CSS px per board unit). The default fit shows the whole board on a wide screen, and
  // fills the height of a phone's view around the player's own units. Names keep a readable
  // size on screen: the board's label groups are scaled by ``--k`` and the minor ones, which
  // would then run into others, are hidden until the zoom makes room (render.py lays them
  // out). The wheel zooms only over the board; elsewhere the page scrolls as usual.

  // The line breaks of Python's str.splitlines, which the server and the no-script form use.
  var LINE_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;
  // The characters the engine reads as nothing at all (adjudication.blank).
  var INVISIBLE = /[\ufeff\u200b\u200c\u200d\u2060\u00ad\u200e\u200f]/g;
  var PHONE_SCALE = 0.9;  // a phone's first view: CSS px per board unit

  function panZoom(viewport) {
    var inner = viewport.querySelector(".board-inner");
    var view = { x: 0, y: 0, s: 1 };
    var fitted = null;  // the default fit's scale, once the board is in
    var pointers = new Map();
    var start = null;
    var moved = false;
    var shownAt = null;  // the scale the names were last laid out for
    var listeners = [];
    var pad = 0;  // px of the view's foot under a bottom sheet
    var forced = new Set();  // places whose names show whatever the zoom (highlighted)
    // Where a power with no unit on the board acts (its legal orders' places: a Chinese great
    // power's entry spaces), once they are known; and the view the first fit left, to tell
    // whether the player has moved it since.
    var acting = [];
    var firstView = null;

    function size() { return { w: inner.offsetWidth || 1, h: inner.offsetHeight || 1 }; }
    function phone() { return viewport.clientWidth < 600; }

    function labels() {
      var svg = inner.querySelector("svg");
      var group = svg && svg.querySelector("#labels");
      if (!group || shownAt === view.s) return;
      shownAt = view.s;
      var px = Number(group.dataset.labelPx || 11), font = Number(group.dataset.minFont || 9.5);
      // Names grow with the board from ``px`` up to 15 px on screen, then stay that size
      // (a hair over: the browser composes transforms in single precision).
      var size = Math.min(Math.max(px, font * view.s), Math.max(px, 15));
      svg.style.setProperty("--k", (size / (view.s * font) * 1.002).toFixed(4));
      svg.style.setProperty("--s", view.s.toFixed(4));  // a unit's tap target, in CSS
      // The legend's smallest words at least ``px`` on screen too; and the legend keeps the
      // size it has at the default fit as one zooms in (it grew with the board, over units).
      var legend = Array.from(svg.querySelectorAll("#legend text")).map(function (t) {
        return Number(t.getAttribute("font-size")) || font;
      });
      if (legend.length) {
        var least = Math.min.apply(null, legend);
        var onScreen = Math.max(fitted || view.s, px / least);  // px a board unit of it
        svg.style.setProperty("--lk", (onScreen / view.s * 1.002).toFixed(4));
      }
      // The whole name where it fits, else the abbreviation, else (far out) none; a place
      // one is asked to pick always shows at least its abbreviation.
      group.querySelectorAll("g.label").forEach(function (g) {
        var whole = view.s >= Number(g.dataset.minScale || 0);
        var short = !whole && (view.s >= Number(g.dataset.shortScale || 0) || forced.has(g.dataset.province));
        g.classList.toggle("off", !whole && !short);
        g.classList.toggle("short", short);
      });
      viewport.classList.toggle("near", view.s * 8 >= px);  // the small notes, close up
    }

    // The legend keeps to the view's lower left corner: drawn at the board's, it was out of
    // sight wherever the view leaves that corner out (a tall board is cut at the foot on a
    // wide screen). It moves up and right with the view, never past where it is drawn.
    // When it would cover more units there than in the view's lower right corner (Far East's
    // fleets in the Indian Ocean, at the fit), it goes to that corner.
    var unitBoxes = null;  // the units' boxes on the board, for the board drawn now
    var legendRight = false;
    function placeLegend() {
      var svg = inner.querySelector("svg");
      var frame = svg && svg.querySelector("#legend > rect");
      if (!frame) return;
      var left = -view.x / view.s, bottom = (viewport.clientHeight - pad - view.y) / view.s;
      var right = Math.min((viewport.clientWidth - view.x) / view.s, size().w);  // the board's, at most
      var x = Number(frame.getAttribute("x")), width = Number(frame.getAttribute("width"));
      var height = Number(frame.getAttribute("height"));
      var foot = Number(frame.getAttribute("y")) + height;
      var margin = 6 / view.s;
      var k = Number(svg.style.getPropertyValue("--lk")) || 1;
      var dy = Math.min(0, bottom - margin - foot);
      var atLeft = Math.max(0, left + margin - x), atRight = right - margin - width * k - x;
      if (!unitBoxes || unitBoxes.svg !== svg) {
        unitBoxes = { svg: svg, boxes: Array.from(svg.querySelectorAll("g.unit")).map(function (g) {
          return g.getBBox();
        }) };
      }
      var covered = function (dx) {
        var x0 = x + dx, x1 = x0 + width * k, y1 = foot + dy, y0 = y1 - height * k;
        return unitBoxes.boxes.filter(function (b) {
          return b.x < x1 && b.x + b.width > x0 && b.y < y1 && b.y + b.height > y0;
        }).length;
      };
      var onLeft = covered(atLeft), onRight = atRight > atLeft ? covered(atRight) : Infinity;
      // The corner it is in, unless the other covers fewer (no flitting as the view pans).
      legendRight = legendRight ? onRight <= onLeft : onRight < onLeft;
      var dx = legendRight ? atRight : atLeft;
      svg.style.setProperty("--lx", dx.toFixed(2) + "px");
      svg.style.setProperty("--ly", dy.toFixed(2) + "px");
    }

    function apply() {
      var w = viewport.clientWidth, h = viewport.clientHeight, b = size();
      var iw = b.w * view.s, ih = b.h * view.s;
      // The board always fills the view (no empty sea beyond its edges); centred when
      // smaller than the view.
      // (A bottom sheet over the view's foot lets the board go up by as much.)
      view.x = iw <= w ? (w - iw) / 2 : Math.min(0, Math.max(view.x, w - iw));
      view.y = ih <= h && !pad ? (h - ih) / 2
        : Math.min(Math.max(0, (h - ih) / 2), Math.max(view.y, Math.min(0, h - pad - ih)));
      inner.style.transform = "translate(" + view.x + "px," + view.y + "px) scale(" + view.s + ")";
      viewport.dataset.scale = view.s.toFixed(4);
      labels();
      placeLegend();
      listeners.forEach(function (f) { f(); });
    }
    function limits(s) {
      // Out to the whole board (a phone starts closer in), in to 6 times the fit.
      var b = size(), whole = Math.min(viewport.clientWidth / b.w, viewport.clientHeight / b.h);
      var low = Math.min(fitted || 0.2, whole) * 0.8, high = Math.max(4, (fitted || 1) * 6);
      return Math.min(high, Math.max(low, s));
    }
    function zoom(factor, cx, cy) {
      var s = limits(view.s * factor);
      if (cx === undefined) { cx = viewport.clientWidth / 2; cy = viewport.clientHeight / 2; }
      view.x = cx - (cx - view.x) * (s / view.s);
      view.y = cy - (cy - view.y) * (s / view.s);
      view.s = s;
      apply();
    }
    // On a wide screen the board's width (a tall board a little cut at the foot, rather than
    // wide empty sea beside it); on a phone close enough to read and tap. Around one's units
    // when the board does not show whole.
    function fit() {
      var w = viewport.clientWidth, h = viewport.clientHeight, b = size();
      if (!inner.querySelector("svg")) return;
      var s = Math.min(w / b.w, 1.5 * h / b.h);
      // Close enough to read and tap one's units (a unit about 20 px across, its tap
      // target 44 px), never less than the board's width.
      if (phone()) s = Math.max(w / b.w, Math.min(PHONE_SCALE, 4 * w / b.w));
      var focus = null;
      if (b.w * s > w + 1 || b.h * s > h + 1) {
        var own = viewport.dataset.power ? inner.querySelectorAll(
          'g.unit[data-power="' + CSS.escape(viewport.dataset.power) + '"]') : [];
        var centre = function (element, n) {
          var r = element.getBBox();
          return { x: r.x + r.width / 2, y: r.y + r.height / 2, n: n };
        };
        // The view around most of one's units: the centre of the fullest view-sized window.
        // A marker of several fleets in one ocean counts as that many (``data-count``).
        var spots = Array.from(own).map(function (g) {
          return centre(g, Number(g.dataset.count) || 1);
        });
        // A power with no unit on the board (a Chinese great power before its armies enter
        // from the board's edges): around the places it may act in (its entry spaces), once
        // its orders are listed; until then the whole board, not a middle where it has nothing.
        if (viewport.dataset.power && !spots.length) {
          spots = acting.map(function (place) {
            var shape = inner.querySelector('path[data-province="' + CSS.escape(place) + '"]');
            return shape && centre(shape, 1);
          }).filter(Boolean);
          if (!spots.length) {
            whole();
            fitted = view.s;
            firstView = { x: view.x, y: view.y, s: view.s };
            return;
          }
        }
        var weight = function (list) { return list.reduce(function (t, o) { return t + o.n; }, 0); };
        var best = [];
        spots.forEach(function (c) {
          var near = spots.filter(function (o) {
            return Math.abs(o.x - c.x) < w / s / 2.4 && Math.abs(o.y - c.y) < h / s / 2.4;
          });
          if (weight(near) > weight(best)) best = near;
        });
        if (best.length) {
          focus = {
            x: best.reduce(function (t, o) { return t + o.x * o.n; }, 0) / weight(best),
            y: best.reduce(function (t, o) { return t + o.y * o.n; }, 0) / weight(best),
          };
        }
      }
      fitted = s;
      view.s = s;
      focus = focus || { x: b.w / 2, y: b.h / 2 };
      view.x = w / 2 - focus.x * s;
      view.y = h / 2 - focus.y * s;
      shownAt = null;
      apply();
      firstView = { x: view.x, y: view.y, s: view.s };
    }
    // "Fit": the whole board in the view (the start view, ``fit``, may leave some of a tall
    // board out, and did leave units out of sight).
    function whole() {
      var w = viewport.clientWidth, h = viewport.clientHeight - pad, b = size();
      if (!inner.querySelector("svg")) return;
      view.s = Math.min(w / b.w, h / b.h);
      view.x = (w - b.w * view.s) / 2;
      view.y = (h - b.h * view.s) / 2;
      shownAt = null;
      apply();
    }
    // The legend fades while the pointer or the focused unit is under it: it floats over the
    // board's lower left corner, over units there (it never takes their clicks: CSS).
    function fadeLegend(x, y, rect) {
      var legend = inner.querySelector("svg #legend");
      if (!legend) return;
      var r = legend.getBoundingClientRect();
      var under = rect
        ? rect.left < r.right && rect.right > r.left && rect.top < r.bottom && rect.bottom > r.top
        : x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
      viewport.classList.toggle("under-legend", under);
    }
    viewport.addEventListener("pointermove", function (e) {
      if (e.pointerType === "mouse" || e.pointerType === "pen") fadeLegend(e.clientX, e.clientY);
    });
    viewport.addEventListener("pointerleave", function () { viewport.classList.remove("under-legend"); });
    viewport.addEventListener("focusin", function (e) {
      if (e.target !== viewport) fadeLegend(0, 0, e.target.getBoundingClientRect());
    });
    // Pan so that a screen rectangle (a unit) shows above ``bottom`` px of the view.
    function reveal(rect, bottom) {
      var r = viewport.getBoundingClientRect();
      pad = Math.max(0, r.bottom - (window.innerHeight - (bottom || 0)));
      var visibleBottom = Math.min(r.bottom, window.innerHeight - (bottom || 0)) - 16;
      var dy = 0;
      if (rect.bottom > visibleBottom) dy = visibleBottom - rect.bottom;
      else if (rect.top < r.top + 16) dy = r.top + 16 - rect.top;
      if (dy) { view.y += dy; apply(); }
    }

    viewport.addEventListener("pointerdown", function (e) {
      if (e.button !== undefined && e.button > 0) return;
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
    // Nothing on the board is dragged or selected as text.
    viewport.addEventListener("dragstart", function (e) { e.preventDefault(); });
    viewport.addEventListener("selectstart", function (e) { e.preventDefault(); });
    // A drag is not a click on whatever it ended over.
    viewport.addEventListener("click", function (e) {
      if (moved) { e.stopPropagation(); e.preventDefault(); moved = false; }
    }, true);
    viewport.addEventListener("wheel", function (e) {
      e.preventDefault();
      var r = viewport.getBoundingClientRect();
      zoom(Math.pow(1.0015, -e.deltaY * (e.deltaMode === 1 ? 20 : 1)), e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
    viewport.addEventListener("keydown", function (e) {
      var zoomKey = ["+", "=", "-", "0"].indexOf(e.key) >= 0;
      // The zoom keys also from a unit the focus is on; the arrows move the focus there.
      if (e.target !== viewport && !zoomKey) return;
      var step = 60, keys = {
        ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step],
      };
      if (keys[e.key]) { view.x += keys[e.key][0]; view.y += keys[e.key][1]; apply(); }
      else if (e.key === "+" || e.key === "=") zoom(1.25);
      else if (e.key === "-") zoom(1 / 1.25);
      else if (e.key === "0") whole();
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
        else if (which === "reset") whole();
      });
    }
    // The board arrives on its own (live.js); fit it the first time, keep the view after.
    document.addEventListener("board:drawn", function () {
      if (fitted === null) fit(); else { shownAt = null; apply(); }
    });
    // A new width (a turned phone, a resized window) fits again; a phone's address bar
    // coming and going (only the height changes) keeps one's view.
    var resized = null, width = viewport.clientWidth;
    window.addEventListener("resize", function () {
      clearTimeout(resized);
      resized = setTimeout(function () {
        if (fitted === null) return;
        if (viewport.clientWidth !== width) { width = viewport.clientWidth; fit(); } else apply();
      }, 150);
    });
    if (inner.querySelector("svg")) fit();
    return {
      reveal: reveal,
      names: function (places) { forced = new Set(places); shownAt = null; labels(); },
      unpad: function () { if (pad) { pad = 0; apply(); } },
      onChange: function (f) { listeners.push(f); },
      phone: phone,
      // The places the power may act in (its legal orders'), for a power with no unit on the
      // board: its first view goes to them, unless the player has moved it already.
      actsIn: function (places) {
        acting = places;
        var still = firstView && firstView.x === view.x && firstView.y === view.y &&
          firstView.s === view.s;
        if (still) fit();
      },
    };
  }

  var boards = [];
  document.querySelectorAll(".board-viewport").forEach(function (v) { boards.push(panZoom(v)); });

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
      if (left <= 0) { countdown.textContent = t("(due now)"); return; }
      var d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600);
      var m = Math.floor(left % 3600 / 60), s = left % 60;
      var day = t("%(n)s d", { n: d }), hour = t("%(n)s h", { n: h });
      var min = t("%(n)s min", { n: m }), sec = t("%(n)s s", { n: s });
      var parts = d ? [day, hour] : h ? [hour, min] : [min, sec];
      countdown.textContent = t("(%(left)s left)", { left: parts.join(" ") });
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

  // Run once for the page's phase, and again for each new phase live.js puts in place
  // ("orders:replaced"), whose orders panel, menu and board data are new: the listeners of
  // the phase before end with it (``signal``). (The body keeps the indentation it had.)
  var stopOrdering = null;
  document.addEventListener("orders:replaced", ordering);
  ordering();

  function ordering() {
  if (stopOrdering) stopOrdering();
  stopOrdering = null;
  if (window.greatGame) window.greatGame.readiness = null;
  var dataNode = document.getElementById("board-data");
  var form = document.getElementById("orders-form");
  if (!dataNode || !form) {
    var idleBoard = document.getElementById("board");
    if (idleBoard) idleBoard.classList.remove("ordering");
    return;
  }
  var ended = new AbortController();
  var signal = ended.signal;
  stopOrdering = function () { ended.abort(); };
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
  var missingUnits = null;  // the units without an order (a Set), once the page has counted
  var dock = document.getElementById("order-dock");
  var frame = viewport.parentNode;
  var board = boards[0];
  var anchor = null;  // the place whose unit the open menu is about
  var dataOf = {};       // order line -> the engine's data of it, from the last answer
  var options = [];      // this power's legal orders, as the engine lists them
  var step = null;       // what a click on the board means now

  var province = function (loc) { return loc.split("/")[0]; };
  // A place as the menu says it: "Arabia (south coast)" where the order writes "Arabia/sc".
  var COASTS = {
    nc: t("north coast"), sc: t("south coast"), ec: t("east coast"), wc: t("west coast")
  };
  var placeName = function (loc) {
    var coast = COASTS[loc.split("/")[1]];
    return coast ? t("%(province)s (%(coast)s)", { province: province(loc), coast: coast }) : loc;
  };
  var mine = function () {
    var list = data.phase === "retreats" ? data.dislodged : data.units;
    return list.filter(function (u) { return u.power === data.power; });
  };
  // The units that owe an order this phase: every unit in a movement phase, the dislodged
  // ones in a retreat phase, none in an adjustment phase (builds and removals are counted
  // instead: ``adjustmentLeft``).
  var due = function () { return data.phase === "adjustments" ? [] : mine(); };
  var unitAt = function (place, list) {
    return (list || data.units).find(function (u) { return province(u.location) === province(place); });
  };
  // The power's units in a place, as the position lists them: an entry space or an ocean
  // holds several, alike. The k-th of them is given the k-th order line about the place, so
  // that each has its own order (one ordered does not stand for all).
  var unitsIn = function (place) {
    return mine().filter(function (u) { return province(u.location) === province(place); });
  };
  // A unit as the menu names it: "F Arabia (south coast)"; where several of one's units
  // stand in one place they are told apart by their turn there, "F North Pacific Ocean (2 of 3)",
  // the order lines about the place going to them in that turn.
  var unitName = function (unit) {
    var name = unit.unit + " " + placeName(unit.location);
    var here = unitsIn(unit.location);
    if (here.length < 2) return name;
    return t("%(unit)s (%(n)s of %(count)s)", { unit: name, n: here.indexOf(unit) + 1, count: here.length });
  };
  var slot = null;  // {place, index}: which of the units in a place the open menu is about
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
  // The place a Chinese army's Leave takes one army from; null for any other line.
  function leaveLocation(line) {
    var d = dataOf[line];
    return d && d.kind === "special" && d.form === "leave" && d.location ? province(d.location) : null;
  }
  // The units owing an order that the lines (those not invalid) leave without one: counted
  // in each place, where an order (or a Leave) is one unit's, not the whole place's.
  function withoutOrders(list) {
    var given = {};
    list.forEach(function (l) {
      var p = lineLocation(l) || leaveLocation(l);
      if (p) given[p] = (given[p] || 0) + 1;
    });
    return due().filter(function (u) {
      var p = province(u.location);
      if (given[p]) { given[p] -= 1; return false; }
      return true;
    });
  }
  // The units the server found without orders when it drew the page (a place once per unit).
  function missingAtFirst() {
    var left = {};
    (data.unordered || []).forEach(function (loc) { left[loc] = (left[loc] || 0) + 1; });
    var out = new Set();
    due().slice().reverse().forEach(function (u) {
      if (left[u.location]) { left[u.location] -= 1; out.add(u); }
    });
    return out;
  }

  function lines() {
    // Split where the server splits a pasted list (Python's splitlines): an order holding
    // any of these breaks is refused there as two orders in one.
    // A line of nothing but characters drawn as nothing (a zero-width space pasted alone) is
    // an empty line, dropped as the server drops it.
    return textarea.value.split(LINE_BREAK).map(function (l) { return l.trim(); })
      .filter(function (l) { return l.replace(INVISIBLE, "").trim(); });
  }

  // order line -> whether the last answer found it valid, for each time it was in the list
  // (a second "Waive" may be refused where the first is not)
  var validOf = {};
  function remember(orders) {
    var fresh = {};
    orders.forEach(function (o) {
      if (o.data) dataOf[o.text] = o.data;
      (fresh[o.text] = fresh[o.text] || []).push(o.valid);
    });
    Object.assign(validOf, fresh);
  }
  // The lines of ``list`` not known to be invalid.
  function notInvalid(list) {
    var seen = {};
    return list.filter(function (l) {
      var n = seen[l] = (seen[l] || 0) + 1;
      return (validOf[l] || [])[n - 1] !== false;
    });
  }

  // -- an adjustment phase: how many builds (or removals) there are, and how many are left.
  // A waive uses a build. Lines the engine found invalid use none.
  var ADJUSTING = data.phase === "adjustments";
  var allowed = ADJUSTING ? (data.builds || data.removals || 0) : 0;
  var spends = data.builds ? ["build", "waive"] : ["remove"];
  function spending(list) {
    return notInvalid(list).filter(function (l) {
      var d = dataOf[l];
      return d && spends.indexOf(d.kind) >= 0;
    });
  }
  function spent() { return spending(lines()); }
  function adjustmentLeft() {
    var left = Math.max(0, allowed - spent().length);
    return data.builds
      ? t("Builds left: %(left)s of %(n)s.", { left: left, n: allowed })
      : t("Removals left: %(left)s of %(n)s.", { left: left, n: allowed });
  }

  // Put an order the menu made in the box, in place of the unit's other order, and save.
  function place(option) {
    dataOf[option.order] = option;
    // One order a unit, and one build a province: a new one there replaces the old (a
    // fleet built where an army was to be). Waives are alike and may be several.
    var where = option.kind === "special" || option.kind === "waive"
      ? null : province(option.location);
    var kept;
    if (option.kind === "special" && (option.form === "enter" || option.form === "leave")) {
      // A Chinese army brought on or taken off: each click one more, as the panel's buttons.
      kept = lines();
      kept.push(option.order);
    } else if (where !== null && unitsIn(where).length > 1) {
      // One of several units in the place: its own line is replaced, the others' kept. Picked
      // from a list rather than a unit's menu (a removal), it goes to the next unit still
      // without one, or else to the first.
      var there = lines().filter(function (l) { return lineLocation(l) === where; }).length;
      var index = slot && slot.place === where ? slot.index
        : (there < unitsIn(where).length ? there : 0);
      var at = 0, done = false;
      kept = [];
      lines().forEach(function (l) {
        if (lineLocation(l) === where && at++ === index) {
          kept.push(option.order);
          done = true;
        } else {
          kept.push(l);
        }
      });
      if (!done) kept.push(option.order);
    } else {
      kept = lines().filter(function (l) {
        if (option.kind === "waive") return true;
        return l !== option.order && (where === null || lineLocation(l) !== where);
      });
      kept.push(option.order);
    }
    // An order of a rule's that a power gives once a turn (a railroad ride, a canal permit):
    // a second would have both refused, so the one given before is taken out (its unit then
    // shows as without an order), as the seed's own order form allows only one.
    var replaced = [];
    if (option.once) {
      kept = kept.filter(function (l) {
        if (l === option.order || onceOf(l) !== option.once) return true;
        replaced.push(l);
        return false;
      });
    }
    textarea.value = kept.join("\n");
    // Said once the server answered: a refusal (the phase processed meanwhile, the limit of
    // saves a minute) is said here, where the player looks, not "saved".
    saveThenSay(function () {
      return replaced.length
        ? t("%(order)s — saved, in place of %(earlier)s: one a turn.",
          { order: option.order, earlier: replaced.join("; ") })
        : t("%(order)s — saved.", { order: option.order });
    }, option.order);
  }

  // Save the box, then say ``words()`` if it was saved, or why ``order`` was not. An answer
  // overtaken by a later one says nothing: the later one speaks.
  function saveThenSay(words, order) {
    save().then(function (outcome) {
      if (outcome && outcome.saved) said(words());
      else if (outcome && outcome.refused) said(notSaved(order, outcome.reasons));
    }, function () {
      said(notSaved(order, [t("Not saved; reload the page.")]));
    });
  }

  // What became of an order the menu placed, said in the menu's prompt (docked in the orders
  // panel); on a phone, where that panel is below the board, out of sight, also for a few
  // seconds at the foot of the screen.
  var toastTimer = null;
  function said(text) {
    idle(text);
    if (!board.phone()) return;
    var toast = document.getElementById("order-toast");
    if (!toast) {
      toast = document.createElement("p");
      toast.id = "order-toast";
      toast.setAttribute("aria-hidden", "true");  // the prompt says it to a screen reader
      document.body.appendChild(toast);
    }
    toast.textContent = text;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { toast.remove(); }, 4000);
  }

  function notSaved(order, reasons) {
    var why = (reasons || []).join(" ") || t("Not saved; reload the page.");
    if (!/[.!?。！？]$/.test(why)) why += ".";  // the prompt's own words follow
    return t("%(order)s — not saved: %(why)s", { order: order, why: why });
  }

  // The rule that allows the order of ``line`` once a turn (the engine's ``once``), or null.
  function onceOf(line) {
    var d = dataOf[line];
    if (!d) return null;
    var listed = d.once ? d : options.find(function (o) { return o.order === d.order; });
    return (listed && listed.once) || null;
  }

  // An adjustment taken back: the line leaves the box, which is saved.
  function takeBack(line) {
    var gone = false;
    textarea.value = lines().filter(function (l) {
      if (!gone && l === line) { gone = true; return false; }
      return true;
    }).join("\n");
    var said = (dataOf[line] && dataOf[line].order) || line;  // "Waive", as the button says
    saveThenSay(function () { return t("Taken back: %(order)s.", { order: said }); }, line);
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
  var synced = lines();  // the saved orders as this box last knew them (what it changed from)
  var stored = synced;   // the saved orders as this page last heard of them, here or elsewhere
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

  var MERGED = t("Your orders were also changed in another tab; both sets of changes are kept.");
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
        synced = stored = saved.map(function (o) { return o.text; });
        setVersion(fresh);
        merged = true;
        if (!step) idle(MERGED);
      });
    });
  }

  function phaseIndex() {
    var field = form.elements.phase;
    return field && /^\d+$/.test(field.value) ? Number(field.value) : null;
  }

  var answers = 0;  // only the latest answer counts: answers may overtake each other
  function send(method, url, retries) {
    clearTimeout(timer);
    var sent = lines();
    var sentText = textarea.value;
    // The phase the box was filled for: orders typed before it was processed are refused
    // (409), never merged into the next phase's after a 412.
    var body = { orders: sent };
    var phase = phaseIndex();
    if (phase !== null) body.phase = phase;
    var number = ++answers;
    form.dataset.checking = "1";
    var headers = { "Content-Type": "application/json", "X-CSRFToken": token, Accept: "application/json" };
    if (method === "PUT" && version) headers["If-Match"] = '"' + version + '"';
    if (method === "PUT") { puts++; putting++; }
    return fetch(url, {
      method: method,
      credentials: "same-origin",
      headers: headers,
      body: JSON.stringify(body),
    }).then(function (response) {
      if (method === "PUT" && response.status === 412 && retries > 0 && number === answers) {
        return merge().then(function () { return send(method, url, retries - 1); }).then(function (outcome) {
          return { stale: true, outcome: outcome };
        });
      }
      if (method === "PUT" && response.ok) {
        setVersion(etag(response));
        synced = stored = sent;
        forgetElsewhere();  // this box, saved over them, holds both now
        // Saved as it stands: nothing in it is lost when the phase moves on (live.js copies
        // out only text that differs from the box's saved text).
        if (textarea.value === sentText) textarea.defaultValue = sentText;
      }
      return response.json().then(function (body) { return { ok: response.ok, body: body }; });
    }).then(function (reply) {
      if (reply.stale) return reply.outcome;  // the answer of the retry after merging
      if (number !== answers) return;
      if (!reply.ok) {
        statusList.innerHTML = "";
        var reasons = refusals(reply.body);
        reasons.forEach(function (text) {
          var li = document.createElement("li");
          li.className = "invalid";
          li.textContent = text;
          statusList.appendChild(li);
        });
        return { refused: true, reasons: reasons };
      }
      remember(reply.body);
      showStatus(reply.body, method === "PUT");
      if (method === "PUT") document.dispatchEvent(new CustomEvent("orders:refreshed"));
      var invalid = reply.body.filter(function (o) { return !o.valid; }).length;
      var outcome = { saved: true, invalid: invalid, total: reply.body.length };
      if (method === "PUT") return Promise.resolve(redraw()).then(function () { return outcome; });
    }).finally(function () {
      if (number === answers) form.dataset.checking = "";
      if (method !== "PUT") return;
      putting--;
      // A version heard while this PUT was on its way: its own, or another tab's after all.
      if (!putting) heardOf(heard);
    });
  }

  // -- saved elsewhere: another tab or device of this player saved orders (live.js hears
  // their version, the orders' ETag, change). The saved orders are read again; the box, the
  // list, the arrows and the warnings follow them, unless the box holds text typed here and
  // not saved: that stays, and the page says so (Save orders then keeps both, as above).

  var puts = 0, putting = 0;  // PUTs sent, and PUTs not yet answered
  var heard = null;           // the version last heard of
  var elsewhere = "";         // a version saved elsewhere, already told of over typed text
  var CHANGED = t("Your orders were changed in another tab or device; this page shows them now.");

  function heardOf(given) {
    if (!given || putting || given === version || given === elsewhere) return;
    var started = puts;
    fetch(form.dataset.api, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) return;
        var fresh = etag(response);
        return response.json().then(function (orders) {
          // A save of this page's since, or the page's phase gone: that answer counts.
          if (signal.aborted || puts !== started || putting || fresh === version) return;
          var saved = orders.filter(function (o) { return o.power === data.power; });
          remember(saved);
          stored = saved.map(function (o) { return o.text; });
          if (lines().join("\n") === synced.join("\n")) {
            textarea.value = stored.join("\n");
            synced = stored;
            setVersion(fresh);
            forgetElsewhere();
            answers++;  // a check of the box as it was answers too late
            form.dataset.checking = "";
            showStatus(saved, true);
            if (!step) idle(CHANGED);
          } else {
            elsewhere = fresh;
            typedOver();
            check();  // the list marks anew what is not saved
          }
          document.dispatchEvent(new CustomEvent("orders:refreshed"));
          return redraw();  // the arrows are the saved orders'
        });
      }).catch(function () {});
  }
  document.addEventListener("orders:version", function (e) {
    if (e.detail.phase !== phaseIndex()) return;
    heard = e.detail.version;
    heardOf(heard);
  }, { signal: signal });

  // The box holds the saved orders again (saved here, or read afresh): no note of them.
  function forgetElsewhere() {
    elsewhere = "";
    var note = document.getElementById("orders-elsewhere");
    if (note) note.remove();
  }

  // Text typed here and not saved, the saved orders changed elsewhere: the box keeps it.
  function typedOver() {
    var note = document.getElementById("orders-elsewhere");
    if (note) return;
    note = document.createElement("p");
    note.id = "orders-elsewhere";
    note.className = "warn";
    note.setAttribute("role", "alert");
    var reload = document.createElement("a");
    reload.href = window.location.pathname + window.location.search;
    reload.textContent = t("Or reload the page to see the saved orders (what you typed here is lost).");
    note.append(t("Your orders were changed in another tab or device. What you typed here is not " +
      "saved: Save orders keeps your changes and theirs, unit by unit.") + " ", reload);
    var label = form.querySelector('label[for="' + textarea.id + '"]');
    (label || textarea).before(note);
  }

  // A refusal's words as the server gave them (in the reader's language): its detail, or
  // each field's messages ("Item 2: Ensure this field has no more than 200 characters."),
  // never the raw JSON.
  function refusals(body) {
    if (!body || typeof body !== "object") return [t("Not saved; reload the page.")];
    if (body.detail) return [String(body.detail)];
    var out = [];
    Object.keys(body).forEach(function (field) {
      [].concat(body[field]).forEach(function (said) {
        out.push(typeof said === "string" ? said : JSON.stringify(said));
      });
    });
    return out.length ? out : [t("Not saved; reload the page.")];
  }

  function check() { return send("POST", data.check, 0); }
  function save() { return send("PUT", form.dataset.api, 2); }

  // "Save orders" saves through the API and stays on the page (without JavaScript the form
  // posts as usual).
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    merged = false;
    save().then(function (outcome) {
      if (step) return;
      if (outcome && outcome.saved) idle((merged ? MERGED + " " : "") + savedWords(outcome));
      else if (outcome && outcome.refused) idle(t("Nothing was saved."));
    });
  });

  // "Orders saved.", or how many of them are invalid: those are not carried out.
  function savedWords(outcome) {
    if (!outcome.invalid) return t("Orders saved.");
    return outcome.invalid === 1
      ? t("Orders saved, but 1 of %(all)s is invalid: it will not be carried out.", { all: outcome.total })
      : t("Orders saved, but %(bad)s of %(all)s are invalid: they will not be carried out.",
        { bad: outcome.invalid, all: outcome.total });
  }

  // What Ready would leave undone, in words (live.js asks before sending Ready): saved
  // orders the engine refused, units without a valid saved order, builds or removals unused,
  // and changes in the box not saved. Empty when nothing.
  function readiness() {
    var said = [];
    var bad = stored.length - notInvalid(stored).length;
    if (bad) {
      said.push(bad === 1
        ? t("1 of your %(all)s saved orders is invalid and will not be carried out.", { all: stored.length })
        : t("%(bad)s of your %(all)s saved orders are invalid and will not be carried out.",
          { bad: bad, all: stored.length }));
    }
    var missing = withoutOrders(notInvalid(stored));
    if (missing.length) {
      said.push(t("Without orders: %(units)s.", {
        units: missing.map(function (u) { return u.unit + " " + u.location; }).join(", "),
      }));
    }
    if (ADJUSTING && allowed) {
      var used = spending(stored).length;
      if (used < allowed) {
        said.push(data.builds
          ? t("Builds left: %(left)s of %(n)s.", { left: allowed - used, n: allowed })
          : t("Removals left: %(left)s of %(n)s.", { left: allowed - used, n: allowed }));
      }
    }
    if (lines().join("\n") !== stored.join("\n")) said.push(t("Your orders box has changes that are not saved."));
    return said;
  }
  window.greatGame = window.greatGame || {};
  window.greatGame.readiness = readiness;

  function showStatus(orders, saved) {
    statusList.innerHTML = "";
    var valid = [];
    orders.forEach(function (order) {
      var li = document.createElement("li");
      li.className = order.valid ? "valid" : "invalid";
      var tag = document.createElement("span");
      tag.className = "power-tag";
      tag.textContent = order.power;
      li.appendChild(tag);
      li.appendChild(document.createTextNode(" " + (order.canonical || order.text) + " — "));
      var verdict = document.createElement("strong");
      verdict.textContent = order.valid ? t("valid") : t("invalid");
      li.appendChild(verdict);
      if (!order.valid && order.reason) li.appendChild(document.createTextNode(": " + order.reason));
      if (order.valid && order.needs) {
        // What it waits for from other powers' orders (a canal permit), as the page says it.
        var needs = document.createElement("span");
        needs.className = "needs";
        needs.textContent = "; " + t("needs %(needs)s (judged at the deadline)", { needs: order.needs });
        li.appendChild(needs);
      }
      if (!saved && stored.indexOf(order.text) < 0) li.appendChild(document.createTextNode(" " + t("(not saved yet)")));
      statusList.appendChild(li);
      if (order.valid) valid.push(order.text);
    });
    if (!orders.length) {
      statusList.innerHTML = "";
      var none = document.createElement("li");
      none.className = "none";
      none.textContent = t("No orders.");
      statusList.appendChild(none);
    }
    var missing = withoutOrders(valid);
    missingUnits = new Set(missing);
    unordered = new Set(missing.map(function (u) { return u.location; }));
    if (unorderedNote) {
      unorderedNote.className = missing.length ? "warn" : "ok";
      unorderedNote.textContent = missing.length
        ? t("Without orders: %(units)s.", { units: missing.map(function (u) { return u.unit + " " + placeName(u.location); }).join(", ") })
        : t("Every unit has an order.");
    }
    decorate();
    if (ADJUSTING) {
      var left = document.getElementById("adjustment-left");
      if (left && allowed) {
        left.textContent = adjustmentLeft();
        left.className = spent().length < allowed ? "warn" : "ok";
      }
      if (!step && loaded) idle(lastNote);
    }
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
  document.addEventListener("board:drawn", function () { decorate(); }, { signal: signal });

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
    board.names((places || []).map(province));
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
    var focused = menu.contains(document.activeElement);  // a key pressed a button of it
    prompt.textContent = text;
    choices.innerHTML = "";
    highlight(targets);
    step = { targets: targets, pick: onPick };
    // While a place is picked, units' wide tap targets give way to the places' names.
    viewport.classList.toggle("picking", Boolean(targets && targets.length));
    (targets || []).forEach(function (spot) {
      button(placeName(spot), function () { onPick(spot); });
    });
    if (extra) extra();
    button(t("Cancel"), function () { idle(); });
    position();
    // The focus goes on to the menu's next step: it was on a button just taken away.
    if (focused) choices.querySelector("button").focus({ preventScroll: true });
  }

  // -- where the menu is: docked in the orders panel while nothing is chosen; beside the
  // unit (or the province) being ordered on a wide screen, a bottom sheet on a phone.

  function spotOf(place) {
    var dislodged = data.phase === "retreats" ? ".dislodged" : "";
    var g = inner.querySelector('g.unit' + dislodged + '[data-location="' + CSS.escape(place) + '"]') ||
      inner.querySelector('g.unit[data-location="' + CSS.escape(place) + '"]');
    if (g) return g;
    return inner.querySelector('path[data-province="' + CSS.escape(province(place)) + '"]');
  }

  var toView = false;  // the board is to be brought into view once the menu has its size
  function open(place) {
    anchor = place;
    var sheet = board.phone();
    if (menu.parentNode !== frame) frame.appendChild(menu);
    menu.classList.toggle("sheet", sheet);
    menu.classList.toggle("popup", !sheet);
    menu.classList.remove("docked");
    menu.dataset.open = place;
    toView = true;
    position();
  }

  // A unit chosen from the list under the board (the page scrolled down to the orders panel):
  // the menu's next steps are clicks on the board, so the board comes into view, its top at
  // the window's, when little of it shows above the menu. The view is then panned to the unit.
  function boardInView(bottom) {
    var r = viewport.getBoundingClientRect(), room = window.innerHeight - bottom;
    var shown = Math.min(r.bottom, room) - Math.max(r.top, 0);
    if (shown >= Math.min(r.height, room) * 0.6) return;
    window.scrollBy(0, r.top - Math.max(0, room - r.height) / 2);
  }

  function position() {
    if (!anchor) return;
    var spot = spotOf(anchor);
    if (!spot) return;
    var sheet = menu.classList.contains("sheet");
    if (toView && menu.offsetHeight) {
      toView = false;
      boardInView(sheet ? menu.offsetHeight : 0);
    }
    var a = spot.getBoundingClientRect();
    if (sheet) {
      board.reveal(a, menu.offsetHeight);
      return;
    }
    var f = frame.getBoundingClientRect();
    var mw = menu.offsetWidth, mh = menu.offsetHeight, gap = 14;
    // Wholly on screen and inside the board; beside the unit on whichever side covers the
    // least of the unit and of the places it is asked to pick (highlighted).
    var minTop = Math.max(4, 4 - f.top), maxTop = Math.min(f.height, window.innerHeight - f.top) - mh - 4;
    var maxLeft = f.width - mw - 4;
    var ax = a.left - f.left, ay = a.top - f.top, cy = ay + a.height / 2 - 28;
    // Around the unit (right, left, below, above and the corners between), then the view's
    // corners; nearer is better, covering the unit or a highlighted place much worse.
    var xs = [ax + a.width + gap, ax - gap - mw, ax, ax + a.width - mw];
    var ys = [cy, ay + a.height + gap, ay - gap - mh];
    var spots = [];
    ys.forEach(function (y) { xs.forEach(function (x) { spots.push([x, y]); }); });
    spots.push([4, minTop], [maxLeft, minTop], [4, maxTop], [maxLeft, maxTop]);
    var avoid = [{ r: a, weight: 1000 }];
    var zoomBar = frame.querySelector(".zoom");
    if (zoomBar) avoid.push({ r: zoomBar.getBoundingClientRect(), weight: 1 });
    // A highlighted place's name and unit matter most (that is where one clicks); its
    // whole outline a little.
    inner.querySelectorAll("path.target").forEach(function (t) {
      avoid.push({ r: t.getBoundingClientRect(), weight: 0.05 });
      var name = CSS.escape(t.dataset.province);
      inner.querySelectorAll('g.label[data-province="' + name + '"]:not(.off), g.unit[data-location^="' + name + '"]')
        .forEach(function (g) { avoid.push({ r: g.getBoundingClientRect(), weight: 5 }); });
    });
    var best = null;
    spots.forEach(function (spot, n) {
      var left = Math.max(4, Math.min(spot[0], maxLeft)), top = Math.max(minTop, Math.min(spot[1], maxTop));
      var box = { left: f.left + left, top: f.top + top, right: f.left + left + mw, bottom: f.top + top + mh };
      var cost = n * 0.5 + Math.hypot(box.left + mw / 2 - (a.left + a.width / 2),
        box.top + mh / 2 - (a.top + a.height / 2)) * 0.2;
      avoid.forEach(function (o) {
        var w = Math.min(box.right, o.r.right) - Math.max(box.left, o.r.left);
        var h = Math.min(box.bottom, o.r.bottom) - Math.max(box.top, o.r.top);
        if (w > 0 && h > 0) cost += w * h * o.weight;
      });
      if (!best || cost < best.cost) best = { cost: cost, left: left, top: top };
    });
    menu.style.left = Math.round(best.left) + "px";
    menu.style.top = Math.round(best.top) + "px";
  }
  board.onChange(function () {
    if (!signal.aborted && anchor && !menu.classList.contains("sheet")) position();
  });

  function docked() {
    anchor = null;
    if (dock && menu.parentNode !== dock) dock.appendChild(menu);
    menu.classList.remove("popup", "sheet");
    menu.classList.add("docked");
    menu.style.left = menu.style.top = "";
    delete menu.dataset.open;
    board.unpad();
    inner.querySelectorAll(".selected").forEach(function (g) { g.classList.remove("selected"); });
  }

  function unique(list) { return Array.from(new Set(list)); }

  var lastNote = "";
  function idle(note) {
    // Back from the menu (Escape, Cancel, an order placed), the focus goes back to the unit;
    // for an order of no unit (a build, a Chinese Enter), to the menu's first choice.
    var inMenu = menu.contains(document.activeElement);
    var back = anchor && inMenu ? spotOf(anchor) : null;
    try {
      step = null;
      viewport.classList.remove("picking");
      highlight([]);
      docked();
      choices.innerHTML = "";
      lastNote = note || "";
      var lead = note ? note + " " : "";
      if (ADJUSTING) {
        // Builds, removals and waives are chosen from the engine's list (or by clicking a home
        // centre or a unit). Once one is chosen the prompt counts what is left; the ones chosen
        // can be taken back, and only what is left is offered.
        var chosen = spent();
        var taken = {};  // province -> adjustments chosen there
        chosen.forEach(function (l) {
          var p = lineLocation(l);
          if (p) taken[p] = (taken[p] || 0) + 1;
        });
        var left = allowed - chosen.length;
        prompt.textContent = lead + (chosen.length || !data.guide
          ? (allowed ? adjustmentLeft() : "") + (left > 0 ? " " + t("Choose below.") : "")
          : data.guide);
        // Every adjustment in the box may be taken back, one the engine refused too (a third
        // waive for two builds), each in its standard spelling ("Waive", not "waive").
        lines().filter(function (l) {
          return dataOf[l] && spends.indexOf(dataOf[l].kind) >= 0;
        }).forEach(function (l) {
          button(t("Take back: %(order)s", { order: dataOf[l].order || l }), function () {
            takeBack(l);
          }).classList.add("take-back");
        });
        // Builds (or removals) together, a waive after them, a rule's own orders last.
        var last = { waive: 1, special: 2 };
        options.slice().sort(function (a, b) {
          return (last[a.kind] || 0) - (last[b.kind] || 0);
        }).forEach(function (o) {
          if (left <= 0 && o.kind !== "special") return;
          // There already (as many as one's units there: one removal a fleet in an ocean).
          if (o.location && (taken[province(o.location)] || 0) >= Math.max(1, unitsIn(o.location).length)) return;
          button(o.order, function () { place(o); });
        });
        return;
      }
      prompt.textContent = lead + (viewport.classList.contains("no-drawing")
        ? t("Choose one of your units here.")
        : t("Click one of your units on the board, or choose it here."));
      mine().forEach(function (u) {
        var b = button(unitName(u), function () { selectUnit(u); });
        if ((missingUnits || (missingUnits = missingAtFirst())).has(u)) b.classList.add("warn");
      });
      // A rule's own orders (a canal permit, a Chinese army entering or leaving).
      options.filter(function (o) { return o.kind === "special"; }).forEach(function (o) {
        button(o.order, function () { place(o); }).classList.add("rule-order");
      });
    } finally {
      if (back && back.matches("[tabindex]")) back.focus({ preventScroll: true });
      else if (inMenu) {
        var first = choices.querySelector("button");
        if (first) first.focus({ preventScroll: true });
      }
    }
  }

  // The kinds of order the engine lists, as the buttons name them.
  var KINDS = {
    hold: t("Hold"), move: t("Move"), support: t("Support"), convoy: t("Convoy"),
    retreat: t("Retreat"), disband: t("Disband"), build: t("Build"), remove: t("Remove"),
    waive: t("Waive")
  };

  // The menu's order of kinds: a move by a rule's route (the railroad) after the plain
  // moves, by convoy after those; kinds not named here last.
  var ORDER = ["hold", "move", "support", "convoy", "retreat", "disband", "build", "remove", "waive"];
  function rank(group) {
    var at = ORDER.indexOf(group.kind);
    var via = !group.via ? 0 : group.via === "convoy" ? 2 : 1;
    return (at < 0 ? ORDER.length : at) * 3 + via;
  }

  var loaded = false, waiting = null;  // a unit clicked before the engine's list came

  function selectUnit(unit) {
    if (!loaded) { waiting = unit; prompt.textContent = t("Loading your orders…"); return; }
    var base = unitName(unit);
    inner.querySelectorAll(".selected").forEach(function (g) { g.classList.remove("selected"); });
    var g = inner.querySelector('g.unit[data-location="' + CSS.escape(unit.location) + '"]');
    if (g) g.classList.add("selected");
    var own = optionsFor(unit.location);
    open(unit.location);
    var here = unitsIn(unit.location);
    slot = { place: province(unit.location), index: Math.max(0, here.indexOf(unit)) };
    var now = lines().filter(function (l) {
      return lineLocation(l) === province(unit.location);
    })[slot.index];
    var question = now
      ? t("%(unit)s (now: %(order)s): what should it do?", { unit: base, order: now })
      : t("%(unit)s: what should it do?", { unit: base });
    ask(question, [], null, function () {
      // The order it has, taken back: the unit is left without one (and holds, if none is
      // given). Last in the menu; the only choice where the engine lists none.
      function offerTakeBack() {
        if (!now) return;
        var said = (dataOf[now] && dataOf[now].order) || now;
        button(t("Take back: %(order)s", { order: said }), function () {
          takeBack(now);
        }).classList.add("take-back");
      }
      if (!own.length) {
        prompt.textContent = t("%(unit)s: the engine lists no order for it.", { unit: base });
        offerTakeBack();
        return;
      }
      // One button per kind of order the engine lists, moves apart by the route it names,
      // always in the same order (the engine's list comes in no order of kinds).
      var groups = [];
      own.forEach(function (o) {
        var key = o.kind + (o.via ? " via " + o.via : "");
        var group = groups.find(function (x) { return x.key === key; });
        if (!group) groups.push(group = { key: key, kind: o.kind, via: o.via, items: [] });
        group.items.push(o);
      });
      groups.sort(function (a, b) {
        return rank(a) - rank(b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
      });
      groups.forEach(function (group) {
        var kind = KINDS[group.kind] || group.kind.charAt(0).toUpperCase() + group.kind.slice(1);
        var route = group.via === "convoy" ? KINDS.convoy : group.via;
        var label = group.via ? t("%(kind)s via %(route)s", { kind: kind, route: route }) : kind;
        if (group.items.length === 1 && !group.items[0].destination && !group.items[0].target) {
          button(label, function () { place(group.items[0]); });
        } else if (group.kind === "support" || group.kind === "convoy") {
          button(label + "…", function () { aimed(base, group); });
        } else {
          button(label + "…", function () { where(base, label, group.items); });
        }
      });
      // A rule's own order about this unit (a canal permit for this fleet).
      options.filter(function (o) {
        return o.kind === "special" && o.location && province(o.location) === province(unit.location);
      }).forEach(function (o) { button(o.order, function () { place(o); }).classList.add("rule-order"); });
      offerTakeBack();
    });
  }

  // Where a unit goes: the destinations of the engine's orders.
  function where(base, label, items) {
    ask(t("%(order)s: where does %(unit)s go? Click a highlighted province.", { order: label, unit: base }),
      unique(items.map(function (o) { return o.destination; })), function (p) {
        place(items.find(function (o) { return o.destination === p; }));
      });
  }

  // A support or a convoy: first the unit it is for, then that unit's destination.
  function aimed(base, group) {
    var which = group.kind === "support"
      ? t("Which unit does %(unit)s support? Click it.", { unit: base })
      : t("Which unit does %(unit)s convoy? Click it.", { unit: base });
    ask(which,
      unique(group.items.map(function (o) { return o.target; })), function (target) {
        var items = group.items.filter(function (o) { return o.target === target; });
        var them = items[0].target_unit + " " + placeName(target);
        var holding = items.find(function (o) { return !o.destination; });
        var moving = items.filter(function (o) { return o.destination; });
        var names = { unit: base, target: them };
        var goes;
        if (group.kind === "convoy") {
          goes = t("%(unit)s convoys %(target)s: to where? Click a highlighted province.", names);
        } else if (!moving.length) {
          goes = t("%(unit)s supports %(target)s: only holding.", names);
        } else if (holding) {
          goes = t("%(unit)s supports %(target)s: moving where? Click a highlighted province, " +
            "or support it holding.", names);
        } else {
          goes = t("%(unit)s supports %(target)s: moving where? Click a highlighted province.", names);
        }
        ask(goes,
          moving.map(function (o) { return o.destination; }), function (p) {
            place(moving.find(function (o) { return o.destination === p; }));
          }, function () {
            if (holding) button(t("Support holding"), function () { place(holding); });
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
    if (!form.isConnected) { menu.hidden = true; return; }  // a new phase came (live.js)
    if (step && step.pick) {
      var target = step.targets.find(function (t) { return province(t) === province(spot); });
      if (target) { step.pick(target); return; }
    }
    if (ADJUSTING) {
      // A build or a removal there, as the engine lists them, offered beside the place: one
      // picked there replaces the one chosen before. Elsewhere, only while some are left.
      // Where several of one's units stand (a Far East ocean) each may be removed.
      var room = Math.max(1, unitsIn(spot).length);
      var at = spent().filter(function (l) { return lineLocation(l) === province(spot); }).length;
      var here = options.filter(function (o) {
        if (!o.location || province(o.location) !== province(spot)) return false;
        return room > 1 ? at < room : lines().indexOf(o.order) < 0;
      });
      var already = room > 1 ? false : at > 0;
      if (here.length && !already && spent().length >= allowed) {
        idle(data.builds ? t("No builds left: take one back to build here.")
          : t("No removals left: take one back to remove this unit."));
        return;
      }
      offer(spot, here);
      return;
    }
    var here = unitsIn(spot);
    var missing = missingUnits || (missingUnits = missingAtFirst());
    var unit = here.find(function (u) { return missing.has(u); }) || here[0];
    if (unit) { selectUnit(unit); return; }
    // No unit of one's own there: a rule's own order about the place (an army entering).
    offer(spot, options.filter(function (o) {
      return o.kind === "special" && o.location && province(o.location) === province(spot);
    }));
  }

  // A menu beside a place of the engine's orders about it (none: nothing happens).
  function offer(spot, list) {
    if (!list.length) return;
    open(list[0].location);
    ask(province(spot) + ":", [], null, function () {
      list.forEach(function (o) { button(o.order, function () { place(o); }); });
    });
  }

  inner.addEventListener("click", function (e) { pick(placeOf(e.target)); }, { signal: signal });
  inner.addEventListener("keydown", function (e) {
    if ((e.key === "Enter" || e.key === " ") && e.target.closest("g.unit")) {
      e.preventDefault();
      pick(placeOf(e.target));
      var first = choices.querySelector("button");
      if (first && anchor) first.focus({ preventScroll: true });  // on to the menu
    }
  }, { signal: signal });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && step) idle();
  }, { signal: signal });

  decorate();
  prompt.textContent = ADJUSTING ? data.guide || "" : t("Loading your orders…");
  docked();
  menu.hidden = false;
  viewport.classList.add("ordering");
  fetch(data.options, { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then(function (r) { return r.ok ? r.json() : { orders: [] }; })
    .then(function (reply) {
      options = reply.orders || [];
      options.forEach(function (o) { dataOf[o.order] = o; });
      board.actsIn(options.filter(function (o) { return o.location; }).map(function (o) {
        return province(o.location);
      }));
      menu.dataset.options = String(options.length);
      loaded = true;
      idle();
      if (waiting) selectUnit(waiting);
    });
  if (lines().length) check();  // the saved orders' data, and their verdicts
  }
})();
