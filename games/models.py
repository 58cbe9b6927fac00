"""Game models. None yet: games, powers and orders come with the server work."""
