// Dice rolled at the table, given on a page: a row of big buttons 0–9 per die (tens first for a
// percentile roll), or none picked: "roll for me" (the session's seeded dice).
import { node } from "./dom.js";

export function dicePicker(faces = 2, label = "your roll") {
  const box = node("fieldset", undefined, "dice");
  box.append(node("legend", faces === 2 ? `${label}: tens, then ones (or leave them: the dice roll for you)` : `${label}: ${faces} dice`));
  const picked = new Array(faces).fill(null);
  const shown = node("output", "", "picked");
  const refresh = () => {
    shown.textContent = picked.every((d) => d !== null) ? `rolled ${picked.join(",")}` : "not rolled yet";
  };
  for (let i = 0; i < faces; i++) {
    const digits = node("div", undefined, "digits");
    digits.dataset.die = String(i);
    for (let d = 0; d <= 9; d++) {
      const b = node("button", String(d), "digit");
      b.type = "button";
      b.dataset.face = String(d);
      b.setAttribute("aria-label", `${faces === 2 ? (i === 0 ? "tens" : "ones") : `die ${i + 1}`} ${d}`);
      b.addEventListener("click", () => {
        picked[i] = d;
        for (const other of digits.children) other.classList.toggle("on", other === b);
        refresh();
      });
      digits.append(b);
    }
    box.append(digits);
  }
  refresh();
  box.append(shown);
  return {
    el: box,
    // the faces picked, or [] when not all are (the seeded dice then roll)
    value: () => (picked.every((d) => d !== null) ? [...picked] : []),
  };
}
