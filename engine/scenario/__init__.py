"""Scenario and character files: safe loading, schema, validation, clear errors."""
