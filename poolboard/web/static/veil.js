// Run before the page is drawn (a classic script in <head>): a page about to be shown in
// another language than its English HTML stays hidden until it is translated, so a reader
// never sees English flash first. The language is chosen as loadLanguage() chooses it; the
// board's own is in <html data-board-language>. Shown after 3 s whatever happens.
(() => {
  const root = document.documentElement;
  const asked = new URLSearchParams(location.search).get("lang") ?? localStorage.getItem("language");
  if ((asked ?? root.dataset.boardLanguage ?? "en") === "en") return;
  root.classList.add("translating");
  setTimeout(() => root.classList.remove("translating"), 3000);
})();
