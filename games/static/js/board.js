// The match board: keyboard activation of the SVG targets, and keeping the keyboard
// focus on the board after HTMX redraws it.
(function () {
  "use strict";

  // SVG rects with role=button have no built-in key handling: Enter and Space click them
  // (and Space must not scroll the page).
  document.addEventListener("keydown", function (event) {
    const target = event.target;
    if (!(target instanceof SVGElement) || target.getAttribute("role") !== "button") return;
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    target.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
  });

  // Redrawing the board replaces the focused element. If the player was working on the
  // board, put the focus where the next action is, so keyboard play flows on.
  let refocus = false;
  // The messages below the board poll and swap on their own: they must neither clear nor
  // spend the flag while the board is being redrawn.
  const fromMessages = (event) =>
    event.target instanceof Element && event.target.closest("#messages") !== null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (fromMessages(event)) return;
    const live = document.getElementById("live");
    const active = document.activeElement;
    const polling = event.detail.elt.hasAttribute("hx-get");
    refocus = Boolean(
      !polling && live && active && active !== document.body && live.contains(active)
    );
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    if (!refocus || fromMessages(event)) return;
    refocus = false;
    const live = document.getElementById("live");
    if (!live) return;
    const next =
      live.querySelector(".error") && live.querySelector(".notation-box[open] input[name=play]") ||
      live.querySelector(".target-dest") ||
      live.querySelector(".submit-play") ||
      live.querySelector(".target") ||
      live.querySelector(".double-button") ||
      live.querySelector("#turn-line");
    if (!next) return;
    next.focus({ preventScroll: next.classList.contains("target") });
    const typedError = live.querySelector(".play-error");
    if (typedError && next.name === "play") {
      // The typed play came back with the reason beside it: the caret goes after the
      // text to correct, and the reason must be on screen too (a phone shows little).
      next.setSelectionRange(next.value.length, next.value.length);
      typedError.scrollIntoView({ block: "nearest" });
    }
  });

  // The history lists the newest turn last: show it, or the segment being replayed (which
  // may be in an earlier game's list). The latest game's list is the section's own child.
  function showLatestHistory() {
    const current = document.querySelector(".history .turns .current");
    if (current) {
      const list = current.closest(".turns");
      list.scrollTop = current.offsetTop - list.clientHeight / 2;
      return;
    }
    const list = document.querySelector(".history > .turns");
    if (list) list.scrollTop = list.scrollHeight;
  }
  document.addEventListener("DOMContentLoaded", showLatestHistory);
  document.addEventListener("htmx:afterSettle", showLatestHistory);

  // A server or network failure leaves the board as it was: say so instead of hanging.
  function failed(event) {
    const status = event.detail && event.detail.xhr ? event.detail.xhr.status : 0;
    if (status >= 400 && status < 500) return; // swapped in place with the reason
    const announce = document.getElementById("announce");
    const message = "Something went wrong sending that. Check your connection and reload the page.";
    if (announce) announce.textContent = message;
    const live = document.getElementById("live");
    if (live && !live.querySelector(".send-failed")) {
      const note = document.createElement("p");
      note.className = "error send-failed";
      note.textContent = message;
      live.prepend(note);
    }
  }
  document.addEventListener("htmx:responseError", failed);
  document.addEventListener("htmx:sendError", failed);
})();
