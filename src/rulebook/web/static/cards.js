// The card reference: a filter box that shows the cards whose name or text holds every word
// typed (no round trip to the server), and a variant chooser that shows its set at once.
const filter = document.getElementById("card-filter");
const count = document.getElementById("card-count");
const none = document.getElementById("card-none");
const cards = [...document.querySelectorAll(".card-ref")];
const total = count.textContent;

function apply() {
  const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const card of cards) {
    const hit = words.every((w) => card.dataset.search.includes(w));
    card.hidden = !hit;
    if (hit) shown += 1;
  }
  count.textContent = words.length ? `${shown} of ${cards.length} cards match` : total;
  none.hidden = shown > 0;
}

filter.addEventListener("input", apply);
const chooser = document.getElementById("card-set");
if (chooser) {
  chooser.addEventListener("change", () => chooser.form.submit());
  document.getElementById("card-set-show").hidden = true;
}
const wanted = new URLSearchParams(location.search).get("q");
if (wanted) filter.value = wanted;
apply();
document.body.dataset.ready = "yes";
