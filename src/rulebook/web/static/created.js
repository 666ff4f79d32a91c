// "Copy" buttons of the links page.
for (const button of document.querySelectorAll("button.copy")) {
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
