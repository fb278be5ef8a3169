"""Every text written to the terminal, and the guard that keeps control characters out of it."""
