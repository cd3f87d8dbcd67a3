"""Third edition (`ua3`) stored state: sheets, settings, the encounter and its conflicts."""
