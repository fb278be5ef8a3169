"""Comparing two editions of a book: alignment, impact, redline."""
