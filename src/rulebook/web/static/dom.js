// Building the pages' DOM from data, never from HTML text: el("li", {class: "x"}, child, "text").
// ``text`` sets textContent, ``on...`` a listener; every other key is an attribute.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}
