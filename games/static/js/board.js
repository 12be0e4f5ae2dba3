// The match board: keyboard activation of the SVG targets, and keeping the keyboard
// focus in place (and in view) when HTMX redraws the board.
(function () {
  "use strict";

  // SVG rects with role=button have no built-in key handling: Enter and Space click them
  // (and Space must not scroll the page), once a press, as a button's: Enter as it goes
  // down, Space as it comes up. A key held down repeats its keydown, and each click moves
  // the focus on to the next target: a held Space walked through the board, playing moves
  // nobody chose.
  function boardButton(target) {
    return target instanceof SVGElement && target.getAttribute("role") === "button";
  }
  function click(target) {
    target.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
  }
  document.addEventListener("keydown", function (event) {
    if (!boardButton(event.target) || (event.key !== "Enter" && event.key !== " ")) return;
    event.preventDefault();
    if (event.key === "Enter" && !event.repeat) click(event.target);
  });
  document.addEventListener("keyup", function (event) {
    if (!boardButton(event.target) || event.key !== " ") return;
    event.preventDefault();
    click(event.target);
  });
  // Escape on the board lets go of the checker selected (its target deselects it).
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || event.repeat) return;
    const live = document.getElementById("live");
    const selected = live && live.querySelector(".target-selected");
    if (!selected || !live.contains(event.target)) return;
    event.preventDefault();
    selected.focus();
    click(selected);
  });

  // Redrawing the board (#live is swapped whole) replaces the focused element, and the
  // browser then drops the focus on <body>: the next Tab would start again from "Skip to
  // content". So before each request for #live, note where the focus is and why the
  // request was sent; once the new board has settled, put the focus back.
  //  - The player acted on the board or sent a play (a target, a submit): the focus goes
  //    where the next action is, so keyboard play flows on.
  //  - A move chip: the focus stays in the chip list (the same position, else the first
  //    chip), where the player was choosing; the board may be scrolled out of sight.
  //  - Anything else, a poll above all (the opponent's move arriving while the player
  //    reads the history or is on "Resign…"): the same control if it is still there, else
  //    its nearest neighbour that is, else the sentence saying whose turn it is.
  // In every case the focus must be seen: a control scrolled off the screen is brought
  // back just into view, and the page is not scrolled otherwise.
  let pending = null;
  // The messages below the board poll and swap on their own: they must neither clear nor
  // spend what is noted while the board is being redrawn.
  const fromMessages = (event) =>
    event.target instanceof Element && event.target.closest("#messages") !== null;

  const FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";
  // Inside a closed <details> (but for its own summary) a control is out of reach, though
  // Chromium still lays it out: the typed box's "More on writing a play", when the focus
  // was on the history's link to the same place.
  function inClosedDetails(el) {
    const CLOSED = "details:not([open])";
    for (let d = el.closest(CLOSED); d; d = d.parentElement && d.parentElement.closest(CLOSED)) {
      if (!(el.tagName === "SUMMARY" && el.parentElement === d)) return true;
    }
    return false;
  }
  const shown = (el) =>
    el.getClientRects().length > 0 && !el.closest("[hidden]") && !inClosedDetails(el);
  // What names a control across a redraw, which makes every element anew: its id, else
  // where it leads (a link), else its name and value, else its text.
  function keyOf(el) {
    if (el.id) return "#" + el.id;
    if (el.hasAttribute("href")) return "a " + el.getAttribute("href");
    if (el.name) return el.tagName + " " + el.name + "=" + el.value;
    return el.tagName + " " + el.textContent.replace(/\s+/g, " ").trim();
  }
  // The key and, as two controls may share one, which of them it is.
  function placeOf(el, all) {
    const key = keyOf(el);
    return { key: key, nth: all.filter((other) => keyOf(other) === key).indexOf(el) };
  }
  function find(live, place) {
    const same = focusables(live).filter((el) => keyOf(el) === place.key);
    return same[place.nth] || same[0] || null;
  }
  // Tabindex -1 included: the turn sentence, where an earlier redraw may have left it.
  function focusables(live) {
    return Array.from(live.querySelectorAll(FOCUSABLE)).filter(
      (el) => !el.disabled && shown(el)
    );
  }

  // Focus without the browser's own scrolling (which may centre the control, or leave an
  // SVG target above the window with its ring unseen), then scroll only as far as needed
  // to show it, in the window and in a scrolling box such as the history's list: "nearest"
  // does nothing to a control already in view.
  function focusInView(el) {
    el.focus({ preventScroll: true });
    el.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (fromMessages(event)) return;
    const live = document.getElementById("live");
    // Only a request that redraws the board: an earlier game's turns loading into the
    // history (or anything else) leaves the focused control where it is.
    if (!live || event.detail.target !== live) return;
    const active = document.activeElement;
    pending = null;
    if (!active || active === document.body || !live.contains(active)) return;
    const sender = event.detail.elt;
    const mine = sender === active || sender.contains(active);
    let kind = "stay";
    if (mine && active.matches(".chip")) kind = "chip";
    else if (mine && !(active.matches("button") && active.type === "button")) kind = "next";
    const all = focusables(live);
    const at = all.indexOf(active);
    pending = {
      live: live,
      control: active,
      kind: kind,
      chip: Array.from(live.querySelectorAll(".chip")).indexOf(active),
      place: placeOf(active, all),
      // Nearest first: those after it (the next Tab's), then those before it.
      near: all
        .slice(at + 1)
        .concat(all.slice(0, Math.max(at, 0)).reverse())
        .map((el) => placeOf(el, all)),
      poll: !mine,
    };
  });

  // The next action on the board (what the player's own clicks lead to). A turn refused
  // comes back with the reason beside the field at fault: the blot named, else the play.
  function nextAction(live) {
    return (
      (live.querySelector(".blot-error") && live.querySelector("#name-blot")) ||
      (live.querySelector(".error") && live.querySelector(".notation-box[open] input[name=play]")) ||
      live.querySelector(".target-dest") ||
      live.querySelector(".submit-play") ||
      live.querySelector(".target") ||
      live.querySelector(".double-button") ||
      live.querySelector("#turn-line")
    );
  }

  function refocus(event) {
    if (!pending || fromMessages(event)) return;
    const live = document.getElementById("live");
    // Settling something else (an out-of-band part, another request): the board the
    // focus was noted on is still there, so the note is kept for its own redraw.
    if (!live || live === pending.live) return;
    const was = pending;
    pending = null;
    const active = document.activeElement;
    // The player has gone elsewhere meanwhile (the message box): leave them there.
    if (active && active !== document.body && !live.contains(active)) return;
    let next = null;
    if (was.kind === "chip") {
      const chips = live.querySelectorAll(".chip");
      next = chips[was.chip] || chips[0] || nextAction(live);
    } else if (was.kind === "next" && was.control.matches(".target-selected")) {
      // A checker let go of: the focus stays on its place, to pick it or another again.
      next = find(live, was.place) || nextAction(live);
    } else if (was.kind === "next") {
      next = nextAction(live);
    } else {
      next = find(live, was.place);
      if (!next && !was.poll) next = live.querySelector(".chip") || nextAction(live);
      for (let i = 0; !next && i < was.near.length; i++) next = find(live, was.near[i]);
      if (!next) next = live.querySelector("#turn-line");
    }
    if (!next) return;
    focusInView(next);
    const typedError = live.querySelector(".play-error");
    if (typedError && next.name === "play") {
      // The typed play came back with the reason beside it: the caret goes after the
      // text to correct, and the reason must be on screen too (a phone shows little).
      next.setSelectionRange(next.value.length, next.value.length);
      typedError.scrollIntoView({ block: "nearest" });
    }
    const blotError = live.querySelector(".blot-error");
    // Likewise the blot's reason (a number field has no caret to place).
    if (blotError && next.name === "name_blot") blotError.scrollIntoView({ block: "nearest" });
  }

  document.addEventListener("htmx:afterSettle", refocus);

  // The history lists the newest turn last: show it, or the segment being replayed (which
  // may be in an earlier game's list). The latest game's list is the section's own child.
  function showLatestHistory() {
    // A list holding the keyboard's focus (a replay link) stays where the player is.
    const holds = (list) => list.contains(document.activeElement);
    const current = document.querySelector(".history .turns .current");
    if (current) {
      const list = current.closest(".turns");
      if (holds(list)) return;
      list.scrollTop = current.offsetTop - list.clientHeight / 2;
      return;
    }
    const list = document.querySelector(".history > .turns");
    if (list && !holds(list)) list.scrollTop = list.scrollHeight;
  }
  document.addEventListener("DOMContentLoaded", showLatestHistory);
  document.addEventListener("htmx:afterSettle", showLatestHistory);

  // A server or network failure swaps nothing, so no afterSettle puts the focus back: the
  // control pressed was disabled during the request (hx-disabled-elt) and the browser
  // dropped the focus on <body>, where Enter does nothing. It goes back to that control,
  // so that Enter tries again. HTMX enables the control again just after a server error
  // is reported (just before a network error is): hence once this event is over.
  function refocusAfterFailure(event) {
    if (!pending || fromMessages(event) || event.detail.target !== pending.live) return;
    const control = pending.control;
    pending = null;
    setTimeout(function () {
      const active = document.activeElement;
      // The player has gone elsewhere meanwhile: leave them there.
      if (active && active !== document.body) return;
      if (control.isConnected && !control.disabled) focusInView(control);
    });
  }

  // A server or network failure leaves the board as it was: say so instead of hanging.
  function failed(event) {
    const status = event.detail && event.detail.xhr ? event.detail.xhr.status : 0;
    if (status >= 400 && status < 500) return; // swapped in place with the reason
    refocusAfterFailure(event);
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

  // A play half made lives only in the page (the form's steps): a reload, or a phone's
  // browser dropping a tab in the background and loading it again, lost it. So the steps
  // are kept in the tab's sessionStorage, by page and segment, and clicked back in when the
  // same board is loaded again: the server checks them as it checks any click (against a
  // board moved on meanwhile, the click is refused as out of date, and they are dropped).
  const KEPT = "acey:steps";
  function keptSteps() {
    try {
      return JSON.parse(sessionStorage.getItem(KEPT) || "null");
    } catch (error) {
      return null; // storage refused (a private window's) or a value of another's
    }
  }
  function keep(value) {
    try {
      if (value) sessionStorage.setItem(KEPT, JSON.stringify(value));
      else sessionStorage.removeItem(KEPT);
    } catch (error) {
      // No storage: the play is lost on a reload, as before.
    }
  }
  function noteSteps() {
    const live = document.getElementById("live");
    const steps = live && live.querySelector("form.controls input[name=steps]");
    const kept = keptSteps();
    if (steps && steps.value) {
      const segment = live.querySelector("form.controls input[name=segment]").value;
      keep({ page: location.pathname, segment: segment, steps: steps.value });
    } else if (kept && kept.page === location.pathname) {
      keep(null); // undone, played, or the board moved on
    }
  }
  function restoreSteps() {
    const live = document.getElementById("live");
    const form = live && live.querySelector("form.controls[data-click]");
    const kept = keptSteps();
    if (!form || !kept || kept.page !== location.pathname) return noteSteps();
    const segment = form.querySelector("input[name=segment]").value;
    const steps = form.querySelector("input[name=steps]");
    if (kept.segment !== segment || steps.value) return noteSteps();
    htmx.ajax("POST", form.dataset.click, {
      source: live,
      target: live,
      swap: "outerHTML",
      values: { steps: kept.steps, segment: segment, history: segment },
    });
  }
  document.addEventListener("DOMContentLoaded", restoreSteps);
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!fromMessages(event)) noteSteps();
  });

  // The messages' poll appends what is new, and the server has marked all before it read:
  // the "new" badges of what an earlier poll brought go, so that "new" means what it says.
  document.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    if (!target || target.id !== "chat-list" || event.detail.xhr.status !== 200) return;
    target.querySelectorAll(".chat-new").forEach(function (badge) { badge.remove(); });
  });
})();
