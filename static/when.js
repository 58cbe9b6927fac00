// A date and time written as the server writes it (games/when.py): the page's language
// ("when-patterns", from base.html), the reader's time zone, a 24-hour clock, the zone as its
// UTC offset. window.ggWhen(iso, "long" | "short") -> text ("" when it cannot).
(function () {
  "use strict";
  var given = document.getElementById("when-patterns");
  var P;
  try { P = given ? JSON.parse(given.textContent) : null; } catch (e) { P = null; }
  var DAYS = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 };
  var two = function (n) { return (n < 10 ? "0" : "") + n; };

  window.ggWhen = function (iso, kind) {
    var date = new Date(iso);
    if (!P || isNaN(date)) return "";
    var parts = {};
    try {
      new Intl.DateTimeFormat("en-US", {
        timeZone: P.zone || "UTC", hourCycle: "h23", weekday: "short",
        year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric",
      }).formatToParts(date).forEach(function (p) { parts[p.type] = p.value; });
    } catch (e) { return ""; }
    var y = +parts.year, m = +parts.month, d = +parts.day, H = +parts.hour % 24, i = +parts.minute;
    var wall = Date.UTC(y, m - 1, d, H, i);
    var offset = Math.round((wall - Math.floor(date.getTime() / 60000) * 60000) / 60000);
    var tz = "UTC";
    if (offset) {
      var a = Math.abs(offset);
      tz += (offset > 0 ? "+" : "-") + Math.floor(a / 60) + (a % 60 ? ":" + two(a % 60) : "");
    }
    var values = {
      y: y, m: m, mon: P.mon[m - 1], d: d, wd: P.wd[DAYS[parts.weekday]], H: two(H), i: two(i), tz: tz,
    };
    return (P[kind] || P.long).replace(/\{(\w+)\}/g, function (all, name) {
      return name in values ? String(values[name]) : all;
    });
  };
})();
