"""State: the encounter's immutable types. Never changes itself; reducers build new values.
One module each (`encounter`, `sheet`, `fight`, `weapons`; ua3's in `ua3`), none imported here."""
