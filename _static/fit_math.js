// rfda_teach: a display equation a little wider than the text column (at most 15 %) is scaled
// down to fit; MathJax 3 does not break lines.  Wider equations are split in the chapter's
// source, and tests/test_browser.py checks that no display equation overflows at 1280 px.
(function () {
  var LIMIT = 1.15;
  function fit() {
    // every width is read before any equation is rescaled: a read after a write would lay the
    // whole page out again, once per scaled equation
    var scale = [];
    document.querySelectorAll('mjx-container[display="true"]').forEach(function (c) {
      var m = c.querySelector('mjx-math');
      if (!m || !c.parentElement) return;
      var box = c.parentElement.getBoundingClientRect().width;
      var w = m.getBoundingClientRect().width;
      if (w > box && w <= LIMIT * box) scale.push([c, box / w]);
    });
    scale.forEach(function (s) {
      var now = parseFloat(s[0].style.fontSize) || 100;
      s[0].style.fontSize = (Math.floor(10 * now * s[1]) / 10) + '%';
    });
  }
  function fontsLoaded() {
    document.body.getBoundingClientRect();      // lay the typeset page out: its fonts start loading
    return document.fonts ? document.fonts.ready : null;
  }
  function start() {
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
      // measured once the fonts are in: a width taken while a font is still loading was a fifth
      // too large in headless Chromium (the dae page's third display equation)
      MathJax.startup.promise.then(fontsLoaded).then(fit);
    }
  }
  if (document.readyState === 'complete') start(); else window.addEventListener('load', start);
  window.addEventListener('resize', fit);
})();
