// rfda_teach: the static face of a widget panel (rfda_teach/panel.py).  Every output of the panel
// was computed by the package while the book was built and sits in the page, one
// <div class="rfda-panel-frame" data-key="i,j,..."> per setting of the controls; moving a control
// shows the output of the new setting.  No computation here, nothing fetched.
(function () {
  function update(panel) {
    var key = [];
    panel.querySelectorAll('[data-k]').forEach(function (c) {
      key[+c.dataset.k] = c.value;
      if (c.dataset.texts) {
        var out = c.parentElement.querySelector('output');
        if (out) out.textContent = JSON.parse(c.dataset.texts)[+c.value];
      }
    });
    key = key.join(',');
    panel.querySelectorAll('.rfda-panel-frame').forEach(function (f) {
      f.hidden = f.dataset.key !== key;
    });
  }
  function start() {
    document.querySelectorAll('.rfda-panel').forEach(function (panel) {
      panel.querySelectorAll('[data-k]').forEach(function (c) {
        c.addEventListener('input', function () { update(panel); });
        c.addEventListener('change', function () { update(panel); });
      });
      update(panel);
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
