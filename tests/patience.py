"""How long a test waits for what it awaits before calling it missing."""

#: Generous, as the machine CI runs on may be busy: a wait ends as soon as its condition holds,
#: so this bounds only a failure's report, and nothing is timed.
PATIENCE = 60.0
PATIENCE_MS = int(PATIENCE * 1000)
