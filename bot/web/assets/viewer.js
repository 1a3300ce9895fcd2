(function () {
  "use strict";
  var main = document.getElementById("viewer");
  if (!main) return;
  var base = main.dataset.base, q = main.dataset.q;
  var img = document.getElementById("board"), list = document.getElementById("moves");
  var cur = +main.dataset.ply;
  function items() { return list.querySelectorAll("a[data-k]"); }
  function last() { return items().length - 1; }
  function href(k) { return "?" + (q ? q + "&" : "") + "ply=" + k; }
  function go(k) {
    var a = items();
    k = Math.max(0, Math.min(k, a.length - 1));
    cur = k;
    img.src = base + "/ply/" + k + "-" + a[k].dataset.h + ".png" + (q ? "?" + q : "");
    for (var i = 0; i < a.length; i++) {
      if (i === k) a[i].setAttribute("aria-current", "true"); else a[i].removeAttribute("aria-current");
    }
    main.dataset.ply = k;
    document.getElementById("plyno").textContent = k;
    document.getElementById("first").href = href(0);
    document.getElementById("prev").href = href(Math.max(k - 1, 0));
    document.getElementById("next").href = href(Math.min(k + 1, a.length - 1));
    document.getElementById("last").href = href(a.length - 1);
    var f = document.getElementById("flip"), fu = new URL(f.href, location.href);
    fu.searchParams.set("ply", k); f.href = fu.search;
    history.replaceState(null, "", href(k));
    if (a[k].scrollIntoView) a[k].scrollIntoView({ block: "nearest" });
    text(k);
  }
  // The board's text alternative (the image's alt text and the list of
  // pieces) follows the ply shown: read from the page of that ply, so the
  // words are the server's, in the page's language.
  var textSeq = 0, pending = null;
  function text(k) {
    if (!window.fetch || !window.DOMParser) return;
    var seq = ++textSeq;
    fetch(href(k), { credentials: "same-origin" }).then(function (r) { return r.ok ? r.text() : null; }).then(function (html) {
      if (!html || seq !== textSeq) return;
      var doc = new DOMParser().parseFromString(html, "text/html");
      var ni = doc.getElementById("board"), np = doc.getElementById("pieces"), op = document.getElementById("pieces");
      if (ni) img.alt = ni.alt;
      if (np && op) { op.innerHTML = np.innerHTML; op.dataset.last = np.dataset.last; }
      // A live move waiting to be announced: its words, then the status.
      var an = document.getElementById("announce");
      if (pending !== null && an && np) {
        an.textContent = (np.dataset.last ? np.dataset.last + ". " : "") + pending;
        pending = null;
      }
    }).catch(function () {});
  }
  function step(what) {
    switch (what) {
      case "first": return 0;
      case "prev": return cur - 1;
      case "next": return cur + 1;
      case "last": return last();
    }
    return cur;
  }
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var m = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[e.key];
    if (!m) return;
    e.preventDefault();
    go(step(m));
  });
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a[data-k], a[data-go]");
    if (!a || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    go(a.dataset.go ? step(a.dataset.go) : +a.dataset.k);
  });
  // Running clock: counts down between updates.
  function fmt(ms) {
    var s = Math.max(0, Math.floor(ms / 1000)), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, x = s % 60;
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return h > 0 ? h + ":" + two(m) + ":" + two(x) : m + ":" + two(x);
  }
  setInterval(function () {
    document.querySelectorAll(".clock[data-end]").forEach(function (c) {
      c.querySelector("b").textContent = fmt(+c.dataset.end - Date.now());
    });
  }, 1000);
  // Live: the server pushes the game after every change.
  if (main.dataset.live !== "1" || !window.EventSource) return;
  var es = new EventSource(base + "/events" + (q ? "?" + q : ""));
  es.onopen = function () { main.dataset.connected = "1"; };
  es.onmessage = function (ev) {
    var d = JSON.parse(ev.data);
    if (d.rev <= +main.dataset.rev) return;
    main.dataset.rev = d.rev;
    var follow = cur === last();
    var a = items();
    while (list.children.length > 1) list.removeChild(list.lastChild);
    a[0].dataset.h = d.moves[0].h;
    for (var k = 1; k < d.moves.length; k++) {
      var li = document.createElement("li"), l = document.createElement("a");
      l.href = href(k); l.dataset.k = k; l.dataset.h = d.moves[k].h; l.textContent = d.moves[k].l;
      li.appendChild(l); list.appendChild(li);
    }
    document.getElementById("plies").textContent = d.moves.length - 1;
    document.getElementById("status").textContent = d.status;
    (d.clocks || []).forEach(function (c, i) {
      var el = document.getElementById("clock" + i);
      if (!el) return;
      el.querySelector("b").textContent = c.left;
      if (c.end) el.dataset.end = c.end; else delete el.dataset.end;
    });
    // Screen readers hear the new move in words and the status once (the
    // live region) when the board follows the game; a reader who stepped
    // back hears the move in notation and the status.
    if (follow) pending = d.status;
    else {
      var an = document.getElementById("announce");
      if (an && d.moves.length > 1) an.textContent = d.moves[d.moves.length - 1].l + ". " + d.status;
    }
    go(follow ? d.moves.length - 1 : Math.min(cur, d.moves.length - 1));
    if (d.over) {
      es.close();
      var lv = document.getElementById("live");
      if (lv) lv.remove();
    }
  };
})();
