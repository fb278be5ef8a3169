"""Deciding: procedures, the question walk, calculators, scenarios, the questionnaire."""
