"""Unknown Armies, 3rd edition (`ua3`): its table, appliers, rules and views; the ruleset value is
`engine.rules.ua3.ruleset.RULESET` (the registry imports it on first use)."""
