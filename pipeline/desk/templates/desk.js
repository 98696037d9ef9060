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
  // "Add register files": the files go up with their progress shown (the form posts as it would
  // without this script, and the page it is answered with is shown)
  var adding = document.getElementById("add-form");
  if (adding && window.FormData && window.XMLHttpRequest) {
    adding.addEventListener("submit", function (e) {
      var input = document.getElementById("file");
      if (!input || !input.files || !input.files.length) { return; }
      e.preventDefault();
      var bar = document.getElementById("upload-progress");
      var words = document.getElementById("upload-words");
      var names = Array.prototype.map.call(input.files, function (f) { return f.name; });
      document.getElementById("upload").hidden = false;
      words.textContent = "sending " + names.length + " file(s): " + names.join(", ");
      var xhr = new XMLHttpRequest();
      xhr.open("POST", adding.action);
      xhr.upload.addEventListener("progress", function (p) {
        if (p.lengthComputable) {
          bar.value = Math.round(100 * p.loaded / p.total);
          words.textContent = "sending " + names.length + " file(s): " + bar.value + "% of " +
            (p.total / 1048576).toFixed(1) + " MB";
        }
      });
      xhr.addEventListener("load", function () { window.location.assign(xhr.responseURL || window.location.href); });
      xhr.addEventListener("error", function () { words.textContent = "the files could not be sent: try again"; });
      Array.prototype.forEach.call(adding.querySelectorAll("button"), function (b) { b.disabled = true; });
      xhr.send(new FormData(adding));
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
