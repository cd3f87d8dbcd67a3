// One character's card, as the server's state has it: wounds in the edition's words (ua2's
// points left, ua3's wounds taken against the threshold, U-2), the wound shift or level, each
// meter's or gauge's hardened and failed notches, passions left (C-10), weapons, status.
import { node } from "./dom.js";

function row(list, term, value, cls) {
  const dt = node("dt", term);
  const dd = node("dd", value, cls);
  list.append(dt, dd);
}

// opts: { ruleset, words, fighter (ua2's fight entry), passions (GET …/passions/WHO), player, turn }
export function characterCard(c, opts) {
  const { ruleset, words = {}, fighter, passions, player, turn } = opts;
  const card = node("article", undefined, "card");
  card.dataset.id = c.id;
  if (c.id === turn) card.classList.add("now");
  if (c.status && c.status !== "active") card.classList.add("out");
  const title = node("h3", c.id);
  if (c.sheet && c.sheet.name && c.sheet.name !== c.id) title.append(node("span", ` ${c.sheet.name}`, "sub"));
  if (player) title.append(node("span", ` · played by ${player}`, "sub"));
  if (c.id === turn) title.append(node("span", " · acts now", "turn"));
  card.append(title);
  const list = node("dl");
  const axis = words.wounds_axis || "wounds";
  if (ruleset === "ua3") {
    row(list, axis, `${c.wounds} of ${c.wound_threshold}`, "wounds");
    if (c.wound_level) row(list, "wound level", c.wound_level, "level");
  } else {
    row(list, axis, `${c.wounds} of ${c.max_wounds}`, "wounds");
    row(list, "wound shift", c.wound_shift ? String(c.wound_shift) : "none", "shift");
  }
  row(list, "status", c.status + (c.reaction ? `, ${c.reaction.kind}` : ""), "status");
  const meters = (ruleset === "ua3" ? c.gauges : c.meters) || {};
  const notches = Object.entries(meters)
    .filter(([, g]) => g && (g.hardened || g.failed))
    .map(([name, g]) => `${name} ${g.hardened} hardened, ${g.failed} failed`);
  row(list, words.mind || "meters", notches.join("; ") || "no notches", "meters");
  if (passions) {
    const left = passions.passions.map((p) => `${p.kind} ${p.left} left`).join(", ");
    row(list, "passions", left || "none", "passions");
  }
  const arsenal = ruleset === "ua3" ? c.weapons : fighter && fighter.arsenal;
  const weapons = arsenal ? arsenal.map((w) => w.name) : (c.sheet && c.sheet.weapons) || [];
  const inHand = ruleset === "ua3" ? c.in_hand : fighter && fighter.in_hand;
  row(list, "weapons", weapons.map((w) => (w === inHand ? `${w} (in hand)` : w)).join(", ") || "none", "weapons");
  if (c.declared) {
    const d = c.declared;
    row(list, "declared", `${d.action.replace("_", " ")}${d.targets && d.targets.length ? " → " + d.targets.join(", ") : ""}`, "declared");
  }
  card.append(list);
  return card;
}

// Who acts now and the round, in a line.
export function fightLine(view) {
  const fight = view.state.fight || {};
  const parts = [view.state.title || "", view.ruleset, fight.phase || ""];
  if (fight.round) parts.push(`round ${fight.round}`);
  if (view.turn) parts.push(`${view.turn} acts now`);
  else if (fight.phase === "declare") parts.push("declarations open");
  if (fight.result) parts.push(fight.result.winner ? `side ${fight.result.winner} wins` : "over");
  return parts.filter(Boolean).join(" · ");
}
