"""The event journal: rulings recorded in SQLite, the sanction ladder's memory, replay."""
