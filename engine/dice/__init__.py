"""Dice: the percentile model (D-*), the counter-based dice source, exact odds; one module each
(`percentile`, `source`, `odds`; checks in `spec`, `judge` and `checks`), none imported here."""
