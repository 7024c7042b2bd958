#include "app/report/timeline_zoom.hpp"

namespace spotsim {

std::string timeline_zoom_help() {
  return "<p class=\"note zoom-help\" hidden>Drag across any timeline to zoom all of them to that range of hours; "
         "double-click a timeline or press Reset to see the whole axis again (the address keeps the range: "
         "#zoom=FROM,TO).<button type=\"button\" data-zoom=\"out\">Zoom out</button><button type=\"button\" "
         "data-zoom=\"reset\">Reset</button></p>\n";
}

// The charts' lanes (<g class="lanes">) are stretched by an SVG transform: a point at pixel p of the full axis
// [a, b] goes to L + k (p - p0), with k = (b - a) / (to - from) and p0 the pixel of `from`. Marks with data-x
// are squeezed back around their own x so they keep their shape, and the tick labels are rewritten at their
// fixed columns. Everything user-supplied on the page is escaped text, so the script reads only numbers.
std::string timeline_zoom_script() {
  return R"JS(<script>
(function () {
  var charts = Array.prototype.slice.call(document.querySelectorAll('svg.timeline'));
  if (!charts.length) return;
  function num(e, key) { return parseFloat(e.getAttribute('data-' + key)); }
  function show(from, to) {
    charts.forEach(function (s) {
      var a = num(s, 'x-low'), b = num(s, 'x-high'), L = num(s, 'plot-left'), R = num(s, 'plot-right');
      var lo = Math.max(a, from), hi = Math.min(b, to);
      if (!(hi > lo)) { lo = a; hi = b; }
      var k = (b - a) / (hi - lo), p0 = L + (lo - a) / (b - a) * (R - L);
      s.querySelectorAll('g.lanes').forEach(function (g) {
        g.setAttribute('transform', 'translate(' + (L - k * p0) + ' 0) scale(' + k + ' 1)');
      });
      s.querySelectorAll('g.lanes [data-x]').forEach(function (e) {
        var x = num(e, 'x');
        e.setAttribute('transform', 'translate(' + x + ' 0) scale(' + 1 / k + ' 1) translate(' + -x + ' 0)');
      });
      var decimals = Math.max(0, Math.min(4, Math.ceil(-Math.log10((hi - lo) / 8)) + 1));
      s.querySelectorAll('text.tick').forEach(function (t) {
        if (!t.hasAttribute('data-label')) t.setAttribute('data-label', t.textContent);
        t.textContent = k === 1 ? t.getAttribute('data-label')
                                : (lo + (num(t, 'px') - L) / (R - L) * (hi - lo)).toFixed(decimals);
      });
      s.setAttribute('data-view', lo + ' ' + hi);
    });
  }
  function fromAddress() {
    var m = /zoom=([0-9.]+),([0-9.]+)/.exec(location.hash);
    show(m ? parseFloat(m[1]) : NaN, m ? parseFloat(m[2]) : NaN);
  }
  function zoomTo(lo, hi) { location.hash = 'zoom=' + lo.toFixed(3) + ',' + hi.toFixed(3); }
  charts.forEach(function (s) {
    var band = s.querySelector('rect.zoom-band'), start = null;
    function at(ev) {
      var r = s.getBoundingClientRect(), L = num(s, 'plot-left'), R = num(s, 'plot-right');
      var v = s.getAttribute('data-view').split(' ').map(parseFloat);
      var x = (ev.clientX - r.left) * s.viewBox.baseVal.width / r.width;
      return { x: x, h: v[0] + (x - L) / (R - L) * (v[1] - v[0]) };
    }
    s.addEventListener('mousedown', function (ev) { start = at(ev); ev.preventDefault(); });
    s.addEventListener('mousemove', function (ev) {
      if (!start || !band) return;
      var p = at(ev);
      band.setAttribute('x', Math.min(start.x, p.x));
      band.setAttribute('width', Math.abs(p.x - start.x));
      band.setAttribute('visibility', 'visible');
    });
    window.addEventListener('mouseup', function (ev) {
      if (!start) return;
      var p = at(ev), q = start;
      start = null;
      if (band) band.setAttribute('visibility', 'hidden');
      if (Math.abs(p.x - q.x) >= 4) zoomTo(Math.max(0, Math.min(p.h, q.h)), Math.max(p.h, q.h));
    });
    s.addEventListener('dblclick', function () { location.hash = ''; });
  });
  document.querySelectorAll('.zoom-help').forEach(function (p) { p.hidden = false; });
  document.querySelectorAll('[data-zoom]').forEach(function (button) {
    button.addEventListener('click', function () {
      var v = charts[0].getAttribute('data-view').split(' ').map(parseFloat), width = v[1] - v[0];
      if (button.getAttribute('data-zoom') === 'out') {
        zoomTo(Math.max(0, v[0] - width / 2), v[1] + width / 2);  // twice as wide
      } else {
        location.hash = '';
      }
    });
  });
  window.addEventListener('hashchange', fromAddress);
  fromAddress();
})();
</script>
)JS";
}

}  // namespace spotsim
