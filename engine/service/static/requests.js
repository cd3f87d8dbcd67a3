// Open requests (a die or a choice an action waits on, RULES T-1…T-4): what is asked, the rule,
// the target and the exact odds, then the dice pickers or "roll for me", or one button per choice
// that says what it does. `answer(id, body)` posts the answer.
import { button, node } from "./dom.js";
import { dicePicker } from "./dice.js";

export function requestCard(r, answer, { forAbsent = false } = {}) {
  const card = node("article", undefined, "request");
  card.dataset.id = r.id;
  card.dataset.character = r.character;
  const owner = r.owner === "gm" ? "the GM" : r.owner;
  card.append(node("h3", `${r.what}${forAbsent ? ` — waiting on ${owner}` : ""}`));
  const facts = [r.rule];
  if (r.target !== null && r.target !== undefined) facts.push(`target ${r.target}`);
  if (r.chance !== null && r.chance !== undefined) facts.push(`${(r.chance * 100).toFixed(r.chance * 100 % 1 ? 1 : 0)}% to succeed`);
  card.append(node("p", facts.join(" · "), "odds"));
  if (r.kind === "choice") {
    const choices = node("div", undefined, "choices");
    for (const o of r.options || []) {
      const b = button(o.says || o.value, () => answer(r.id, { choose: o.value }), "big");
      b.dataset.value = o.value;
      choices.append(b);
    }
    card.append(choices);
    return card;
  }
  const dice = dicePicker(r.faces || 2);
  card.append(dice.el);
  const send = button("Send these dice", () => {
    const faces = dice.value();
    if (faces.length) answer(r.id, { dice: faces });
  }, "big send");
  card.append(send, button("Roll for me", () => answer(r.id, { roll_for_me: true }), "big roll"));
  return card;
}
