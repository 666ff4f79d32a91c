// The links page of a new game: the key in the address's fragment (never sent to the server in
// the URL) asks the API for the seats' links, so the page can be reloaded and bookmarked.
import { el } from "/static/dom.js";

const box = document.getElementById("links");
const gameId = box.dataset.gameId;
const key = decodeURIComponent(location.hash.replace(/^#/, ""));

function copyButtons(root) {
  for (const button of root.querySelectorAll("button.copy")) {
    button.addEventListener("click", async () => {
      const input = button.parentElement.querySelector("input.link");
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
        button.textContent = "Copied";
      } catch {
        button.textContent = "Select and copy";
      }
    });
  }
}

function linkRow(name, url, open, attrs) {
  const full = `${location.origin}${url}`;
  return el("li", {},
    el("span", { class: "seat-name", text: name }), " ",
    el("input", { class: "link", readonly: "", value: full, "aria-label": `link: ${name}` }), " ",
    el("button", { type: "button", class: "copy", text: "Copy" }), " ",
    el("a", { class: "open", href: url, text: open, ...attrs }));
}

function problem(message) {
  const p = document.getElementById("links-error");
  p.textContent = message;
  p.hidden = false;
  document.getElementById("links-keep").hidden = true;
  p.focus();
}

async function show() {
  if (!key) {
    problem("This page shows a game's links to the person who created it, and its address must end with # and the key the creation gave. Without it, you can still watch the game (below); ask whoever created it for your seat's link.");
    return;
  }
  let response;
  try {
    response = await fetch(`/api/games/${gameId}/links`, { headers: { authorization: `Bearer ${key}` } });
  } catch {
    problem("The server cannot be reached just now: reload this page when the connection is back.");
    return;
  }
  const data = await response.json().catch(() => null);
  if (!response.ok || !data) {
    problem(`These links cannot be shown: ${(data && data.error) || `error ${response.status}`}. The spectators' link below still works.`);
    return;
  }
  const seats = document.getElementById("seat-link-list");
  for (const s of data.seats) {
    seats.append(linkRow(`Seat ${s.seat + 1}`, s.url, `Play seat ${s.seat + 1}`, { "data-seat": String(s.seat) }));
  }
  for (const p of data.open || []) {
    seats.append(el("li", { class: "open-seat", "data-seat": String(p) },
      el("span", { class: "seat-name", text: `Seat ${p + 1}` }), " open: anyone may take it from the home page's ", el("a", { href: "/#open-tables", text: "open tables" })));
  }
  document.getElementById("seat-links").hidden = !data.seats.length && !(data.open || []).length;
  if (data.hotseat) {
    document.getElementById("hotseat-link-list").append(linkRow("All human seats", data.hotseat.url, "Play hot-seat", { id: "hotseat-link" }));
    document.getElementById("hotseat-links").hidden = false;
  }
  copyButtons(document.getElementById("seat-links"));
  copyButtons(document.getElementById("hotseat-links"));
  box.dataset.ready = "yes";
}

copyButtons(document.getElementById("watch-link-list"));
show();
