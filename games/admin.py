"""Admin registrations for game models (none yet)."""
