// A plain POST form is sent once: pressed twice (a double click, an impatient tap on a
// phone), the second press would send it again, and its answer (a refusal of the
// copy) would replace the first's. So once a form is on its way its submit buttons are
// disabled, and any further submit of it is dropped.
//
// Only forms the browser itself sends: HTMX sends its own (hx-post and the like) and
// disables and re-enables their buttons with hx-disabled-elt, without a new page that
// would bring them back. Without JavaScript the forms work as ever.
(function () {
  const HTMX_FORM = "[hx-post], [hx-put], [hx-patch], [hx-delete], [hx-get], [data-hx-post]";
  // A page still shown after this long (the answer is slow, or the player stopped the
  // load) gets its buttons back, so that the form can be sent again.
  const GIVE_BACK_AFTER_MS = 15000;

  function buttons(form) {
    return Array.from(form.elements).filter(function (element) {
      return element.matches("button:not([type=button]):not([type=reset]), input[type=submit]");
    });
  }

  function giveBack(form) {
    delete form.dataset.sending;
    buttons(form).forEach(function (button) {
      if (button.dataset.disabledWhileSending) {
        delete button.dataset.disabledWhileSending;
        button.disabled = false;
      }
    });
  }

  document.addEventListener("submit", function (event) {
    const form = event.target;
    // HTMX's own listener, on the form, has already prevented the browser's sending.
    if (event.defaultPrevented || form.matches(HTMX_FORM)) return;
    // The attributes, not form.method and form.target: a field named "method" or "target"
    // would stand in their place.
    const method = (form.getAttribute("method") || "get").toLowerCase();
    const target = form.getAttribute("target") || "_self";
    if (method !== "post" || target !== "_self") return;
    if (form.dataset.sending) {
      event.preventDefault();
      return;
    }
    form.dataset.sending = "1";
    // After this event, not in it: the button pressed sends its own name and value (a
    // choice between two buttons), and a disabled button would send none.
    setTimeout(function () {
      buttons(form).forEach(function (button) {
        if (!button.disabled) {
          button.dataset.disabledWhileSending = "1";
          button.disabled = true;
        }
      });
    }, 0);
    setTimeout(giveBack, GIVE_BACK_AFTER_MS, form);
  });

  // A form sent once carries a one-time key (games/idempotency.py): the same key sent
  // again is answered with what the first did. Shown again from the cache, the page is
  // used afresh (a bot played again is a new match), so its forms get new keys.
  function newKey(input) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    input.value = Array.from(bytes, function (b) {
      return b.toString(16).padStart(2, "0");
    }).join("");
  }

  // A text pasted into a box with a maxlength is cut there by the browser without a word:
  // the box's note (the element "<box id>-cut") says so, where a player would otherwise
  // send half a message unaware.
  document.addEventListener("paste", function (event) {
    const box = event.target;
    if (!(box instanceof HTMLTextAreaElement) || box.maxLength < 0) return;
    const note = document.getElementById(box.id + "-cut");
    if (!note || !event.clipboardData) return;
    // Counted as maxlength counts, in UTF-16 units, over what the paste replaces.
    const pasted = event.clipboardData.getData("text/plain").replace(/\r\n/g, "\n");
    const kept = box.value.length - (box.selectionEnd - box.selectionStart) + pasted.length;
    if (kept <= box.maxLength) return;
    note.textContent =
      "Only " + box.maxLength + " characters fit: the end of what you pasted was left out.";
    note.hidden = false;
  });
  // Once the box has room again (cut down, emptied, or sent), the note has had its say.
  document.addEventListener("input", function (event) {
    const box = event.target;
    if (!(box instanceof HTMLTextAreaElement) || box.maxLength < 0) return;
    const note = document.getElementById(box.id + "-cut");
    if (note && !note.hidden && box.value.length < box.maxLength) note.hidden = true;
  });

  // A "Copy" button beside a field (data-copy: the field's id) copies its text. Hidden in
  // the page, shown here: without JavaScript there is nothing for it to do.
  function showCopyButtons(root) {
    root.querySelectorAll("button[data-copy]").forEach(function (button) {
      button.hidden = false;
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    showCopyButtons(document);
  });
  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("button[data-copy]");
    if (!button) return;
    const field = document.getElementById(button.dataset.copy);
    if (!field) return;
    const said = button.querySelector("[data-copy-said]");
    function tell(text) {
      if (said) said.textContent = text;
    }
    field.select();
    const copied = navigator.clipboard
      ? navigator.clipboard.writeText(field.value)
      : Promise.reject(new Error("no clipboard"));
    copied.then(
      function () {
        tell("Copied");
        // Back to "Copy" after a while, to be pressed again (a link copied over since).
        setTimeout(tell, 4000, "Copy");
      },
      function () {
        // No clipboard here (an address other than localhost over plain HTTP): the text
        // is selected, to copy by hand.
        tell("Selected: copy it");
      }
    );
  });

  // Back to this page from the browser's cache (Back, Forward): the form can be used again.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    document.querySelectorAll("form[data-sending]").forEach(giveBack);
    document.querySelectorAll("input[name=idempotency_key]").forEach(newKey);
  });
})();
