"""Unknown Armies, 2nd edition (`ua2`): its table, appliers, rules and views; the ruleset value is
`engine.rules.ua2.ruleset.RULESET` (the registry imports it on first use)."""
