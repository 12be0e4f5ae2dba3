// Fill a form's hidden timezone field with the browser's own zone ("Europe/Athens"), so a
// new player sees times in their zone from the start. Without JavaScript it stays empty
// and the server takes UTC.
document.addEventListener("DOMContentLoaded", function () {
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (error) {
    return;
  }
  document.querySelectorAll('input[data-detect="zone"]').forEach(function (input) {
    if (!input.value || input.value === "UTC") input.value = zone;
  });
});
