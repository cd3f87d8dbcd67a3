// The common commands of each edition as small forms: declarations for the round (ua2 C2-4,
// ua3 U-22) and the action of whoever acts now. Each form builds a command of the engine's own
// shape and hands it to `send(command)`; the server judges it (and who may give it).
import { button, labelled, node, select } from "./dom.js";
import { dicePicker } from "./dice.js";

// Everyone else still standing, the other sides first (the likeliest targets).
function others(view, who) {
  const me = view.state.combatants.find((c) => c.id === who) || {};
  const standing = view.state.combatants.filter((c) => c.id !== who && c.status === "active");
  return [...standing.filter((c) => c.side !== me.side), ...standing.filter((c) => c.side === me.side)].map((c) => c.id);
}
// ua3 actions aimed at someone (U-22's declared targets)
const AIMED = new Set(["attack", "full_auto", "suppress", "aim", "grapple", "finish", "coerce"]);
const withDice = (command, dice) => { const faces = dice.value(); return faces.length ? { ...command, dice: faces } : command; };

// ua3: the command that does what `who` declared (U-22); null when the action is the GM's to word.
function declaredCommand(actor, d) {
  const target = (d.targets || [])[0] || "";
  const commands = {
    attack: { command: "ua3_attack", actor, targets: d.targets || [], weapon: d.weapon || "" },
    full_auto: { command: "ua3_full_auto", actor, targets: d.targets || [] },
    suppress: { command: "ua3_suppress", actor, targets: d.targets || [] },
    aim: { command: "ua3_aim", actor, target },
    dodge: { command: "ua3_dodge", actor },
    grapple: { command: "ua3_grapple", actor, target },
    finish: { command: "ua3_finish", actor, target },
    ready: { command: "ua3_ready", actor, weapon: d.weapon || "" },
    clear_jam: { command: "ua3_clear_jam", actor },
    flee: { command: "ua3_flee", actor },
    surrender: { command: "ua3_surrender", actor },
    nothing: { command: "ua3_nothing", actor },
  };
  return commands[d.action] || null;
}

export const UA3_ACTIONS = ["attack", "full_auto", "suppress", "aim", "dodge", "grapple", "finish", "ready", "clear_jam", "flee", "surrender", "nothing"];

// A declaration for `who` this round; a player's leaves the round open for the others (the GM,
// or in ua3 the last to declare, closes it).
export function declareForm(view, who, send) {
  const form = node("form", undefined, "declare");
  form.dataset.actor = who;
  form.append(node("h4", `${who} declares`));
  const targets = others(view, who);
  if (view.ruleset === "ua3") {
    const c = view.state.combatants.find((x) => x.id === who) || {};
    const action = select(UA3_ACTIONS.map((a) => [a, a.replace("_", " ")]), "attack");
    const target = select([["", "no one"], ...targets.map((t) => [t, t])], targets[0] || "");
    const weapon = select([["", "as in hand"], ...(c.weapons || []).map((w) => [w.name, w.name])], "");
    action.name = "action"; target.name = "target"; weapon.name = "weapon";
    form.append(labelled("action", action), labelled("at", target), labelled("with", weapon));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const d = { actor: who, action: action.value, targets: target.value && AIMED.has(action.value) ? [target.value] : [] };
      if (weapon.value) d.weapon = weapon.value;
      send({ command: "ua3_declare", declarations: [d] });
    });
  } else {
    const focusOn = select([["", "no focus"], ...targets.map((t) => [t, `focus on ${t}`])], "");
    const focus = select([0, 10, 20, 30].map((f) => [String(f), `+${f}`]), "0");
    const keepDodging = node("input");
    keepDodging.type = "checkbox";
    focusOn.name = "focus_target"; focus.name = "focus"; keepDodging.name = "continue_dodge";
    form.append(labelled("", focusOn), labelled("focus", focus), labelled("keep dodging", keepDodging));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const d = { id: who };
      if (focusOn.value) { d.focus_target = focusOn.value; d.focus = Number(focus.value); }
      if (keepDodging.checked) d.continue_dodge = true;
      send({ command: "declare", declarations: [d], open: true });
    });
  }
  const submit = node("button", "Declare", "big");
  submit.type = "submit";
  form.append(submit);
  return form;
}

// What `who` may do now that it acts: in ua3 what it declared (U-22) or nothing; in ua2 an
// attack on someone, a dodge, a draw, standing up, nothing, fleeing or surrendering.
export function turnForm(view, who, send) {
  const box = node("section", undefined, "turn-actions");
  box.dataset.actor = who;
  box.append(node("h4", `${who} acts now`));
  const dice = dicePicker(2, `${who}'s roll`);
  const c = view.state.combatants.find((x) => x.id === who) || {};
  if (view.ruleset === "ua3") {
    const d = c.declared;
    const declared = d ? declaredCommand(who, d) : null;
    box.append(dice.el);
    if (declared) {
      const words = `${d.action.replace("_", " ")}${d.targets && d.targets.length ? " → " + d.targets.join(", ") : ""}`;
      const act = button(`Do it: ${words}`, () => send(withDice(declared, dice)), "big act");
      act.dataset.command = declared.command;
      box.append(act);
    }
    box.append(button("Do nothing", () => send({ command: "ua3_nothing", actor: who }), "nothing"));
    return box;
  }
  const fighter = ((view.state.fight || {}).fighters || []).find((f) => f.id === who) || {};
  const targets = others(view, who);
  const target = select(targets.map((t) => [t, t]), targets[0]);
  const weapon = select((fighter.arsenal || []).map((w) => [w.name, w.name]), fighter.in_hand || "");
  target.name = "target"; weapon.name = "weapon";
  box.append(labelled("target", target), labelled("weapon", weapon), dice.el);
  const attack = button("Attack", () => {
    const command = { command: "attack", actor: who, target: target.value };
    if (weapon.value && weapon.value !== fighter.in_hand) command.weapon = weapon.value;
    send(withDice(command, dice));
  }, "big act");
  attack.dataset.command = "attack";
  const row = node("div", undefined, "row");
  row.append(
    button("Dodge", () => send(withDice({ command: "dodge", actor: who }, dice))),
    button("Draw", () => send({ command: "draw", actor: who, weapon: weapon.value })),
    button("Stand up", () => send({ command: "stand_up", actor: who })),
    button("Do nothing", () => send({ command: "do_nothing", actor: who }), "nothing"),
    button("Flee", () => send({ command: "flee", actor: who })),
    button("Surrender", () => send({ command: "surrender", actor: who })),
  );
  box.append(attack, row);
  return box;
}

// C-10 (ua3 U-21): a passion on `who`'s last roll, which failed — one button per passion left.
export function passionButtons(who, passions, spend) {
  const last = passions && passions.last_roll;
  if (!last || !last.failed || last.changed) return null;
  const box = node("section", undefined, "passion");
  box.dataset.actor = who;
  box.append(node("p", `${who}'s last roll, ${last.what}, failed (${last.outcome.replace("_", " ")}): a passion rerolls it (C-10)`));
  for (const p of passions.passions.filter((x) => x.left > 0)) {
    // the reroll is the player's own die (T-3, T-6): pressing the button asks the seed to roll it
    const b = button(`${p.kind}: ${p.trigger} — reroll, rolled for you`, () => spend({ actor: who, passion: p.kind, mode: "reroll", roll_for_me: true }), "big passion");
    b.dataset.passion = p.kind;
    box.append(b);
  }
  return box.children.length > 1 ? box : null;
}
