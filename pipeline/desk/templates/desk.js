// The desk's one script. Choosing a month shows it at once (every button also sends the month
// chosen, so that without this script the month acted on is still the one chosen). While an action
// runs, the page asks each second which step it is at, shows it, and reloads itself to show the
// result when the action has finished.
(function () {
  "use strict";
  var chooser = document.getElementById("month");
  var show = document.getElementById("show");
  if (chooser && show && show.form) {
    chooser.addEventListener("change", function () {
      if (show.disabled) { return; }
      if (show.form.requestSubmit) { show.form.requestSubmit(show); } else { show.click(); }
    });
  }
  var box = document.getElementById("progress");
  if (!box || box.getAttribute("data-running") !== "1") { return; }
  var step = document.getElementById("step");
  var elapsed = document.getElementById("elapsed");
  function tick() {
    fetch(box.getAttribute("data-poll"), {cache: "no-store", credentials: "same-origin"})
      .then(function (r) { return r.json(); })
      .then(function (j) {
        if (!j.running) {
          var done = new URL(box.getAttribute("data-done"), window.location.href);
          if (done.pathname + done.search === window.location.pathname + window.location.search) {
            window.location.reload();
          } else {
            window.location.replace(done.href);
          }
          return;
        }
        if (step.textContent !== j.step) { step.textContent = j.step; }
        elapsed.textContent = String(j.elapsed);
        window.setTimeout(tick, 1000);
      })
      .catch(function () { window.setTimeout(tick, 2000); });
  }
  window.setTimeout(tick, 1000);
}());
