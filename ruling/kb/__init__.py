"""The knowledge base: the model, reading it from `rulebook/`, validating it."""
